/**
 * The typed values the board is derived from: what an operator's corpus means once it has
 * been read and validated (src/corpus does the reading; nothing here touches files).
 * Field names follow the specification's "Board response" and "Axis row" tables.
 */

export const AXIS_STATUSES = ['MEASURED', 'UNMEASURED', 'DRAFT', 'SPEC', 'PLANNED'] as const;
export type AxisStatus = (typeof AXIS_STATUSES)[number];

export const AXIS_KINDS = ['model-comparison', 'deterministic-facts'] as const;
export type AxisKind = (typeof AXIS_KINDS)[number];

/** The 22 axis slugs the specification lists for `/api/gspc`. The set may grow; the corpus decides. */
export const SPEC_AXIS_SLUGS = [
  'governance',
  'safety',
  'provenance',
  'continuity',
  'conformance',
  'openness',
  'machinery-conformity',
  'care',
  'cross-reality',
  'detector-interop',
  'art5-safeguard',
  'swarm',
  'affect',
  'jail',
  'provenance-controls',
  'reserve-attestation',
  'regulatory-framework',
  'distribution-integrity',
  'custody-disclosure',
  'ai-adoption-components',
  'labour-components',
  'humanoid-labour-index',
] as const;

export const FLEET_AGGREGATES = ['fleet_mean', 'mean_harm', 'macro_f1'] as const;
export type FleetAggregate = (typeof FLEET_AGGREGATES)[number];

/** Board-level metadata (corpus `board.json`). */
export interface BoardMeta {
  issuer: string;
  doi: string;
  /** ISO 8601 UTC time the corpus describes; used as the release's as-of, never the clock. */
  as_of: string;
  measured_on: { model: string; date: string; grading: string };
  /** The service's own models, excluded from every public leader slot on every axis. */
  own_models: string[];
  /** Operator-stated limitations, served before the derived ones. */
  limitations: string[];
}

interface AxisCommon {
  axis: string;
  family: string;
  title?: string;
  status: AxisStatus;
  /** Declared measurement size; required unless it is derived from per-item rows. */
  n?: number;
}

/** An aggregate result for one model when no per-item rows are published (then UNTESTED). */
export interface AggregateResult {
  model: string;
  correct: number;
  parsed: number;
  total: number;
}

export interface ModelComparisonAxis extends AxisCommon {
  kind: 'model-comparison';
  bench: string;
  task: string;
  dataset: string;
  /** The bank's exact-label menu; when absent, the distinct gold labels of the rows. */
  labels?: string[];
  /** Models eligible as the separation basis; when absent, every non-own model is a base model. */
  base_models?: string[];
  /** Own models of this axis, added to the board-level list. */
  own_models?: string[];
  /** Classification axes (jail): the label that counts as positive for TP/FP/TN/FN. */
  positive_label?: string;
  fleet?: FleetAggregate[];
  /** Labels that count as harmful for `mean_harm`. */
  harm_labels?: string[];
  /** Aggregate-only results (no per-item rows published): the row is UNTESTED. */
  results?: AggregateResult[];
  /** Per model: imported rows where the harness's verdict and label ∈ gold disagree, accepted by the operator (docs/import.md). */
  import_disagreements?: Record<string, number>;
}

/** A deterministic predicate over a JSON evidence file (no model acts as judge). */
export type FactPredicate =
  | { op: 'equals'; pointer: string; value: unknown }
  | { op: 'exists'; pointer: string }
  | { op: 'matches'; pointer: string; pattern: string }
  | { op: 'sha256'; value: string };

export interface FactDefinition {
  id: string;
  claim: string;
  predicate: FactPredicate;
}

export interface DeterministicFactsAxis extends AxisCommon {
  kind: 'deterministic-facts';
  /** File name of the evidence file under `evidence/<axis>/`. */
  evidence?: string;
  facts: FactDefinition[];
}

export type AxisDefinition = ModelComparisonAxis | DeterministicFactsAxis;

/** An in-lane entry: served for honesty, never quotable, never counted in totals. */
export interface LaneEntry {
  id: string;
  lane: 'instrument-honesty' | 'human-vs-ai';
  title: string;
  [extra: string]: unknown;
}

/**
 * A regulatory obligation the evidence bundle can be asked for (corpus `obligations.json`):
 * which control it is, who regulates it, and which axes' signed cards are relevant to it.
 * Relevant-to, never a determination of conformity.
 */
export interface Obligation {
  id: string;
  control_id: string;
  title: string;
  obligation: string;
  regulator: string;
  counsel_confirmed: boolean;
  honesty: string;
  existing_pack: string | null;
  axes: string[];
}

/** One per-item result row, as published in `/peritem/<axis>.jsonl`. */
export interface PerItemRow {
  item: string;
  model: string;
  /** Gold label, or the list of accepted labels. */
  gold: string | string[];
  /** Extracted label; null when no label could be read (unparsed, never scored as wrong). */
  label: string | null;
  /** Content hash of the item, where the harness gives one; pairs are refused when they differ. */
  item_hash?: string;
  /**
   * Items that are not independent share a cluster (a passage, a source document, a template):
   * the clustered standard error of /api/models reads it. All rows of an axis carry one, or none.
   */
  cluster?: string;
  /**
   * What the item is about (a subject, language or difficulty), as the harness recorded it;
   * distinct, in any order, the same set on every row of an item (issue 41). Read, not yet used.
   */
  tags?: string[];
  /** When the item was written or first published, `YYYY-MM-DD` or `YYYY-MM`; the same on every row of an item. */
  item_date?: string;
  /** Tokens the model read for this response, as the harness counted them; absent: unknown (never 0). */
  input_tokens?: number;
  /** Tokens the model wrote for this response; absent: unknown. */
  output_tokens?: number;
  /** Milliseconds the response took, as the harness timed it; absent: unknown. */
  latency_ms?: number;
}

/** The outcome of one fact, computed at load from the evidence file. */
export interface FactOutcome {
  id: string;
  holds: boolean;
  reason?: string;
}

/**
 * What `gspc import` writes into the board.json fields only the operator can fill (issuer, doi,
 * measured_on.date); `gspc validate` names a board still carrying it.
 */
export const SCAFFOLD_PLACEHOLDER = 'EDIT ME';
