/**
 * Per-model counts on one axis and the public ranking rule. The ranking is total and
 * deterministic: accuracy (compared exactly as fractions), then more parsed items, then the
 * model id, so the same rows always name the same leader.
 */
import { OUTCOME_CORRECT, OUTCOME_UNPARSED, OUTCOME_WRONG, type ItemTable } from './item-table.js';
import type { AggregateResult, ModelComparisonAxis } from './model.js';

export interface ModelTally {
  model: string;
  own: boolean;
  base: boolean;
  rows: number;
  parsed: number;
  correct: number;
  unparsed: number;
}

export interface ModelRoles {
  own: ReadonlySet<string>;
  /** null: every non-own model is a base model. */
  base: ReadonlySet<string> | null;
}

/** The roles of an axis: own models (the board's and the axis's), and its declared base models. */
export function axisRoles(def: ModelComparisonAxis, boardOwn: readonly string[]): ModelRoles {
  return {
    own: new Set([...boardOwn, ...(def.own_models ?? [])]),
    base: def.base_models ? new Set(def.base_models) : null,
  };
}

export function tallyTable(table: ItemTable, roles: ModelRoles): ModelTally[] {
  const out: ModelTally[] = [];
  for (const col of table.columns.values()) {
    let correct = 0;
    let wrong = 0;
    let unparsed = 0;
    const o = col.outcome;
    for (let i = 0; i < table.items.length; i++) {
      const v = o[i];
      if (v === OUTCOME_CORRECT) correct++;
      else if (v === OUTCOME_WRONG) wrong++;
      else if (v === OUTCOME_UNPARSED) unparsed++;
    }
    out.push(tally(col.model, roles, col.rows, correct, correct + wrong, unparsed));
  }
  return out;
}

export function tallyResults(results: readonly AggregateResult[], roles: ModelRoles): ModelTally[] {
  return results.map((r) => tally(r.model, roles, r.total, r.correct, r.parsed, r.total - r.parsed));
}

function tally(
  model: string,
  roles: ModelRoles,
  rows: number,
  correct: number,
  parsed: number,
  unparsed: number,
): ModelTally {
  const own = roles.own.has(model);
  return { model, own, base: !own && (roles.base === null || roles.base.has(model)), rows, parsed, correct, unparsed };
}

/** Orders best first. Accuracy is compared as exact fractions (cross-multiplied integers). */
export function compareTallies(a: ModelTally, b: ModelTally): number {
  const byAccuracy = b.correct * a.parsed - a.correct * b.parsed;
  if (byAccuracy !== 0) return byAccuracy;
  if (a.parsed !== b.parsed) return b.parsed - a.parsed;
  return a.model < b.model ? -1 : a.model > b.model ? 1 : 0;
}

/** Models with at least one parsed response, best first. */
export function rank(tallies: readonly ModelTally[]): ModelTally[] {
  return tallies.filter((t) => t.parsed > 0).sort(compareTallies);
}
