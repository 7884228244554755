/**
 * What the dashboard's server-rendered tables hand to its bundled plot script (issue 7): the
 * shape of the JSON island of each tab, and the mark colours both sides use (the server draws
 * the legend, the script the marks). Types and constants only, so the browser bundle can import
 * it: the plot and the table are built from the same values.
 */

export const DASHBOARD_TABS = ['measured', 'models', 'regulators', 'provenance', 'compute'] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

/** The id of the `<script type="application/json">` island the plot script reads. */
export const ISLAND_ID = 'dashboard-data';

/** Mark colours (AA contrast on white); the separation states match site.css `.state-*`. */
export const MARK_COLOURS = {
  SEPARATED: '#0a6b2b',
  TIE: '#7a4d00',
  UNTESTED: '#4a4a4a',
  basis: '#767676',
  inForce: '#0b57d0',
  upcoming: '#a8071a',
  bar: '#0b57d0',
} as const;

export type Separation = 'SEPARATED' | 'TIE' | 'UNTESTED';

/** One plotted model-comparison row: the leader slot's accuracy and Wilson interval. */
export interface ForestRow {
  axis: string;
  n: number;
  separation: Separation;
  /** The public leader, or null when the slot is empty (`public_leader_state`). */
  leader: string | null;
  leaderState: string | null;
  accuracy: number;
  lo: number;
  hi: number;
  /** The separation basis (`separation_evidence.next_best`), when the row was tested. */
  basis: { model: string; accuracy: number; lo: number; hi: number } | null;
}

/** A model-comparison row without an interval: listed in the plot with its state and n. */
export interface NoResultRow {
  axis: string;
  n: number;
  state: string;
}

export interface MeasuredIsland {
  tab: 'measured';
  rows: ForestRow[];
  noResult: NoResultRow[];
}

export interface DeadlinePoint {
  id: string;
  applies_from: string;
  days_until: number;
  in_force: boolean;
}

export interface RegulatorsIsland {
  tab: 'regulators';
  /** The feed's `observed_at` (the server's clock), drawn as "today": never the browser's clock. */
  observed_at: string;
  deadlines: DeadlinePoint[];
}

export interface ProvenanceIsland {
  tab: 'provenance';
  cellsPerAxis: { axis: string; cells: number }[];
}

export interface ComputeIsland {
  tab: 'compute';
  states: { state: string; rails: number }[];
}

/** One model of an axis page's forest plot: a model with a parsed response. */
export interface AxisModelPoint {
  model: string;
  own: boolean;
  rank: number | null;
  /** Tie-group letters ('' for own models). */
  letters: string;
  accuracy: number;
  lo: number;
  hi: number;
}

/** One tested or untested pair of an axis page's matrix, as `/api/models` lists it. */
export interface AxisCell {
  first: string;
  second: string;
  state: Separation;
  own: boolean;
  p: number | null;
  p_holm: number | null;
}

/**
 * One model of an axis page's accuracy-against-cost plot (issue 40): a model with a cost and an
 * accuracy, as `/api/cost?axis=` gives them.
 */
export interface AxisCostPoint {
  model: string;
  own: boolean;
  rank: number | null;
  accuracy: number;
  lo: number;
  hi: number;
  /** Cost per item (USD) and its 95% interval (null below two units). */
  cost: number;
  costLo: number | null;
  costHi: number | null;
  /** true: dominated; false: not; null: not compared. */
  dominated: boolean | null;
  /** The first few models that dominate it (the table and /api/cost name them all). */
  by: string[];
}

/** An axis page (`/dashboard/axes/<slug>`): its forest plot and its pairwise matrix. */
export interface AxisIsland {
  tab: 'axis';
  axis: string;
  models: AxisModelPoint[];
  /** Models with rows but no parsed response: no interval to draw. */
  noParsed: { model: string; rows: number }[];
  cells: AxisCell[];
  /** The accuracy-against-cost plot's points (absent when no plotted model has a cost). */
  cost?: AxisCostPoint[];
}

export type DashboardIsland = MeasuredIsland | RegulatorsIsland | ProvenanceIsland | ComputeIsland | AxisIsland;
