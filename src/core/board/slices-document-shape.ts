/**
 * The shapes of an axis's slices (issue 41 item 2, docs/formats.md "Slices of an axis"): a slice
 * document (`GET /api/models?axis=&slice=`, the every-model document of the tag's items with the
 * slice and its family named) and the list of an axis's slices (`GET /api/slices?axis=`,
 * `svc.gspc-slices/0.1`). Apart from their derivation (slice-family.ts).
 */
import type { ModelsDocument } from './models-document-shape.js';

export const SLICES_SCHEMA = 'svc.gspc-slices/0.1';

/** The one Holm family of an axis's slices (decision SL2), as each slice document and the list name it. */
export interface SliceFamily {
  scope: 'across slices';
  alpha: number;
  /** Public pairs in the family: tested, and able to reject (b + c ≥ {@link MIN_DISCORDANT}), over every slice. */
  m: number;
  /** Public pairs tested on some slice but left out: b + c < {@link MIN_DISCORDANT}, they cannot reject at all. */
  excluded: number;
  /** Pairs with an own model, over every slice: their own family, the same rule (never in `m`). */
  m_own: number;
  /** Slices (tags) of the axis. */
  slices: number;
  rule: string;
}

/** The fewest discordant items (b + c) with which an exact two-sided McNemar test can reach p < 0.05. */
export const MIN_DISCORDANT = 6;

/** A slice document: `svc.gspc-models/0.4` with the slice, its family and whether it is too small. */
export interface SliceDocument extends ModelsDocument {
  slice: {
    tag: string;
    /** Items of the axis carrying the tag (`n` counts the same items). */
    items: number;
  };
  family: SliceFamily;
  /** Public pairs tested on this slice (the family a within-slice Holm would have). */
  m_slice: number;
  /** Of those, the ones in the family (b + c ≥ 6). */
  m_slice_family: number;
  /** No public pair of the slice can reject: no letters or ranges are given (groups_reason says why). */
  too_small: boolean;
  too_small_reason?: string;
}

/** One slice in the list: what its document says, compactly (arrays follow the list's `models`). */
export interface SliceSummary {
  tag: string;
  items: number;
  /** Per model of the list's `models`: its parsed responses on the slice (0: no row or none parsed). */
  n: number[];
  /** Rank-1 public model of the slice, null when none has a parsed response. */
  leader: string | null;
  leader_group: string[];
  /** Members of leader_group never compared with the leader (UNTESTED pair): not evidence of a tie (as the slice document's). */
  leader_untested: string[];
  /** Per model of the list's `models`: its tie-group labels on the slice (null: no rank, or no letters). */
  tie_groups: Array<string[] | null> | null;
  groups: number | null;
  /** Public pairs SEPARATED on the slice (by the family across slices). */
  separated: number;
  m_slice: number;
  m_slice_family: number;
  too_small: boolean;
  too_small_reason?: string;
  bank_state?: 'REFUSED_ONE_LABEL_MENU';
  document: string;
}

export interface SlicesDocument {
  schema: typeof SLICES_SCHEMA;
  axis: string;
  status: string;
  /** Items of the axis, and how many of them carry at least one tag. */
  n: number;
  tagged_items: number;
  /** Every model with a row on the axis, in the whole axis's document order (best first). */
  models: string[];
  family: SliceFamily;
  method: Record<string, string>;
  slices: SliceSummary[];
}
