/**
 * What a monitor concludes from what it saw (issue 31, `gspc monitor`), pure: the checkpoint it
 * last verified (kept by the monitor, never read back from a server) against each view's new
 * observation, and the views against each other. A transparency log protects readers only if
 * someone remembers what they saw: this is that memory's judgement. The keys are judged apart
 * (src/verify/monitor-keys.ts); the I/O is src/verify/monitor*.ts.
 */

/** A checkpoint the monitor verified: the board key's signature held and the entries gave its root. */
export interface SeenCheckpoint {
  size: number;
  root: string;
  /** The board key the DID document gave then (JWK `x`; kept for states written before `pinned`). */
  boardKey: string;
}

/** One view (an origin, a replica, a mirror) as polled now. */
export interface ViewObservation {
  view: string;
  /** Undefined when the view could not be read or its checkpoint did not verify (`problem` says why). */
  checkpoint?: SeenCheckpoint;
  problem?: { alert: AlertKind; detail: string };
  /**
   * Whether the view's first `n` entries have the root `root` (hex): for the size the monitor
   * verified last, and the other views' sizes, checked against the view's own /log/entries.json
   * or proven from its tiles before the poll is judged (MT6).
   */
  holdsPrefix(n: number, root: string): boolean;
}

/** Every alert a monitor raises; docs/operations.md has a row for each (a test checks it). */
export const ALERT_KINDS = [
  'unreachable',
  'checkpoint_invalid',
  'entries_rewritten',
  'rollback',
  'fork',
  'split_view',
  'key_changed_without_transition',
  'release_invalid',
  'witness_quorum',
  'witness_submit',
  // Issue 36: a view is judged alone, and its keys against the DID's host and the pinned keys.
  'view_malformed',
  'view_oversized',
  'view_timeout',
  'key_mismatch',
  'did_host_unreachable',
  'did_host_invalid',
  'poll_failed',
  // Issue 42: the log read by its tiles, which do not give the root its checkpoint signs.
  'tiles_invalid',
] as const;

export type AlertKind = (typeof ALERT_KINDS)[number];

export interface Alert {
  alert: AlertKind;
  view: string;
  detail: string;
}

/**
 * The alerts of one poll, and the checkpoint to remember next: the largest one that no alert
 * contradicts (the previous one when anything is wrong, so a fork is never learnt as the truth).
 */
export function judgePoll(
  last: SeenCheckpoint | undefined,
  views: readonly ViewObservation[],
): { alerts: Alert[]; next: SeenCheckpoint | undefined } {
  const alerts: Alert[] = [];
  for (const v of views) {
    if (v.problem) alerts.push({ ...v.problem, view: v.view });
    const cp = v.checkpoint;
    if (cp === undefined || last === undefined) continue;
    if (cp.size < last.size) {
      // A smaller log is a rollback (possibly benign) only if it is a prefix of the log this
      // monitor verified; the monitor keeps that log's size and root, not its entries, so it can
      // tell only from a view of this poll that still serves it (review finding 4g).
      const witness = views.find(
        (w) =>
          w !== v &&
          w.checkpoint !== undefined &&
          w.checkpoint.size >= last.size &&
          w.holdsPrefix(last.size, last.root),
      );
      if (witness !== undefined && !witness.holdsPrefix(cp.size, cp.root))
        alerts.push({
          alert: 'fork',
          view: v.view,
          detail: `the log has ${cp.size} entries, fewer than the ${last.size} this monitor verified before, and they are not the first ${cp.size} of that log (as ${witness.view} serves it, root ${cp.root} is not its root at ${cp.size}): a fork, not a rollback`,
        });
      else
        alerts.push({
          alert: 'rollback',
          view: v.view,
          detail: `the log has ${cp.size} entries, fewer than the ${last.size} this monitor verified before${witness === undefined ? ' (no view of this poll serves that log, so whether these are its first entries cannot be told)' : `, and they are the first ${cp.size} of that log (${witness.view})`}`,
        });
    } else if (!v.holdsPrefix(last.size, last.root))
      alerts.push({
        alert: 'fork',
        view: v.view,
        detail:
          cp.size === last.size
            ? `at size ${cp.size} the root is ${cp.root}, not the ${last.root} this monitor verified`
            : `its first ${last.size} entries do not give the root ${last.root} this monitor verified: history was rewritten`,
      });
  }
  // Views against each other: the smaller log must be a prefix of the larger.
  const seen = views.filter((v) => v.checkpoint !== undefined);
  for (const [i, a] of seen.entries())
    for (const b of seen.slice(i + 1)) {
      const [small, large] = a.checkpoint!.size <= b.checkpoint!.size ? [a, b] : [b, a];
      if (!large.holdsPrefix(small.checkpoint!.size, small.checkpoint!.root))
        alerts.push({
          alert: 'split_view',
          view: `${small.view} | ${large.view}`,
          detail: `${small.view} shows root ${small.checkpoint!.root} at size ${small.checkpoint!.size}; ${large.view}'s log does not have it as its first ${small.checkpoint!.size} entries`,
        });
    }
  const largest = seen.map((v) => v.checkpoint!).sort((x, y) => y.size - x.size)[0];
  return { alerts, next: alerts.length === 0 && largest !== undefined ? largest : last };
}
