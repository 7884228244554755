/**
 * `gspc monitor` (issues 31, 36): polls every view of one board, each in isolation
 * (monitor-view.ts), judges what it saw against the checkpoint it verified last
 * (src/core/monitor/log-watch.ts) and the keys against the DID's own host, the keys it pinned
 * and each other (monitor-keys.ts), and keeps its memory in `<state dir>/monitor.json`
 * (monitor-state-file.ts). It learns nothing from a poll that raised an alert: not the
 * checkpoint, not the keys, not the DID.
 */
import { logOrigin } from '../core/evidence/card-log.js';
import type { WitnessPolicy } from '../core/evidence/note/witness-policy.js';
import { judgePoll, type Alert, type SeenCheckpoint } from '../core/monitor/log-watch.js';
import { foreignState, STATE_SCHEMA, type MonitorState } from '../core/monitor/monitor-state.js';
import { type HostAnswer, readDidHost } from './monitor-did.js';
import { boundedGet, DEFAULT_LIMITS, type MonitorLimits, withinBudget } from './monitor-fetch.js';
import { type CacheCounts, stateCache } from './monitor-http-cache.js';
import { LogTileReader } from './log-tile-reader.js';
import { judgeKeys, pinnedHistory, pinOf } from './monitor-keys.js';
import type { ObservedView } from './monitor-observe.js';
import { ensureStateDir, readMonitorState, statePath, writeMonitorState } from './monitor-state-file.js';
import { pollView } from './monitor-view.js';
import { submitCheckpoint } from './witness-submit.js';

/**
 * An alert of a poll: about a view (`view`), or about a witness the checkpoint was sent to with
 * `--submit-witness` (`witness`, its URL; `view` is then '*', as no view raised it).
 */
export type PollAlert = Alert & { witness?: string };

export interface PollResult {
  alerts: PollAlert[];
  last: SeenCheckpoint | undefined;
  /** Witnesses the newly verified checkpoint was sent to, and what they answered. */
  submitted: { witness: string; cosigned: boolean }[];
  /** The views whose checkpoint was verified this poll, and its size (the others have an alert saying why not). */
  judged: { view: string; size: number }[];
  /** Per view: how its log was read, and the tiles and bundles fetched (MT1). */
  log: { view: string; read: 'tiles' | 'entries.json'; requests: number; bytes: number }[];
  /** The conditional requests of the poll, and how many were answered 304 (MT4). */
  conditional: CacheCounts;
}

export interface PollOptions {
  policy?: WitnessPolicy;
  /** tlog-witness submission prefixes to send each newly verified checkpoint to. */
  submitTo?: readonly string[];
  /** Per-request deadline and per-view budget (DEFAULT_LIMITS unless given). */
  limits?: Partial<MonitorLimits>;
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
  const limits: MonitorLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const policy = opts.policy && { policy: opts.policy, now: now() };
  const cache = stateCache(stateDir);
  // The DID's host is read beside the views when the state already names the DID.
  const early = state?.did === undefined ? undefined : readDidHost(state.did, limits, cache);
  const log = { ...(state?.transition_leaves !== undefined && { leaves: state.transition_leaves }) };
  const polled = await Promise.all(
    views.map((v) => pollView(v, { last, digest: state?.documents?.[v], log }, limits, policy, cache)),
  );
  const observations = polled.map((p) => p.observation);
  await provePrefixes(observations, last, limits);
  const named = observations.flatMap((o) => (o.did === undefined ? [] : [o.did]));
  if (state !== undefined) {
    const foreign = foreignState(state, statePath(stateDir), named);
    if (foreign !== undefined) throw foreign;
  }
  const did = state?.did ?? named[0];
  const host = early ?? (did === undefined ? undefined : readDidHost(did, limits, cache));
  const answer = await host;

  const { alerts, next }: { alerts: PollAlert[]; next: SeenCheckpoint | undefined } = judgePoll(last, observations);
  alerts.push(...keyAlerts(state, did, answer, observations));
  const submitted: PollResult['submitted'] = [];
  const isNew = next !== undefined && (last === undefined || next.size !== last.size || next.root !== last.root);
  if (alerts.length === 0 && isNew && (opts.submitTo?.length ?? 0) > 0) {
    const from = observations.find((o) => o.checkpoint?.root === next.root && o.seen !== undefined);
    if (from !== undefined) await submitSeen(from, next.size, limits, opts.submitTo!, alerts, submitted);
  }
  // Any alert (a witness's fork alarm or refusal too) keeps the previous checkpoint and keys.
  const clean = alerts.length === 0;
  const remembered = clean ? next : last;
  const learnt = clean && answer?.ok === true ? pinOf(answer.keys) : state?.pinned;
  const knownDid = clean ? did : state?.did;
  const leaves = clean
    ? observations.find((o) => o.checkpoint?.size === next?.size && o.checkpoint?.root === next?.root)?.transitionLeaves
    : state?.transition_leaves;
  writeMonitorState(stateDir, {
    schema: STATE_SCHEMA,
    views: [...views],
    ...(remembered !== undefined && { last: remembered }),
    ...(knownDid !== undefined && { did: knownDid, log_origin: logOrigin(knownDid) }),
    ...(learnt !== undefined && { pinned: learnt }),
    documents: documentsAfter(state, views, polled, alerts),
    ...(remembered !== undefined && leaves !== undefined && { transition_leaves: leaves }),
    checked_at: now().toISOString(),
  });
  const judged = observations.flatMap((o) =>
    o.checkpoint === undefined ? [] : [{ view: o.view, size: o.checkpoint.size }],
  );
  const logReads = observations.flatMap((o) =>
    o.logRead === undefined
      ? []
      : [{ view: o.view, read: o.logRead, requests: o.tileReads?.requests ?? 0, bytes: o.tileReads?.bytes ?? 0 }],
  );
  return { alerts, last: remembered, submitted, judged, log: logReads, conditional: cache.counts };
}

/**
 * The cross-view prefixes of a poll, proven from the tiles of each view that was read by them
 * (MT6): the checkpoint verified before and every other view's, where smaller than the view's own
 * (equal sizes compare roots, and a larger one is never a prefix). Each view within a budget of
 * its own; a tile it cannot serve leaves the prefix unproven, so judgePoll says split_view or fork.
 */
async function provePrefixes(
  observations: readonly ObservedView[],
  last: SeenCheckpoint | undefined,
  limits: MonitorLimits,
): Promise<void> {
  const pairs = [...(last === undefined ? [] : [last]), ...observations.flatMap((o) => o.checkpoint ?? [])];
  await Promise.all(
    observations.map((o) =>
      o.prefixes === undefined || o.checkpoint === undefined
        ? undefined
        : withinBudget(
            limits,
            (budget) => o.prefixes!(pairs, boundedGet(o.view, limits, budget)),
            () => undefined,
          ),
    ),
  );
}

/**
 * The keys of this poll against the DID's host, the pinned keys and each other. A DID host that
 * cannot be read is an alert when there is nothing else to judge from (no pinned keys); one that
 * answers something unusable always is.
 */
function keyAlerts(
  state: MonitorState | undefined,
  did: string | undefined,
  answer: HostAnswer | undefined,
  observations: readonly ObservedView[],
): Alert[] {
  if (did === undefined) return [];
  const pinned = pinnedHistory(state?.did, state?.pinned, state?.last?.boardKey);
  const alerts: Alert[] = [];
  if (answer?.ok === false && (answer.alert === 'did_host_invalid' || pinned === undefined))
    alerts.push({
      alert: answer.alert,
      view: answer.url,
      detail: `${answer.detail}${pinned === undefined ? '; this monitor has no pinned keys to judge the views from, so it learns nothing' : ''}`,
    });
  alerts.push(
    ...judgeKeys({
      did,
      host: answer?.ok === true ? answer.keys : undefined,
      pinned,
      pinnedMethods: new Map(Object.entries(state?.pinned?.methods ?? {})),
      views: observations.flatMap((o) => (o.keys === undefined ? [] : [o.keys])),
    }),
  );
  return alerts;
}

/**
 * Each view's digest of its release documents, kept when the view raised no alert this poll (so
 * it is not verified in full again until a document changes); a view with an alert keeps the
 * digest of the last content that verified, and is verified again next poll.
 */
function documentsAfter(
  state: MonitorState | undefined,
  views: readonly string[],
  polled: readonly { observation: ObservedView; digest?: string }[],
  alerts: readonly Alert[],
): Record<string, string> {
  const alerted = new Set(alerts.flatMap((a) => a.view.split(' | ')));
  const out: Record<string, string> = {};
  for (const [i, v] of views.entries()) {
    const digest = polled[i]!.digest;
    const before = state?.documents?.[v];
    if (digest !== undefined && !alerted.has(v)) out[v] = digest;
    else if (before !== undefined) out[v] = before;
  }
  return out;
}

/**
 * Sends the checkpoint just verified, with the tree it was verified from, to each witness. A
 * witness that cosigned a larger tree than this one is a fork alarm; one that cannot be reached
 * or refuses is an alert of its own, and the checkpoint is not learnt.
 */
async function submitSeen(
  from: ObservedView,
  size: number,
  limits: MonitorLimits,
  witnesses: readonly string[],
  alerts: PollAlert[],
  submitted: PollResult['submitted'],
): Promise<void> {
  const seen = from.seen!;
  // Read by its tiles, the log gives a witness its proof from the view's tiles (MT7): the
  // witness checks it against the root it cosigned, so the monitor need not trust them.
  const reader = new LogTileReader(boundedGet(from.view, limits, AbortSignal.timeout(limits.viewBudgetMs)));
  const tree = seen.tree ?? { size, consistencyProof: (old: number) => reader.consistencyProof(old, size) };
  for (const witness of witnesses) {
    try {
      const lines = await submitCheckpoint(witness, seen.note, tree);
      submitted.push({ witness, cosigned: lines.toString('utf8').startsWith('\u2014 ') });
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      alerts.push({
        alert: /larger than this log/.test(detail) ? 'fork' : 'witness_submit',
        view: '*',
        witness,
        detail,
      });
    }
  }
}
