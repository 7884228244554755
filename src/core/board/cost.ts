/**
 * What a model's responses on one axis cost (issue 40 item 4): each row that carries both token
 * counts costs (input_tokens·a + output_tokens·b)/10⁶ dollars at the model's price (a, b per
 * million tokens, src/core/board/price-list.ts); over those rows, the total, the cost per item
 * (per response) and the cost per correct answer, each ratio with its 95% interval by the same
 * estimator as /api/usage (src/core/stats/ratio-interval.ts), clustered where the rows carry
 * clusters. A row without both counts has no cost: it is left out and counted as not covered,
 * never costed at 0. No price, or no row with both counts, is no cost (null), never 0.
 * Formulas and a worked example: docs/methodology.md §11.
 */
import { ratioEstimate } from '../stats/ratio-interval.js';
import { type ItemTable, type ModelColumn, OUTCOME_CORRECT, OUTCOME_MISSING, usageAt } from './item-table.js';
import { type ModelPrice, rowCostUsd } from './price-list.js';

/** The cost figures of one model on one axis, in US dollars, over the rows that carry both token counts. */
export interface CostFigure {
  /** Rows costed: those carrying both input_tokens and output_tokens. */
  rows: number;
  /** Σ of the rows' costs. */
  total_usd: number;
  /** total / rows: what one response cost, on average. */
  per_item_usd: number;
  /** 95%; null below two units. */
  per_item_interval: [number, number] | null;
  /** Correct rows among the costed rows. */
  correct: number;
  /** total / correct: what one correct answer cost, the wrong and unparsed responses included; null without one, or on a refused bank. */
  per_correct_usd: number | null;
  per_correct_interval: [number, number] | null;
  /** Independent units the intervals are over: the rows, or their clusters. */
  units: number;
}

/** How many of a model's rows carry both token counts (the cost's coverage). */
export function rowsWithTokens(col: ModelColumn | undefined): number {
  const input = col?.usage?.input_tokens;
  const output = col?.usage?.output_tokens;
  if (input === undefined || output === undefined) return 0;
  let n = 0;
  const end = Math.min(input.values.length, output.values.length);
  for (let i = 0; i < end; i++)
    if (!Number.isNaN(input.values[i]!) && !Number.isNaN(output.values[i]!) && col!.outcome[i] !== OUTCOME_MISSING) n++;
  return n;
}

/**
 * The model's cost figures at `price`, over its rows that carry both token counts; null when no
 * row does. `clustered`: every row of the axis carries a cluster (the intervals are then over
 * clusters). `refused`: the axis is a refused one-label bank, whose "correct" means nothing.
 */
export function costFigure(
  table: ItemTable,
  col: ModelColumn,
  price: ModelPrice,
  clustered: boolean,
  refused: boolean,
): CostFigure | null {
  const input = col.usage?.input_tokens;
  const output = col.usage?.output_tokens;
  if (input === undefined || output === undefined) return null;
  const n = Math.min(input.rows, output.rows);
  const x = new Float64Array(n);
  const one = new Float64Array(n).fill(1);
  const c = new Float64Array(n);
  const itemOf = new Int32Array(n);
  let k = 0;
  let correct = 0;
  for (let i = 0; i < table.items.length && k < n; i++) {
    const o = col.outcome[i];
    if (o === undefined || o === OUTCOME_MISSING) continue;
    const inTok = usageAt(input, i);
    const outTok = usageAt(output, i);
    if (Number.isNaN(inTok) || Number.isNaN(outTok)) continue;
    x[k] = rowCostUsd(inTok, outTok, price);
    if (o === OUTCOME_CORRECT) {
      c[k] = 1;
      correct++;
    }
    itemOf[k++] = i;
  }
  if (k === 0) return null;
  const cluster = clustered ? (j: number) => table.cluster[itemOf[j]!]! : undefined;
  const perItem = ratioEstimate(x, one, k, cluster)!; // k ≥ 1, so Σy = k > 0
  const perCorrect = refused ? null : ratioEstimate(x, c, k, cluster);
  let total = 0;
  for (let j = 0; j < k; j++) total += x[j]!;
  return {
    rows: k,
    total_usd: total,
    per_item_usd: perItem.value,
    per_item_interval: perItem.interval,
    correct,
    per_correct_usd: perCorrect?.value ?? null,
    per_correct_interval: perCorrect?.interval ?? null,
    units: perItem.units,
  };
}
