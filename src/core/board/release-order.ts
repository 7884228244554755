/**
 * Which way `gspc diff <old> <new>` compares (issue 39): the first argument is `from`, the second
 * `to`, and every change reads from the one to the other. Whether that is forward in time is what
 * the two releases' logs say: a later release of a board holds a log that extends the earlier
 * one's (its first entries are the earlier log). A second log that is shorter and the first's
 * prefix is a rollback, or the arguments are swapped (a card added then reads as gone, and a card
 * gone as added); one that differs at an entry is a fork of the log; two releases of different
 * DIDs are two boards, whose logs are not comparable at all. Pure: the caller gives each side's
 * DID and log entries as `gspc verify` checked them (the entries recompute to the signed
 * checkpoint, the log's origin is the DID's).
 */

/** A release's board and transparency log, as `gspc verify` checked them. */
export interface ReleaseLog {
  /** The board's identity. */
  did: string;
  /** The log's entries, in order (each a card's SHA-256). */
  entries: readonly string[];
  /** The signed checkpoint's root hash (hex). */
  root: string;
}

/** How the second release's log stands to the first's. */
export type LogRelation = 'extends' | 'same' | 'rollback' | 'fork' | 'other_board';

/** Relations that are not "the second is the same release or a later one of the same board". */
export const BACKWARDS: readonly LogRelation[] = ['rollback', 'fork'];

export interface ReleaseDirection {
  /** Always `from → to`: each change is what `to` (the second argument) holds against `from` (the first). */
  reading: 'from → to';
  log: LogRelation;
  /** The first entry (0-based) at which the two logs differ, for a fork. */
  fork_at?: number;
  /** The relation in words. */
  detail: string;
}

/** The index of the first entry at which `a` and `b` differ, over their common length. */
function firstDifference(a: readonly string[], b: readonly string[]): number | undefined {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return undefined;
}

const entries = (n: number) => `${n} entr${n === 1 ? 'y' : 'ies'}`;

/** How `to`'s log stands to `from`'s, in a value and in words. */
export function directionOf(from: ReleaseLog, to: ReleaseLog): ReleaseDirection {
  const reading = 'from → to' as const;
  if (from.did !== to.did)
    return {
      reading,
      log: 'other_board',
      detail: `two different boards: the first is ${from.did}, the second ${to.did}; each has its own log, so which is later cannot be told`,
    };
  const sizes = `the first log has ${entries(from.entries.length)}, the second ${to.entries.length}`;
  const at = firstDifference(from.entries, to.entries);
  if (at !== undefined)
    return {
      reading,
      log: 'fork',
      fork_at: at,
      detail: `${to.entries.length < from.entries.length ? 'the second log is shorter, and ' : ''}the two logs differ at entry ${at} (${sizes}): a fork of the log, neither release continues the other`,
    };
  if (to.entries.length < from.entries.length)
    return {
      reading,
      log: 'rollback',
      detail: `the second log is shorter: this is a rollback, or the arguments are swapped (the first log has ${entries(from.entries.length)}; the second has ${to.entries.length}, which are the first log's first ${to.entries.length})`,
    };
  if (to.entries.length > from.entries.length)
    return {
      reading,
      log: 'extends',
      detail: `the second log extends the first: ${from.entries.length} → ${entries(to.entries.length)}`,
    };
  // A publish that adds no card (a correction alone, say) keeps the log: the log cannot order them.
  return {
    reading,
    log: 'same',
    detail: `the same log: ${entries(to.entries.length)}, root ${to.root.slice(0, 16)} (the log does not tell which release is the later)`,
  };
}
