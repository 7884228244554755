/**
 * The shape of `GET /api/windows?axis=` (`svc.gspc-windows/0.1`, issue 41 item 3): every model's
 * knowledge cutoff and its accuracy on the items dated after it, every pair tested on the items
 * dated after both cutoffs, and the full-axis leader's lead on those items beside its lead on the
 * whole axis (docs/formats.md, "Contamination windows"; docs/methodology.md §13).
 */

export const WINDOWS_SCHEMA = 'svc.gspc-windows/0.1';

/** A model's accuracy on the items dated after its own knowledge cutoff. */
export interface AfterCutoff {
  /** Items of the axis dated after the cutoff (whoever answered them). */
  items: number;
  /** Of them, the items the model parsed: the n of its accuracy. */
  parsed: number;
  k: number;
  /** k / parsed; null when it parsed none of them. */
  accuracy: number | null;
  /** Wilson 95%, as on the board; null when it parsed none. */
  interval: [number, number] | null;
}

export interface WindowModel {
  model: string;
  own: boolean;
  /** Its rank on the whole axis (`/api/models`), null for own models and models without one. */
  rank: number | null;
  /** From the corpus's models.json (`YYYY-MM-DD` or `YYYY-MM`), or null: unknown. */
  knowledge_cutoff: string | null;
  /** With a null cutoff: why (no card, or a card without the field). */
  cutoff_reason?: string;
  /** Null with `after_cutoff_reason` when the cutoff or the item dates are missing, or the bank is refused. */
  after_cutoff: AfterCutoff | null;
  after_cutoff_reason?: string;
}

export interface WindowPair {
  first: string;
  second: string;
  own: boolean;
  /** The later of the two cutoffs: the window is the items dated after it. */
  later_cutoff?: string;
  state: 'SEPARATED' | 'TIE' | 'UNTESTED';
  /** With UNTESTED: why, in words (never "clean"). */
  reason?: string;
  /** Items in the window both parsed. */
  n_pairs?: number;
  a?: number;
  b?: number;
  c?: number;
  /** Exact two-sided McNemar p on the window's pairs. */
  p?: number;
  /** Holm over the public pairs tested in windows (their own family); null for a pair with an own model. */
  p_holm?: number | null;
  better?: string;
  /** (b − c) / n_pairs, first minus second, on the window. */
  difference?: number;
  /** Newcombe (1998) method 10, 95%. */
  difference_interval?: [number, number];
}

/** The full-axis leader against one other public model: the whole axis beside the window. */
export interface LeadRow {
  model: string;
  rank: number;
  /** On the whole axis (`/api/models`): d is the leader minus this model. */
  full: { state: WindowPair['state']; reason?: string; difference?: number; n_pairs?: number; p_holm?: number | null };
  /** On the items dated after both cutoffs: d is the leader minus this model. */
  window: {
    state: WindowPair['state'];
    reason?: string;
    later_cutoff?: string;
    difference?: number;
    difference_interval?: [number, number];
    n_pairs?: number;
    p_holm?: number | null;
  };
}

export interface WindowsDocument {
  schema: typeof WINDOWS_SCHEMA;
  axis: string;
  status: string;
  /** Items on the axis. */
  n: number;
  /** Items whose rows carry an `item_date`. */
  dated_items: number;
  /** The earliest and latest item date, as written; null without dates. */
  date_range: [string, string] | null;
  /** Without a dated item: "no item dates on this axis …". */
  dates_reason?: string;
  /** Where the figures come from: the full-axis document and the cards. */
  sources: { models: string; cards: string | null };
  method: Record<string, string>;
  /** Public pairs tested in their windows: the size of this document's Holm family. */
  m: number;
  /** The full-axis leader (rank 1 of /api/models), or null with `lead_reason`. */
  leader: string | null;
  lead_reason?: string;
  /** The leader against every other ranked public model, in rank order. */
  lead: LeadRow[];
  /** One sentence a page can print: the lead on the window beside the lead on the whole axis, or why there is none. */
  summary: string;
  models: WindowModel[];
  pairs: WindowPair[];
}
