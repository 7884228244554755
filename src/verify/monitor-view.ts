/**
 * One view's share of a poll, in isolation (issue 36): observed (monitor-observe.ts), its release
 * documents digested, and verified in full (`gspc verify`) when the digest is not the one it
 * had when it last verified, all within the view's budget. A malformed, oversized, slow or
 * otherwise hostile answer ends this view's share with an alert for it, and nothing else: the
 * other views are still judged in the same poll.
 */
import type { WitnessPolicy } from '../core/evidence/note/witness-policy.js';
import type { SeenCheckpoint } from '../core/monitor/log-watch.js';
import { boundedGet, boundedSource, type MonitorLimits, ViewFault, withinBudget } from './monitor-fetch.js';
import { releaseDigest } from './monitor-documents.js';
import type { HttpCache } from './monitor-http-cache.js';
import { blindView, type KnownLog, observeView, type ObservedView } from './monitor-observe.js';
import { verifyRelease } from './release-verifier.js';

export interface PolledView {
  observation: ObservedView;
  /** The digest of its release documents, when it was observed whole. */
  digest?: string;
}

export async function pollView(
  view: string,
  known: { last: SeenCheckpoint | undefined; digest: string | undefined; log?: KnownLog },
  limits: MonitorLimits,
  policy?: { policy: WitnessPolicy; now: Date },
  cache?: HttpCache,
): Promise<PolledView> {
  // What was learnt before a fault stays: the DID it names and its keys are still judged.
  let seen: ObservedView | undefined;
  return withinBudget<PolledView>(
    limits,
    async (budget) => {
      const get = boundedGet(view, limits, budget, cache);
      const observation = await observeView(view, known.last, policy, get, known.log);
      seen = observation;
      if (observation.problem !== undefined || observation.checkpoint === undefined) return { observation };
      const digest = await releaseDigest(get);
      if (digest === known.digest) return { observation, digest };
      const failed: string[] = [];
      try {
        const report = await verifyRelease(boundedSource(get));
        // Keys that gspc verify could not anchor (the DID's host did not answer) are anchored by
        // the monitor itself: against its pinned keys, or the poll is did_host_unreachable.
        if (report.ok || (report as { verdict?: string }).verdict === 'UNVERIFIABLE_KEY')
          return { observation, digest };
        const bad = report.checks.filter((c) => !c.ok);
        // The log's entries not giving its signed root is the alert it always was, whether the
        // poll read them itself or (reading the tiles, MT5) left them to this verification.
        // Only the entries' disagreement (log-proof.ts's detail), not a signature gspc verify
        // checks under keys of its own anchoring (an impostor's).
        const log = bad.find(
          (c) =>
            c.check === 'log_checkpoint' &&
            observation.logRead === 'tiles' &&
            /; the entries give size /.test(c.detail),
        );
        if (log !== undefined)
          return {
            observation: {
              ...observation,
              problem: { alert: 'entries_rewritten', detail: `/log/entries.json: ${log.detail}` },
            },
            digest,
          };
        failed.push(...bad.map((c) => `${c.check}: ${c.detail}`));
        if (report.cards.invalid.length > 0) failed.push(`${report.cards.invalid.length} invalid cards`);
      } catch (e) {
        // A fault of the view's answers is its own alert; anything else the verification refused
        // (files that do not read as a corpus, say) is the release failing it.
        if (e instanceof ViewFault) throw e;
        failed.push(e instanceof Error ? e.message : String(e));
      }
      return {
        observation: {
          ...observation,
          problem: { alert: 'release_invalid', detail: `gspc verify fails: ${failed.slice(0, 3).join('; ')}` },
        },
        digest,
      };
    },
    (alert, detail) => ({
      observation: blindView(view, alert, detail, {
        ...(seen?.did !== undefined && { did: seen.did }),
        ...(seen?.keys !== undefined && { keys: seen.keys }),
      }),
    }),
  );
}
