/**
 * What changed between two releases of a board (issue 31, `gspc diff`): axes added or removed; for
 * each axis in both, a status, leader, separation, n or accuracy that changed, with both values;
 * cards added to and gone from the root, newly superseded and newly withdrawn; corrections added;
 * key transitions added. Pure: the caller reads each release (after verifying it) into a
 * `ReleaseView`. The words (`describeDiff`) say the same as the JSON, one change a line. Given
 * each side's board and log (`gspc diff`, issue 39), the diff also says which way it reads and
 * whether that is forward in time (release-order.ts).
 */
import { directionOf, type ReleaseDirection, type ReleaseLog } from './release-order.js';

/** The fields of a board row that a reader follows over time. */
export const FOLLOWED = ['status', 'leader', 'separation', 'n', 'accuracy'] as const;
type Followed = (typeof FOLLOWED)[number];

export interface ReleaseView {
  id: string;
  as_of: string;
  /** `/api/gspc`'s rows, by axis. */
  axes: readonly ({ axis: string } & Partial<Record<Followed, unknown>>)[];
  /** The active cards (the root's leaves): sha256 → `<model or axis> on <axis>`. */
  cards: ReadonlyMap<string, string>;
  withdrawn: ReadonlyMap<string, string>;
  superseded: ReadonlyMap<string, string>;
  /** Correction entries by id, with what was wrong. */
  corrections: ReadonlyMap<string, string>;
  /** Key transitions by id: `<kind> of <fragment> (sequence n)`. */
  transitions: ReadonlyMap<string, string>;
}

/** One side of a diff: the release, and (from `gspc diff`) its board and log as verified. */
export interface DiffSide {
  release: string;
  as_of: string;
  /** The board's DID (`gspc diff`; absent from `/api/changes`, whose sides are one log's by construction). */
  did?: string;
  /** The size and root of the side's signed log checkpoint (`gspc diff`). */
  log?: { size: number; root: string };
}

export interface ReleaseDiff {
  schema: 'svc.release-diff/1';
  from: DiffSide;
  to: DiffSide;
  /**
   * Which way the diff reads (`from → to`) and how the second log stands to the first: present
   * when each side's log was given (`gspc diff`). `allowed_by` names the flag a refused order was
   * compared under.
   */
  direction?: ReleaseDirection & { allowed_by?: string };
  axes: {
    added: string[];
    removed: string[];
    changed: { axis: string; field: Followed; from: unknown; to: unknown }[];
  };
  cards: {
    added: { sha256: string; what: string }[];
    removed: { sha256: string; what: string }[];
    superseded: { sha256: string; by: string }[];
    withdrawn: { sha256: string; reason: string }[];
  };
  corrections: { added: { id: string; what_was_wrong: string }[] };
  key_transitions: { added: { id: string; what: string }[] };
  /** Whether anything above changed. */
  changed: boolean;
}

const newIn = <V>(a: ReadonlyMap<string, V>, b: ReadonlyMap<string, V>) => [...b].filter(([k]) => !a.has(k));

const sideOf = (v: ReleaseView, log: ReleaseLog | undefined): DiffSide => ({
  release: v.id,
  as_of: v.as_of,
  ...(log && { did: log.did, log: { size: log.entries.length, root: log.root } }),
});

export function diffReleases(
  from: ReleaseView,
  to: ReleaseView,
  /** Each side's board and log as verified (`gspc diff`): the diff then says which way it reads. */
  logs?: { from: ReleaseLog; to: ReleaseLog },
): ReleaseDiff {
  const before = new Map(from.axes.map((r) => [r.axis, r]));
  const after = new Map(to.axes.map((r) => [r.axis, r]));
  const changed: ReleaseDiff['axes']['changed'] = [];
  for (const [axis, row] of after) {
    const old = before.get(axis);
    if (old === undefined) continue;
    for (const field of FOLLOWED)
      if (JSON.stringify(old[field] ?? null) !== JSON.stringify(row[field] ?? null))
        changed.push({ axis, field, from: old[field] ?? null, to: row[field] ?? null });
  }
  const diff: Omit<ReleaseDiff, 'changed'> = {
    schema: 'svc.release-diff/1',
    from: sideOf(from, logs?.from),
    to: sideOf(to, logs?.to),
    ...(logs && { direction: directionOf(logs.from, logs.to) }),
    axes: {
      added: [...after.keys()].filter((a) => !before.has(a)),
      removed: [...before.keys()].filter((a) => !after.has(a)),
      changed,
    },
    cards: {
      added: newIn(from.cards, to.cards).map(([sha256, what]) => ({ sha256, what })),
      // A card gone from the root because it was superseded or withdrawn is named there instead.
      removed: newIn(to.cards, from.cards)
        .filter(([sha]) => !to.superseded.has(sha) && !to.withdrawn.has(sha))
        .map(([sha256, what]) => ({ sha256, what })),
      superseded: newIn(from.superseded, to.superseded).map(([sha256, by]) => ({ sha256, by })),
      withdrawn: newIn(from.withdrawn, to.withdrawn).map(([sha256, reason]) => ({ sha256, reason })),
    },
    corrections: {
      added: newIn(from.corrections, to.corrections).map(([id, what_was_wrong]) => ({ id, what_was_wrong })),
    },
    key_transitions: { added: newIn(from.transitions, to.transitions).map(([id, what]) => ({ id, what })) },
  };
  const counts = [
    diff.axes.added,
    diff.axes.removed,
    changed,
    diff.cards.added,
    diff.cards.removed,
    diff.cards.superseded,
    diff.cards.withdrawn,
    diff.corrections.added,
    diff.key_transitions.added,
  ];
  return { ...diff, changed: counts.some((c) => c.length > 0) };
}

const shown = (v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(4) : JSON.stringify(v));

/**
 * Which way the diff reads, in words: old → new when the second log extends the first (or is the
 * same), else a warning that names the rollback, fork or other board before any change is read.
 */
function directionLine(d: ReleaseDirection & { allowed_by?: string }): string {
  if (d.log === 'extends' || d.log === 'same') return `reads old → new (the first argument to the second): ${d.detail}`;
  const why = d.allowed_by === undefined ? '' : `; compared because ${d.allowed_by} was given`;
  const what =
    d.log === 'other_board'
      ? 'each change below is what the second board holds against the first'
      : 'each change below is what the second release holds against the first, not what a later release changed';
  return `WARNING: ${d.detail}${why}: ${what}`;
}

/** The diff in words, one change a line (after the header and, from `gspc diff`, the direction). */
export function describeDiff(d: ReleaseDiff): string[] {
  const lines = [`${d.from.release} (as of ${d.from.as_of}) → ${d.to.release} (as of ${d.to.as_of})`];
  if (d.direction !== undefined) lines.push(directionLine(d.direction));
  if (!d.changed) return [...lines, 'nothing changed'];
  for (const a of d.axes.added) lines.push(`axis added: ${a}`);
  for (const a of d.axes.removed) lines.push(`axis removed: ${a}`);
  for (const c of d.axes.changed) lines.push(`${c.axis}: ${c.field} ${shown(c.from)} → ${shown(c.to)}`);
  for (const c of d.cards.added) lines.push(`card added: ${c.sha256.slice(0, 16)} (${c.what})`);
  for (const c of d.cards.removed) lines.push(`card no longer under the root: ${c.sha256.slice(0, 16)} (${c.what})`);
  for (const c of d.cards.superseded) lines.push(`card superseded: ${c.sha256.slice(0, 16)} by ${c.by.slice(0, 16)}`);
  for (const c of d.cards.withdrawn) lines.push(`card withdrawn: ${c.sha256.slice(0, 16)}: ${c.reason}`);
  for (const c of d.corrections.added) lines.push(`correction added: ${c.id}: ${c.what_was_wrong}`);
  for (const t of d.key_transitions.added) lines.push(`key transition: ${t.what} (${t.id.slice(0, 16)})`);
  return lines;
}
