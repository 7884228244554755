/**
 * Tokens and latency per model on one model-comparison axis (issue 40 item 3,
 * `svc.gspc-usage/0.1`, `GET /api/usage?axis=<slug>`): for each usage field a row may carry
 * (input_tokens, output_tokens, latency_ms), over the model's rows that carry it: how many do
 * (coverage), the total, the mean per row and the total per correct answer, each mean with a 95%
 * interval (src/core/stats/ratio-interval.ts), clustered where the axis's rows carry clusters.
 * A model none of whose rows carries a field has null for it, never 0. Every response counts,
 * unparsed ones too: a model spent the tokens and the time whether or not a label could be read.
 * Beside the board, which does not change. Formulas and a worked example: docs/methodology.md §10.
 */
import { ratioEstimate } from '../stats/ratio-interval.js';
import {
  type ItemTable,
  OUTCOME_CORRECT,
  OUTCOME_MISSING,
  USAGE_FIELDS,
  type UsageColumn,
  type UsageField,
  usageAt,
} from './item-table.js';
import type { ModelComparisonAxis } from './model.js';
import { axisRoles, type ModelTally, tallyResults, tallyTable } from './model-tally.js';

export const USAGE_SCHEMA = 'svc.gspc-usage/0.1';

/** One usage field of one model, over the model's rows that carry it. */
export interface UsageFigure {
  /** Rows that carry the field (the coverage: the figures are over these rows only). */
  rows: number;
  /** Σ of the field over those rows (for latency: summed per row, not the run's wall-clock time). */
  total: number;
  /** total / rows. */
  mean: number;
  /** 95%; null below two independent units. */
  mean_interval: [number, number] | null;
  /** Correct rows among those rows. */
  correct: number;
  /** total / correct: what one correct answer took; null without a correct row, or on a refused bank. */
  per_correct: number | null;
  per_correct_interval: [number, number] | null;
  /** Independent units the intervals are over: the rows, or their clusters. */
  units: number;
}

export interface UsageModel {
  model: string;
  own: boolean;
  /** Every row of the model on the axis, and how many were parsed and correct. */
  rows: number;
  parsed: number;
  correct: number;
  /** Rows that carry each field (0: the field is unknown for this model, and its figure null). */
  coverage: Record<UsageField, number>;
  input_tokens: UsageFigure | null;
  output_tokens: UsageFigure | null;
  latency_ms: UsageFigure | null;
}

export interface UsageDocument {
  schema: typeof USAGE_SCHEMA;
  axis: string;
  status: ModelComparisonAxis['status'];
  /** Distinct items on the axis (the declared n without rows). */
  n: number;
  /** Whether the intervals are clustered (every row of the axis carries a cluster). */
  clustered: boolean;
  units: Record<UsageField, string>;
  method: Record<string, string>;
  /** Every model of a MEASURED axis, by model id; none on another status. */
  models: UsageModel[];
}

const UNITS: Record<UsageField, string> = {
  input_tokens: 'tokens',
  output_tokens: 'tokens',
  latency_ms: 'milliseconds',
};

const METHOD: Record<string, string> = {
  rows: 'every response of the model counts, unparsed ones included; each field is read over the rows that carry it, whose number is its coverage (a row without the field is unknown, not 0); a model with no such row has null',
  mean: 'mean = total / rows; 95% interval mean ± z·SE, SE = √(Σ_g (Σ_{i∈g}(xᵢ − mean))²) / rows, g each row or, where the rows carry clusters, each cluster (Miller 2024, no small-sample factor), z = 1.959963984540054, lower bound not below 0; null below two units',
  per_correct:
    'per_correct = total / correct over the same rows (what one correct answer took, wrong and unparsed responses included); 95% interval by linearisation: SE = √(Σ_g (Σ_{i∈g}(xᵢ − R·cᵢ))²) / correct, cᵢ = 1 for a correct row, else 0; null without a correct row, and on a refused one-label bank',
  latency:
    'latency_ms is per response as the harness timed it; total is a sum over rows, not the wall-clock time of the run (responses may run concurrently)',
  cost: 'cost per row = a·input_tokens + b·output_tokens for prices a, b: the same estimator over that x gives cost per item and per correct answer with intervals (src/core/stats/ratio-interval.ts)',
};

/** Whether a row outcome is the model's response (any row present). */
const present = (o: number | undefined) => o !== undefined && o !== OUTCOME_MISSING;

function figure(
  table: ItemTable,
  outcome: Uint8Array,
  col: UsageColumn,
  clustered: boolean,
  refused: boolean,
): UsageFigure {
  const n = col.rows;
  const x = new Float64Array(n);
  const one = new Float64Array(n).fill(1);
  const c = new Float64Array(n);
  const itemOf = new Int32Array(n);
  let k = 0;
  let correct = 0;
  for (let i = 0; i < table.items.length && k < n; i++) {
    const v = usageAt(col, i);
    if (Number.isNaN(v) || !present(outcome[i])) continue;
    x[k] = v;
    if (outcome[i] === OUTCOME_CORRECT) {
      c[k] = 1;
      correct++;
    }
    itemOf[k++] = i;
  }
  const cluster = clustered ? (j: number) => table.cluster[itemOf[j]!]! : undefined;
  const mean = ratioEstimate(x, one, k, cluster)!; // k = col.rows ≥ 1: a column exists only with a row
  const perCorrect = refused ? null : ratioEstimate(x, c, k, cluster);
  let total = 0;
  for (let j = 0; j < k; j++) total += x[j]!;
  return {
    rows: k,
    total,
    mean: mean.value,
    mean_interval: mean.interval,
    correct,
    per_correct: perCorrect?.value ?? null,
    per_correct_interval: perCorrect?.interval ?? null,
    units: mean.units,
  };
}

function entry(t: ModelTally, table: ItemTable | undefined, clustered: boolean, refused: boolean): UsageModel {
  const col = table?.columns.get(t.model);
  const out: UsageModel = {
    model: t.model,
    own: t.own,
    rows: t.rows,
    parsed: t.parsed,
    correct: t.correct,
    coverage: { input_tokens: 0, output_tokens: 0, latency_ms: 0 },
    input_tokens: null,
    output_tokens: null,
    latency_ms: null,
  };
  for (const f of USAGE_FIELDS) {
    const u = col?.usage?.[f];
    if (table === undefined || col === undefined || u === undefined || u.rows === 0) continue;
    out.coverage[f] = u.rows;
    out[f] = figure(table, col.outcome, u, clustered, refused);
  }
  return out;
}

export function usageDocument(
  def: ModelComparisonAxis,
  table: ItemTable | undefined,
  boardOwn: readonly string[],
): UsageDocument {
  const roles = axisRoles(def, boardOwn);
  const tallies =
    def.status !== 'MEASURED' ? [] : table ? tallyTable(table, roles) : tallyResults(def.results ?? [], roles);
  // The refused one-label bank of docs/methodology.md §6: its "correct" is correct by construction.
  const menu = new Set(def.labels ?? (table ? [...table.distinctGoldLabels()] : []));
  const refused = table !== undefined && menu.size < 2;
  const clustered = table !== undefined && table.clusterRows.with > 0 && table.clusterRows.without === 0;
  const models = tallies
    .map((t) => entry(t, table, clustered, refused))
    .sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  return {
    schema: USAGE_SCHEMA,
    axis: def.axis,
    status: def.status,
    n: table && table.items.length > 0 ? table.items.length : (def.n ?? 0),
    clustered,
    units: UNITS,
    method: METHOD,
    models,
  };
}
