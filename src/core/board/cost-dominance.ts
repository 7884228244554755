/**
 * Which models are dominated on an axis (issue 40 item 4; docs/methodology.md §11; decision
 * CO6): a public model A is dominated when a public model B is SEPARATED from it on
 * `/api/models` (the Holm-adjusted pairs, read from that document, never tested again), B is the
 * better of the two, and B is no more expensive: B's cost per item is at most A's (point
 * estimates). Own models are outside the Holm family and are never compared; a model with no
 * cost cannot be placed; when no priced model dominates A but a model separated above it has no
 * cost, whether A is dominated is unknown (null), never "no".
 */
import type { ModelsDocument } from './models-document.js';

export interface Dominance {
  /** true: some model dominates it; false: none can; null: unknown or not compared (`dominance_reason`). */
  dominated: boolean | null;
  /** The models that dominate it, in rank order (empty unless dominated). */
  dominated_by: string[];
  /** When dominated is null because of them: the models SEPARATED above it that have no cost. */
  separated_above_without_cost?: string[];
  dominance_reason?: string;
}

/**
 * Each model's dominance, from the document's pairs and each model's cost per item (null: no
 * cost). Runs over the pairs once: O(pairs + dominators).
 */
export function dominance(doc: ModelsDocument, perItem: ReadonlyMap<string, number | null>): Map<string, Dominance> {
  const rankOf = new Map(doc.models.map((m) => [m.model, m.rank]));
  // For each model, the public models SEPARATED from it and better (the Holm family only).
  const above = new Map<string, string[]>();
  for (const p of doc.pairs) {
    if (p.own || p.state !== 'SEPARATED' || p.better === undefined) continue;
    const worse = p.better === p.first ? p.second : p.first;
    const list = above.get(worse) ?? [];
    list.push(p.better);
    above.set(worse, list);
  }
  const byRank = (a: string, b: string) => (rankOf.get(a) ?? 0) - (rankOf.get(b) ?? 0);
  const out = new Map<string, Dominance>();
  for (const m of doc.models) {
    const none = (reason: string): Dominance => ({ dominated: null, dominated_by: [], dominance_reason: reason });
    const cost = perItem.get(m.model) ?? null;
    if (m.own) out.set(m.model, none('own model: outside the Holm family of /api/models, never compared'));
    else if (doc.bank_state !== undefined)
      out.set(m.model, none('a refused one-label bank: its accuracy means nothing, so nothing is compared'));
    else if (m.rank === null) out.set(m.model, none('no parsed response: no accuracy to compare'));
    else if (cost === null) out.set(m.model, none('no cost (cost_reason): it cannot be placed against the others'));
    else {
      const better = above.get(m.model) ?? [];
      const by = better.filter((b) => {
        const c = perItem.get(b) ?? null;
        return c !== null && c <= cost;
      });
      const unknown = better.filter((b) => (perItem.get(b) ?? null) === null);
      if (by.length > 0) out.set(m.model, { dominated: true, dominated_by: by.sort(byRank) });
      else if (unknown.length > 0)
        out.set(m.model, {
          dominated: null,
          dominated_by: [],
          separated_above_without_cost: unknown.sort(byRank),
          dominance_reason:
            'no model with a cost dominates it, but models SEPARATED above it have no cost: whether they are cheaper is unknown',
        });
      else out.set(m.model, { dominated: false, dominated_by: [] });
    }
  }
  return out;
}
