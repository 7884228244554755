/**
 * `gspc monitor` (issue 31): polls every view of one board, judges what it saw against the
 * checkpoint it verified last (src/core/monitor/log-watch.ts), verifies in full (`gspc verify`)
 * each release it has not seen yet, and keeps its memory durably in `<state dir>/monitor.json`
 * (written to a temporary file, synced and renamed, so a crash leaves the old state or the new,
 * never half of one). The state is the monitor's own: no server is asked what it saw before.
 */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { GspcError } from '../core/errors.js';
import { judgePoll, type Alert, type SeenCheckpoint } from '../core/monitor/log-watch.js';
import { urlSource } from './release-source.js';
import { verifyRelease } from './release-verifier.js';
import { observeView, type ObservedView } from './monitor-observe.js';
import { submitCheckpoint } from './witness-submit.js';
import type { WitnessPolicy } from '../core/evidence/note/witness-policy.js';

const STATE_FILE = 'monitor.json';
const STATE_SCHEMA = 'svc.monitor-state/1';

interface MonitorState {
  schema: typeof STATE_SCHEMA;
  views: string[];
  last?: SeenCheckpoint;
  checked_at?: string;
}

export function readMonitorState(dir: string): MonitorState | undefined {
  const path = join(dir, STATE_FILE);
  if (!existsSync(path)) return undefined;
  const state = JSON.parse(readFileSync(path, 'utf8')) as MonitorState;
  if (state.schema !== STATE_SCHEMA) throw new GspcError('config_invalid', `${path} is not a ${STATE_SCHEMA} document`);
  return state;
}

/**
 * The state directory, made if missing: it or its parent must be a writable directory. Checked
 * before a poll, so a wrong path is refused at once (and a recursive mkdir under a special file
 * system such as /proc, which never returns in Node 20, is never tried).
 */
export function ensureStateDir(dir: string): void {
  const target = existsSync(dir) ? dir : dirname(dir);
  try {
    if (!statSync(target).isDirectory()) throw new Error('not a directory');
    accessSync(target, constants.W_OK);
  } catch (e) {
    throw new GspcError(
      'config_invalid',
      `--state ${dir}: ${existsSync(dir) ? 'it' : `its parent ${target}`} is not a writable directory (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  if (target !== dir) mkdirSync(dir);
}

function writeMonitorState(dir: string, state: MonitorState): void {
  const tmp = join(dir, `.${STATE_FILE}.${process.pid}`);
  const fd = openSync(tmp, 'w', 0o644);
  try {
    writeSync(fd, `${JSON.stringify(state, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(dir, STATE_FILE));
}

export interface PollResult {
  alerts: Alert[];
  last: SeenCheckpoint | undefined;
  /** Witnesses the newly verified checkpoint was sent to, and what they answered. */
  submitted: { witness: string; cosigned: boolean }[];
}

export interface PollOptions {
  policy?: WitnessPolicy;
  /** tlog-witness submission prefixes to send each newly verified checkpoint to. */
  submitTo?: readonly string[];
}

export async function pollOnce(
  views: readonly string[],
  stateDir: string,
  now: () => Date,
  opts: PollOptions = {},
): Promise<PollResult> {
  ensureStateDir(stateDir);
  const state = readMonitorState(stateDir);
  const last = state?.last;
  const policy = opts.policy && { policy: opts.policy, now: now() };
  const observations = await Promise.all(views.map((v) => observeView(v, last, policy)));
  // A release the monitor has not verified before is verified whole, once per new checkpoint.
  for (const [i, o] of observations.entries()) {
    const cp = o.checkpoint;
    if (cp === undefined || o.problem || (last !== undefined && cp.size === last.size && cp.root === last.root))
      continue;
    const report = await verifyRelease(urlSource(views[i]!)).catch((e: Error) => ({
      ok: false as const,
      checks: [{ check: 'fetch', ok: false, detail: e.message }],
      cards: { invalid: [] as unknown[] },
    }));
    if (!report.ok) {
      const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.check}: ${c.detail}`);
      observations[i] = {
        ...o,
        problem: {
          alert: 'release_invalid',
          detail: `gspc verify fails: ${[...failed, ...(report.cards.invalid.length > 0 ? [`${report.cards.invalid.length} invalid cards`] : [])].slice(0, 3).join('; ')}`,
        },
      };
    }
  }
  const { alerts, next } = judgePoll(last, observations);
  const submitted: PollResult['submitted'] = [];
  const isNew = next !== undefined && (last === undefined || next.size !== last.size || next.root !== last.root);
  if (alerts.length === 0 && isNew && (opts.submitTo?.length ?? 0) > 0) {
    const seen = observations.find((o) => o.checkpoint?.root === next.root)?.seen;
    if (seen !== undefined) await submitSeen(seen, opts.submitTo!, alerts, submitted);
  }
  // A witness's fork alarm or refusal keeps the previous checkpoint, as any other alert does.
  const remembered = alerts.length === 0 ? next : last;
  writeMonitorState(stateDir, {
    schema: STATE_SCHEMA,
    views: [...views],
    ...(remembered !== undefined && { last: remembered }),
    checked_at: now().toISOString(),
  });
  return { alerts, last: remembered, submitted };
}

/**
 * Sends the checkpoint just verified, with the tree it was verified from, to each witness. A
 * witness that cosigned a larger tree than this one is a fork alarm; one that cannot be reached
 * or refuses is an alert of its own, and the checkpoint is not learnt.
 */
async function submitSeen(
  seen: NonNullable<ObservedView['seen']>,
  witnesses: readonly string[],
  alerts: Alert[],
  submitted: PollResult['submitted'],
): Promise<void> {
  for (const witness of witnesses) {
    try {
      const lines = await submitCheckpoint(witness, seen.note, seen.tree);
      submitted.push({ witness, cosigned: lines.toString('utf8').startsWith('\u2014 ') });
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      alerts.push({ alert: /larger than this log/.test(detail) ? 'fork' : 'witness_submit', view: witness, detail });
    }
  }
}
