/**
 * The shape of `GET /api/models?axis=` (`svc.gspc-models/0.4`): its schema string, what each model
 * and each pair carries, and the document (docs/formats.md, "Every model of an axis"). Apart from
 * its derivation (models-document.ts), which re-exports it, so a reader of the shape need not read
 * the statistics.
 */
import type { RunSettings } from './run-settings.js';

/**
 * 0.2 (issue 39): `tie_groups` (a list of labels) replaced the `tie_group` string, which ran
 * labels past `z` together (`auav`); a refused bank has no accuracy or interval; `mdd` and
 * `n_needed` are null with a reason where the normal approximation fails; pairs carry `a`.
 * 0.3 (issue 39): each public model carries `not_separated`, the ranks it is not separated from
 * as ranges, given at any number of tie groups (the letters stop at 702).
 * 0.4 (issue 40): each model carries `settings` (how it was run on the axis, from `runs.json`, or
 * null), each pair `like_for_like` with `settings_differ` / `settings_unknown`; a pair run with
 * settings that change the task is UNTESTED (decision RS4).
 */
export const MODELS_SCHEMA = 'svc.gspc-models/0.4';

/**
 * The most tie groups a letter display is given with: every label of one or two letters (a … zz).
 * Past it the groups outnumber what letters can usefully say (they can grow exponentially with
 * the models: src/core/stats/letters.ts), and `pairs` and `leader_group` say it instead.
 */
export const MAX_TIE_GROUPS = 26 + 26 * 26;

export interface ModelEntry {
  model: string;
  own: boolean;
  base: boolean;
  rows: number;
  unparsed: number;
  parsed: number;
  k: number;
  /** k / parsed; null without a parsed response, and on a refused bank. */
  accuracy: number | null;
  interval: [number, number] | null;
  /** Rank among the public models with a parsed response, by the board's rule; null for own models and on a refused bank. */
  rank: number | null;
  /**
   * The labels of its tie groups (`a`, …, `z`, `aa`, …): two public models share one exactly when
   * not separated; [] without a result; null for every model when there are more than
   * {@link MAX_TIE_GROUPS} groups (`groups_reason` says so).
   */
  tie_groups: string[] | null;
  /**
   * The ranks of the public models it is not separated from, itself included, as inclusive
   * ranges `[first, last]` ascending: rank r lies in them exactly when the pair is not SEPARATED.
   * Given at any number of tie groups; null for own models, models without a rank and a refused
   * bank.
   */
  not_separated: Array<[number, number]> | null;
  /** On an axis whose rows carry clusters: the naive SE of the accuracy, √(s̄(1 − s̄)/parsed). */
  se?: number | null;
  /** Miller (2024): √(Σ_c (Σ_{i∈c}(sᵢ − s̄))²) / parsed, no small-sample factor. */
  se_clustered?: number | null;
  /** Clusters among the model's parsed items. */
  clusters?: number;
  /** How it was run on this axis (`runs.json`), or null when nothing is recorded (unknown). */
  settings: RunSettings | null;
}

export interface PairEntry {
  first: string;
  second: string;
  /** Whether an own model is in the pair: then it is shown, but outside the Holm family. */
  own: boolean;
  state: 'SEPARATED' | 'TIE' | 'UNTESTED';
  reason?: string;
  n_pairs?: number;
  /** Items both got right (the A of the 2×2 table): with b and c, each model's accuracy on the shared items. */
  a?: number;
  b?: number;
  c?: number;
  p?: number;
  /** Holm-adjusted over the public tested pairs; null for a pair with an own model. */
  p_holm?: number | null;
  /** Slice documents only (issue 41): the Holm adjustment within the slice alone, shown, driving nothing. */
  p_holm_slice?: number | null;
  /** Slice documents only: whether the pair is in the family across slices (b + c ≥ 6, decision SL2). */
  in_family?: boolean;
  /** The model with more wins among the discordant items, when SEPARATED. */
  better?: string;
  /** d = (b − c)/n_pairs: first minus second, on the items both parsed. */
  difference?: number;
  /** Newcombe (1998) method 10, 95%. */
  difference_interval?: [number, number];
  /** Normal approximation: the smallest difference detectable at α 0.05, 80% power; null where it fails. */
  mdd?: number | null;
  mdd_reason?: string;
  /** Normal approximation: paired items that would detect the observed d with 80% power; null with a reason. */
  n_needed?: number | null;
  n_needed_reason?: string;
  /**
   * Whether the two were run alike (docs/methodology.md §12): false when a setting that changes
   * the task differs (the pair is then UNTESTED), null when it cannot be told, true otherwise.
   */
  like_for_like: boolean | null;
  /** With `like_for_like` false: the settings that differ. */
  settings_differ?: string[];
  /** With `like_for_like` null, when either model has settings: those recorded for one model only. */
  settings_unknown?: string[];
}

export interface ModelsDocument {
  schema: typeof MODELS_SCHEMA;
  axis: string;
  status: string;
  n: number;
  bank_state?: 'REFUSED_ONE_LABEL_MENU';
  /** With `bank_state`: what it means, in words. */
  bank_reason?: string;
  method: Record<string, string>;
  /** Public tested pairs: the size of the Holm family. */
  m: number;
  /** How many tie groups there are (labels a, b, …; past 26 they have two letters); null past {@link MAX_TIE_GROUPS}. */
  groups: number | null;
  groups_reason?: string;
  /** The rank-1 public model and every public model not SEPARATED from it, in rank order. */
  leader_group: string[];
  /**
   * Those of `leader_group` whose pair with the leader is UNTESTED (no test was possible, not a
   * TIE), in rank order: a reader must not read them as tied with the leader (review of issue 39).
   */
  leader_untested: string[];
  /** Public pairs UNTESTED: they count as not separated in the letters and ranges, untested. */
  untested_pairs: number;
  models: ModelEntry[];
  pairs: PairEntry[];
}
