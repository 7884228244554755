/**
 * The shape of one `axes[]` row of the board response (specification, "Axis row").
 * Optional keys are omitted, never present-but-undefined: the served bytes must verify.
 */
import type { AxisKind, AxisStatus } from './model.js';

export type Separation = 'SEPARATED' | 'TIE' | 'UNTESTED';
export type PublicLeaderState = 'EXCLUDED_OWN_MODEL' | 'NO_SIGNED_CARD';

/** One side of the paired comparison, as shown in `separation_evidence`. */
export interface ModelEvidence {
  model: string;
  /** Correct responses. */
  k: number;
  /** Parsed responses (the accuracy denominator). */
  n: number;
  accuracy: number;
  interval: [number, number];
  unparsed: number;
}

export interface SeparationEvidence {
  test: 'exact McNemar, two-sided';
  alpha: number;
  leader: ModelEvidence;
  next_best: ModelEvidence;
  /** Items both models parsed: the paired sample. */
  paired_items: number;
  /** Leader right and next best wrong. */
  b: number;
  /** Leader wrong and next best right. */
  c: number;
  p: number;
  p_mid: number;
  log10_p: number;
}

export interface ClassificationRow {
  model: string;
  own_model: boolean;
  TP: number;
  FP: number;
  TN: number;
  FN: number;
  unparsed: number;
  precision: number | null;
  recall: number | null;
}

export interface AxisRow {
  axis: string;
  family: string;
  kind: AxisKind;
  title?: string;
  bench?: string;
  task?: string;
  dataset?: string;
  n: number;
  accuracy?: number;
  leader?: string;
  interval?: [number, number];
  separation?: Separation;
  separation_p?: number;
  separation_basis?: string;
  separation_evidence?: SeparationEvidence;
  fleet_mean?: number;
  mean_harm?: number;
  macro_f1?: number;
  unparsed_rate?: number;
  status: AxisStatus;
  public_leader_state?: PublicLeaderState;
  leader_card_state?: string;
  /** Set when the bank is refused (exact-label menu with fewer than two labels). */
  bank_state?: 'REFUSED_ONE_LABEL_MENU';
  evidence_url?: string;
  facts_checked?: number;
  facts_held?: number;
  facts_failed?: string[];
  per_model?: ClassificationRow[];
  /** Models with rows on this axis, own models included. */
  models?: number;
  /** MEASURED, n ≥ 30 and an interval (specification, rule 1). */
  quotable: boolean;
}

/**
 * Facts about a derived row that do not appear in it but that totals and limitations need
 * (for example which own model led). Kept beside the row, never served.
 */
export interface RowNotes {
  untestedReason?: string;
  ownLeader?: string;
  refused?: boolean;
  unparsedResponses?: number;
  /**
   * Items that accept two or more distinct gold labels, and the figures of the row that leave
   * them out (`macro_f1`, `per_model`); set when there is at least one such item and figure.
   */
  goldLists?: { items: number; leftOutBy: readonly ('macro_f1' | 'per_model')[] };
  /**
   * The leader's and the basis's run settings cannot be compared (one has settings the other
   * lacks): the separation was run, and the limitations say it assumes they were run alike.
   */
  settingsUnknown?: { leader: string; basis: string; fields: string[] };
}

/** One (model, axis) cell: what a measurement card states about a model on an axis. */
export interface CellFigures {
  model: string;
  own_model: boolean;
  base_model: boolean;
  /** Responses (rows) of the model on the axis. */
  responses: number;
  parsed: number;
  correct: number;
  unparsed: number;
  /** null when the model parsed nothing: no accuracy, never 0. */
  accuracy: number | null;
  interval: [number, number] | null;
}

export interface DerivedAxis {
  row: AxisRow;
  notes: RowNotes;
  /** Per-model cells of a MEASURED model-comparison axis (empty otherwise). */
  cells?: CellFigures[];
  /** Leader read from rows (before any withholding): the card check of the live state uses it. */
  rowLeader?: string;
}
