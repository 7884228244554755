/**
 * The operator's status commands over the ledger: `gspc heartbeat` (what the external
 * watchdog's cron runs at least every 10 minutes; specification, Limits: watchdog period,
 * external dead-man's switch) and `gspc action-jobs record | cancel | verify | list` (the
 * action-job ledger: intent and state receipts only; specification, "Capability fabric").
 *
 * `record` writes an intent receipt and, because execution is disabled (FAIL_CLOSED), the
 * REFUSED state receipt of the same job: nothing is executed, no provider is called and
 * nothing leaves the machine. Each append re-reads and re-verifies the chain, builds on its
 * head and, when another writer moved the head first (`ledger_conflict`), tries again on the
 * new head; a BROKEN chain is never extended. Receipts and notes are served publicly.
 */
import { randomBytes } from 'node:crypto';
import { type Command, InvalidArgumentError } from 'commander';
import type { ConfigSource } from '../config.js';
import { GspcError } from '../core/errors.js';
import { ACTION_IDS, type ActionId, type ActionJobReceipt, type JobState } from '../core/ledger/action-jobs-receipt.js';
import { EXECUTION_REFUSED_REASON, jobsOf } from '../core/ledger/action-jobs-states.js';
import {
  headOf,
  nextReceipt,
  verifyReceiptChain,
  type ChainCheck,
  type ChainHead,
} from '../core/ledger/receipt-chain.js';
import type { Ledger, StoredActionReceipt } from '../store/ledger.js';
import { type CliRun, withLedger } from './cli-io.js';

/** Appends retried after another writer moved the head; more means the chain is contended. */
const APPEND_ROUNDS = 3;
const DEFAULT_BY = 'operator (gspc CLI)';
const DEFAULT_INTENT_REASON = 'requested by the operator with gspc action-jobs record';
const DEFAULT_CANCEL_REASON = 'cancelled by the operator with gspc action-jobs cancel';

const DATA_DIR = [
  '--data-dir <dir>',
  'the data directory whose ledger.sqlite is used (default: $GSPC_DATA_DIR or ./data; GSPC_DATABASE_URL or GSPC_LEDGER_PATH take precedence)',
] as const;
const BY = ['--by <label>', 'who records it, as shown publicly (never a secret)'] as const;

function actionId(v: string): ActionId {
  if (!(ACTION_IDS as readonly string[]).includes(v))
    throw new InvalidArgumentError(`must be one of ${ACTION_IDS.join(', ')}`);
  return v as ActionId;
}

/** The chain refused to be extended because it does not verify: an expected outcome, not a crash. */
export class BrokenChain extends Error {
  constructor(readonly check: ChainCheck) {
    super(
      `the action-job chain is BROKEN (${check.reason}); nothing was recorded: an append would extend a chain that no longer verifies`,
    );
  }
}

/**
 * Appends the receipt `build` makes on the current head, after verifying the whole chain;
 * retries on a moved head (the store refused it, so nothing forked). `build` sees the verified
 * receipts, so it can check the job it extends.
 */
export async function appendOnHead(
  ledger: Ledger,
  build: (head: ChainHead, receipts: ActionJobReceipt[]) => ActionJobReceipt,
): Promise<StoredActionReceipt> {
  for (let round = 1; ; round++) {
    const rows = await ledger.listActionReceipts();
    const { check, receipts } = verifyReceiptChain(rows);
    if (check.state === 'BROKEN') throw new BrokenChain(check);
    const head = headOf(rows.at(-1));
    try {
      return await ledger.appendActionReceipt(build(head, receipts), head.sha256);
    } catch (e) {
      if (!(e instanceof GspcError && e.code === 'ledger_conflict') || round >= APPEND_ROUNDS) throw e;
    }
  }
}

export interface RecordOptions {
  action: ActionId;
  reason: string;
  by: string;
  jobId: string;
  now: () => Date;
}

/** An intent receipt, then the REFUSED receipt of the same job (execution is disabled). */
export async function recordActionJob(
  ledger: Ledger,
  o: RecordOptions,
): Promise<{ intent: StoredActionReceipt; refusal: StoredActionReceipt }> {
  const fields = (state: JobState, reason: string) => ({
    job_id: o.jobId,
    kind: state === 'REQUESTED' ? ('intent' as const) : ('state' as const),
    action_id: o.action,
    state,
    reason,
    recorded_at: o.now().toISOString(),
    recorded_by: o.by,
  });
  const intent = await appendOnHead(ledger, (head) => nextReceipt(head, fields('REQUESTED', o.reason)));
  try {
    const refusal = await appendOnHead(ledger, (head) =>
      nextReceipt(head, fields('REFUSED', EXECUTION_REFUSED_REASON)),
    );
    return { intent, refusal };
  } catch (e) {
    if (!(e instanceof GspcError)) throw e;
    // The intent is recorded and cannot be taken back: say how to close the job.
    throw new GspcError(
      e.code,
      `${e.message}; job ${o.jobId} stays REQUESTED (seq ${intent.seq}): \`gspc action-jobs cancel ${o.jobId}\` closes it`,
      e.details,
    );
  }
}

/** A CANCELLED receipt for a job that is still REQUESTED (e.g. a record interrupted before its refusal). */
export async function cancelActionJob(
  ledger: Ledger,
  o: { jobId: string; reason: string; by: string; now: () => Date },
): Promise<StoredActionReceipt> {
  return appendOnHead(ledger, (head, receipts) => {
    const job = jobsOf(receipts).find((j) => j.job_id === o.jobId);
    if (job === undefined)
      throw new GspcError(
        'ledger_not_found',
        `no action job ${o.jobId} in the ledger; \`gspc action-jobs list\` shows the jobs`,
        { job_id: o.jobId },
      );
    return nextReceipt(head, {
      job_id: o.jobId,
      kind: 'state',
      action_id: job.action_id,
      state: 'CANCELLED',
      reason: o.reason,
      recorded_at: o.now().toISOString(),
      recorded_by: o.by,
    });
  });
}

/** The chain check as the operator reads it. */
export function formatCheck(c: ChainCheck): string {
  const head = c.state === 'EMPTY' ? '' : `, head sha256 ${c.head_sha256}`;
  const where =
    c.broken_at_seq === undefined
      ? ''
      : ` at seq ${c.broken_at_seq} (${c.intact_length} of ${c.length} receipts verify)`;
  return `action-job chain ${c.state}${where}: ${c.length} receipts${head}\n${c.reason}`;
}

function formatJobs(receipts: ActionJobReceipt[]): string {
  const jobs = jobsOf(receipts);
  if (jobs.length === 0) return 'no action jobs';
  return jobs
    .map(
      (j) =>
        `${j.job_id}  ${j.state.padEnd(9)}  ${j.action_id}  requested ${j.requested_at}  receipts ${j.receipts.join(',')}`,
    )
    .join('\n');
}

export function registerStatusCommands(program: Command, configOf: ConfigSource, run: CliRun): void {
  const ledgerOf = (dataDir: string | undefined) => configOf(dataDir !== undefined ? { dataDir } : {}).ledger;
  program
    .command('heartbeat')
    .description(
      "record a heartbeat in the ledger; the external watchdog's cron runs `gspc heartbeat --source watchdog` at least every 10 minutes (/api/oracle-fleet shows it STALE after 600 s)",
    )
    .requiredOption('--source <slug>', 'who beats: a lowercase slug, e.g. watchdog')
    .option('--note <text>', 'one line of text, served publicly')
    .option(...DATA_DIR)
    .action(async (o: { source: string; note?: string; dataDir?: string }) => {
      const beat = await withLedger(ledgerOf(o.dataDir), (l) =>
        l.recordHeartbeat({
          source: o.source,
          at: new Date().toISOString(),
          ...(o.note !== undefined && { note: o.note }),
        }),
      );
      run.print(`heartbeat ${beat.source} recorded at ${beat.at}`);
    });

  const jobs = program
    .command('action-jobs')
    .description(
      'the action-job ledger: intent and state receipts in an append-only hash chain; no job is ever executed',
    );
  jobs
    .command('record')
    .description(
      'record an intent for an action and, since execution is disabled (FAIL_CLOSED), its REFUSED state: no executor, provider call or egress',
    )
    .requiredOption('--action <id>', `the action (${ACTION_IDS.join(', ')})`, actionId)
    .option('--reason <text>', 'why it is requested, served publicly', DEFAULT_INTENT_REASON)
    .option(...BY, DEFAULT_BY)
    .option('--json', 'print the stored receipts as JSON')
    .option(...DATA_DIR)
    .action(async (o: { action: ActionId; reason: string; by: string; json?: boolean; dataDir?: string }) => {
      const jobId = `aj-${randomBytes(8).toString('hex')}`;
      await reportBroken(run, async () => {
        const r = await withLedger(ledgerOf(o.dataDir), (l) =>
          recordActionJob(l, { action: o.action, reason: o.reason, by: o.by, jobId, now: () => new Date() }),
        );
        if (o.json) run.json(r);
        else
          run.print(
            `job ${jobId} (${o.action}): intent recorded as seq ${r.intent.seq} (REQUESTED), refused as seq ${r.refusal.seq} (REFUSED: ${EXECUTION_REFUSED_REASON})`,
          );
      });
    });
  jobs
    .command('cancel')
    .description('record CANCELLED for a job still REQUESTED (e.g. a record that stopped before its refusal)')
    .argument('<job-id>')
    .option('--reason <text>', 'why, served publicly', DEFAULT_CANCEL_REASON)
    .option(...BY, DEFAULT_BY)
    .option(...DATA_DIR)
    .action(async (jobId: string, o: { reason: string; by: string; dataDir?: string }) => {
      await reportBroken(run, async () => {
        const r = await withLedger(ledgerOf(o.dataDir), (l) =>
          cancelActionJob(l, { jobId, reason: o.reason, by: o.by, now: () => new Date() }),
        );
        run.print(`job ${jobId}: CANCELLED as seq ${r.seq}`);
      });
    });
  jobs
    .command('verify')
    .description('check the whole receipt chain from the first receipt; exit status 1 when it is BROKEN')
    .option('--json', 'print the check as JSON')
    .option(...DATA_DIR)
    .action(async (o: { json?: boolean; dataDir?: string }) => {
      const { check } = verifyReceiptChain(await withLedger(ledgerOf(o.dataDir), (l) => l.listActionReceipts()));
      if (o.json) run.json(check);
      else run.print(formatCheck(check));
      if (check.state === 'BROKEN') run.exitCode = 1;
    });
  jobs
    .command('list')
    .description(
      'the jobs and their states from the verified receipts (a broken chain is named, and receipts after the break are not shown)',
    )
    .option('--json', 'print the chain check, jobs and receipts as JSON')
    .option(...DATA_DIR)
    .action(async (o: { json?: boolean; dataDir?: string }) => {
      const { check, receipts } = verifyReceiptChain(
        await withLedger(ledgerOf(o.dataDir), (l) => l.listActionReceipts()),
      );
      if (o.json) run.json({ chain: check, jobs: jobsOf(receipts), receipts });
      else run.print(`${formatCheck(check)}\n${formatJobs(receipts)}`);
      if (check.state === 'BROKEN') run.exitCode = 1;
    });
}

/** A broken chain is reported on stderr with exit status 1; other failures propagate. */
async function reportBroken(run: CliRun, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    if (!(e instanceof BrokenChain)) throw e;
    run.warn(`gspc: ${e.message}`);
    run.exitCode = 1;
  }
}
