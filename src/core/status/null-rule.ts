/**
 * The aggregate rule (specification, Invariants §2): an aggregate over several sources publishes
 * a total only when every source was read; otherwise the totals are null, the partial figure is
 * offered under a separate name as a floor, and each unread source is named with its reason. A
 * source that answers with zero rows counts as read. A null is an unread value, never a zero.
 */

/** One source's read: its value, or why it could not be read. */
export type SourceRead<T> = { source: string; read: true; value: T } | { source: string; read: false; reason: string };

export interface NullRuleAggregate<F> {
  /** The figures over every source; null when any source was not read. */
  totals: F | null;
  /** The same figures over the sources that were read, when some were not: a lower bound. */
  totals_floor: F | null;
  unread_sources: { source: string; reason: string }[];
}

/**
 * Applies the rule. `figures` computes the figures from the values of the sources that were
 * read (keyed by source); it is called once, and its result is the total when nothing is
 * missing and the floor otherwise. Where no read source contributes to a figure, `figures`
 * should return null for it, never 0.
 */
export function applyNullRule<T, F>(
  reads: readonly SourceRead<T>[],
  figures: (read: ReadonlyMap<string, T>) => F,
): NullRuleAggregate<F> {
  const values = new Map<string, T>();
  const unread: { source: string; reason: string }[] = [];
  for (const r of reads) {
    if (r.read) values.set(r.source, r.value);
    else unread.push({ source: r.source, reason: r.reason });
  }
  const f = figures(values);
  return unread.length === 0
    ? { totals: f, totals_floor: null, unread_sources: [] }
    : { totals: null, totals_floor: f, unread_sources: unread };
}

/** Sums a figure over the read values that have it; null when none has it (unread, not zero). */
export function sumOrNull<T>(values: Iterable<T>, pick: (v: T) => number | null | undefined): number | null {
  let total: number | null = null;
  for (const v of values) {
    const n = pick(v);
    if (n === null || n === undefined) continue;
    total = (total ?? 0) + n;
  }
  return total;
}
