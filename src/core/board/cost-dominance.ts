/**
 * Which models are dominated on an axis (issue 40 item 4; docs/methodology.md §11; decisions
 * CO6, CO10, CO11): a public model A is dominated when a public model B is SEPARATED from it on
 * `/api/models` (the Holm-adjusted pairs, read from that document, never tested again), B is the
 * better of the two, and B is no more expensive: B's cost per item is at most A's (point
 * estimates). A cost counts only when it covers every row of its model (CO10): a mean over part
 * of a model's rows is not the mean over its rows, and nothing pairs it with another model's.
 * Own models are outside the Holm family and are never compared; a model without a full cost
 * cannot be placed; when no model dominates A but a model above it might (SEPARATED above with no
 * cost or a partial one, or better-ranked, UNTESTED with A and not known to cost more: CO11),
 * whether A is dominated is unknown (null), never "no".
 */
import type { ModelsDocument } from './models-document.js';

export interface Dominance {
  /** true: some model dominates it; false: none can; null: unknown or not compared (`dominance_reason`). */
  dominated: boolean | null;
  /** The models that dominate it, in rank order (empty unless dominated). */
  dominated_by: string[];
  /** When dominated is null because of them: the models SEPARATED above it that have no cost. */
  separated_above_without_cost?: string[];
  /** When dominated is null because of them: the models SEPARATED above it whose cost covers part of their rows only. */
  separated_above_partial_cost?: string[];
  /**
   * When dominated is null because of them: better-ranked public models whose pair with it is
   * UNTESTED (never compared) and that are not known to cost more (a full cost no higher, or no
   * full cost).
   */
  untested_above?: string[];
  dominance_reason?: string;
}

/** A model's cost per item and whether it covers every row of the model; null: no cost. */
export interface DominanceCost {
  per_item: number;
  full: boolean;
}

const listOf = (map: Map<string, string[]>, key: string) => {
  const list = map.get(key) ?? [];
  map.set(key, list);
  return list;
};

/**
 * Each model's dominance, from the document's pairs and each model's cost (null: no cost). Runs
 * over the pairs once: O(pairs + dominators).
 */
export function dominance(
  doc: ModelsDocument,
  costOf: ReadonlyMap<string, DominanceCost | null>,
): Map<string, Dominance> {
  const rankOf = new Map(doc.models.map((m) => [m.model, m.rank]));
  // For each model, the public models SEPARATED from it and better (the Holm family only), and
  // the better-ranked public models whose pair with it is UNTESTED.
  const above = new Map<string, string[]>();
  const untestedAbove = new Map<string, string[]>();
  for (const p of doc.pairs) {
    if (p.own) continue;
    if (p.state === 'SEPARATED' && p.better !== undefined)
      listOf(above, p.better === p.first ? p.second : p.first).push(p.better);
    else if (p.state === 'UNTESTED') {
      const r1 = rankOf.get(p.first) ?? null;
      const r2 = rankOf.get(p.second) ?? null;
      if (r1 === null || r2 === null) continue;
      if (r1 < r2) listOf(untestedAbove, p.second).push(p.first);
      else listOf(untestedAbove, p.first).push(p.second);
    }
  }
  const byRank = (a: string, b: string) => (rankOf.get(a) ?? 0) - (rankOf.get(b) ?? 0);
  const full = (m: string) => {
    const c = costOf.get(m) ?? null;
    return c !== null && c.full ? c.per_item : null;
  };
  const out = new Map<string, Dominance>();
  for (const m of doc.models) {
    const none = (reason: string): Dominance => ({ dominated: null, dominated_by: [], dominance_reason: reason });
    const cost = costOf.get(m.model) ?? null;
    if (m.own) out.set(m.model, none('own model: outside the Holm family of /api/models, never compared'));
    else if (doc.bank_state !== undefined)
      out.set(m.model, none('a refused one-label bank: its accuracy means nothing, so nothing is compared'));
    else if (m.rank === null) out.set(m.model, none('no parsed response: no accuracy to compare'));
    else if (cost === null) out.set(m.model, none('no cost (cost_reason): it cannot be placed against the others'));
    else if (!cost.full)
      out.set(
        m.model,
        none(
          'its cost covers only part of its rows (rows_with_tokens < rows): a mean over some rows is not compared with a mean over all the rows of another model',
        ),
      );
    else {
      const better = above.get(m.model) ?? [];
      const by = better.filter((b) => {
        const c = full(b);
        return c !== null && c <= cost.per_item;
      });
      const withoutCost = better.filter((b) => (costOf.get(b) ?? null) === null).sort(byRank);
      const partial = better.filter((b) => costOf.get(b)?.full === false).sort(byRank);
      // Never compared with it, better-ranked, and not known to cost more: it might dominate.
      const untested = (untestedAbove.get(m.model) ?? [])
        .filter((b) => {
          const c = full(b);
          return c === null || c <= cost.per_item;
        })
        .sort(byRank);
      if (by.length > 0) out.set(m.model, { dominated: true, dominated_by: by.sort(byRank) });
      else if (withoutCost.length + partial.length + untested.length > 0) {
        const why = [
          ...(withoutCost.length > 0 ? ['models SEPARATED above it have no cost'] : []),
          ...(partial.length > 0 ? ['models SEPARATED above it have a cost over part of their rows only'] : []),
          ...(untested.length > 0
            ? [
                'better-ranked models that cost no more (or whose cost is unknown) were never compared with it (UNTESTED)',
              ]
            : []),
        ];
        out.set(m.model, {
          dominated: null,
          dominated_by: [],
          ...(withoutCost.length > 0 && { separated_above_without_cost: withoutCost }),
          ...(partial.length > 0 && { separated_above_partial_cost: partial }),
          ...(untested.length > 0 && { untested_above: untested }),
          dominance_reason: `no model with a full cost dominates it, but ${why.join('; ')}: whether it is dominated is unknown`,
        });
      } else out.set(m.model, { dominated: false, dominated_by: [] });
    }
  }
  return out;
}
