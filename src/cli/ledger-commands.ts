/**
 * The operator's ledger commands: `gspc reconcile` (close UNKNOWN payments from the chain, and
 * settle FAILED ones a late transfer paid after all),
 * `gspc invoice list | settle <ref>` and `gspc payments list`. Each opens the ledger the
 * configuration names (honouring --data-dir), does one thing and closes it. Artefact bytes are
 * never loaded for a listing.
 */
import { type Command, InvalidArgumentError } from 'commander';
import type { ConfigSource } from '../config.js';
import { GspcError } from '../core/errors.js';
import { createChainReader } from '../payments/chain-reader.js';
import { reconcile } from '../payments/reconcile.js';
import { SETTLEMENT_STATES, type SettlementState } from '../store/ledger.js';
import { type CliRun, withLedger } from './cli-io.js';
import { formatInvoices, formatPayments, formatReconcile, withoutBytes } from './ledger-format.js';

/**
 * Default age after which a RESERVED record counts as abandoned: well past the longest a live
 * request can hold one (the facilitator timeout is at most 120 s, an authorization 300 s).
 */
const DEFAULT_STALE_AFTER_S = 900;
// Below this a reconcile could take a payment from a request that is still settling it.
const MIN_STALE_AFTER_S = 60;

function staleAfter(v: string): number {
  const n = Number(v);
  if (!/^[0-9]+$/.test(v) || n < MIN_STALE_AFTER_S)
    throw new InvalidArgumentError(`must be a whole number of seconds, at least ${MIN_STALE_AFTER_S}`);
  return n;
}

function blockNumber(v: string): bigint {
  if (!/^(0|[1-9][0-9]{0,19})$/.test(v)) throw new InvalidArgumentError('must be a block number (0 or more)');
  return BigInt(v);
}

function state(v: string): SettlementState {
  if (!(SETTLEMENT_STATES as readonly string[]).includes(v))
    throw new InvalidArgumentError(`must be one of ${SETTLEMENT_STATES.join(', ')}`);
  return v as SettlementState;
}

const DATA_DIR = [
  '--data-dir <dir>',
  'the data directory whose ledger.sqlite is used (default: $GSPC_DATA_DIR or ./data; GSPC_DATABASE_URL or GSPC_LEDGER_PATH take precedence)',
] as const;

export function registerLedgerCommands(program: Command, configOf: ConfigSource, run: CliRun): void {
  const configFor = (dataDir: string | undefined) => configOf(dataDir !== undefined ? { dataDir } : {});
  program
    .command('reconcile')
    .description(
      'resolve UNKNOWN payments from the chain (GSPC_RPC_URL): SETTLED when the transfer is there, FAILED when the authorization expired unused; abandoned RESERVED records become UNKNOWN first; FAILED payments whose authorization was used on chain after all become SETTLED',
    )
    .option(
      '--stale-after <seconds>',
      `a RESERVED record untouched this long is abandoned (at least ${MIN_STALE_AFTER_S})`,
      staleAfter,
      DEFAULT_STALE_AFTER_S,
    )
    .option(
      '--from-block <n>',
      'the block to search AuthorizationUsed logs from (default 0; providers limit ranges, so give one shortly before the oldest open payment)',
      blockNumber,
    )
    .option(
      '--all-failed',
      'check every FAILED payment for a late transfer, not only those whose authorization expired less than a day ago (once, after an upgrade or a long pause)',
    )
    .option('--json', 'print the report as JSON')
    .option(...DATA_DIR)
    .action(
      async (o: { staleAfter: number; fromBlock?: bigint; allFailed?: boolean; json?: boolean; dataDir?: string }) => {
        const config = configFor(o.dataDir);
        if (config.rpcUrl === null) {
          throw new GspcError(
            'config_invalid',
            'gspc reconcile needs GSPC_RPC_URL: the JSON-RPC endpoint of the payment network (for Base, an https:// URL of a Base node); nothing was changed',
          );
        }
        const rpcUrl = config.rpcUrl;
        const report = await withLedger(config.ledger, (ledger) =>
          reconcile({
            ledger,
            chain: createChainReader(rpcUrl),
            now: new Date(),
            staleAfterMs: o.staleAfter * 1000,
            ...(o.fromBlock !== undefined && { fromBlock: o.fromBlock }),
            ...(o.allFailed === true && { allFailed: true }),
          }),
        );
        if (o.json) run.json(report);
        else run.print(formatReconcile(report, o.staleAfter));
        // Something could not be checked (the chain or the ledger failed): say so to cron.
        if (report.counts.error > 0) run.exitCode = 1;
      },
    );

  const invoice = program.command('invoice').description('invoices issued to buyers who pay outside the token');
  invoice
    .command('list')
    .description(
      'every invoice: reference, state, product, resource, commissioned by, amount, currency, issued and paid times',
    )
    .option('--json', 'print JSON (artefact bytes are left out; their SHA-256 stays)')
    .option(...DATA_DIR)
    .action(async (o: { json?: boolean; dataDir?: string }) => {
      const invoices = await withLedger(configFor(o.dataDir).ledger, (l) => l.listInvoices({ withArtefacts: false }));
      if (o.json) run.json({ invoices: invoices.map(withoutBytes) });
      else run.print(formatInvoices(invoices));
    });
  invoice
    .command('settle')
    .description(
      'mark an invoice PAID once its money has arrived; the buyer can then collect the artefact with the reference',
    )
    .argument('<ref>', 'the invoice reference (inv_…)')
    .option(...DATA_DIR)
    .action(async (ref: string, o: { dataDir?: string }) => {
      const message = await withLedger(configFor(o.dataDir).ledger, async (ledger) => {
        const existing = await ledger.getInvoice(ref);
        if (existing === undefined)
          throw new GspcError(
            'ledger_not_found',
            `no invoice ${ref} in the ledger; \`gspc invoice list\` shows the references`,
            { ref },
          );
        if (existing.state === 'PAID') return `invoice ${ref} was already paid at ${existing.paid_at}; nothing changed`;
        const at = new Date().toISOString();
        const paid = await ledger.markInvoicePaid(ref, at);
        // markInvoicePaid keeps the first paid_at: another settle may have won the race.
        if (paid.paid_at !== at) return `invoice ${ref} was already paid at ${paid.paid_at}; nothing changed`;
        return (
          `invoice ${ref} is PAID at ${at} (${paid.amount_atomic} ${paid.currency}, ${paid.product_id}, commissioned by ${paid.commissioned_by})` +
          (paid.artefact_sha256
            ? `; its artefact (sha256 ${paid.artefact_sha256}) is now released at /api/invoices/${ref}`
            : '')
        );
      });
      run.print(message);
    });

  const payments = program.command('payments').description('the payment ledger');
  payments
    .command('list')
    .description('every payment record (without artefact bytes), in the order first reserved')
    .option('--state <state>', `only this state (${SETTLEMENT_STATES.join(', ')})`, state)
    .option('--json', 'print JSON')
    .option(...DATA_DIR)
    .action(async (o: { state?: SettlementState; json?: boolean; dataDir?: string }) => {
      const records = await withLedger(configFor(o.dataDir).ledger, (l) =>
        l.list({ withArtefacts: false, ...(o.state !== undefined && { state: o.state }) }),
      );
      if (o.json) run.json({ payments: records.map(withoutBytes) });
      else run.print(formatPayments(records));
    });
}
