/**
 * What changed between two releases of a board (issue 31, `gspc diff`): axes added or removed; for
 * each axis in both, a status, leader, separation, n or accuracy that changed, with both values;
 * cards added to and gone from the root, newly superseded and newly withdrawn; corrections added;
 * key transitions added. Pure: the caller reads each release (after verifying it) into a
 * `ReleaseView`. The words (`describeDiff`) say the same as the JSON, one change a line.
 */

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

export interface ReleaseDiff {
  schema: 'svc.release-diff/1';
  from: { release: string; as_of: string };
  to: { release: string; as_of: string };
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

export function diffReleases(from: ReleaseView, to: ReleaseView): ReleaseDiff {
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
    from: { release: from.id, as_of: from.as_of },
    to: { release: to.id, as_of: to.as_of },
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

/** The diff in words, one change a line. */
export function describeDiff(d: ReleaseDiff): string[] {
  const lines = [`${d.from.release} (as of ${d.from.as_of}) → ${d.to.release} (as of ${d.to.as_of})`];
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
