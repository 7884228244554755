/**
 * The board response (`svc.gspc-axes/0.5`): a pure function of the loaded release, the
 * selection and the live state. Same inputs, same object, same bytes.
 */
import type { AxisRow, DerivedAxis } from './axis-row.js';
import { deriveLimitations } from './limitations.js';
import type { BoardMeta, LaneEntry } from './model.js';
import { computeTotals, type BoardTotals } from './totals.js';

export const BOARD_SCHEMA = 'svc.gspc-axes/0.5';

/** What a release contributes to every board: derived once when the release is loaded. */
export interface BoardSource {
  meta: BoardMeta;
  axes: readonly DerivedAxis[];
  lane: readonly LaneEntry[];
  peritem: { sha256: string; rows: number };
}

/** State that changes while a release is served (key health, signed cards, the living stamp). */
export interface LiveState {
  /**
   * Cells (`model` + NUL + `axis`) that have a signed card; null when the release carries no
   * card layer, and then no card check is made.
   */
  signedCells: ReadonlySet<string> | null;
  livingStamp: { verification_state: string; reason?: string };
  /** Further limitations the live state imposes (for example an unhealthy signing key). */
  limitations: readonly string[];
}

export interface BoardResponse {
  schema: typeof BOARD_SCHEMA;
  issuer: string;
  doi: string;
  measured_on: {
    model: string;
    date: string;
    grading: string;
    living_stamp: LiveState['livingStamp'];
    peritem_sha256: string;
    peritem_rows: number;
  };
  totals: BoardTotals;
  axes: AxisRow[];
  measured_in_lane: LaneEntry[];
  limitations: string[];
}

/** Serialisation order of row keys: the specification's table order, extensions last. */
const ROW_KEYS: readonly (keyof AxisRow)[] = [
  'axis',
  'family',
  'kind',
  'title',
  'bench',
  'task',
  'dataset',
  'n',
  'accuracy',
  'leader',
  'interval',
  'separation',
  'separation_p',
  'separation_basis',
  'separation_evidence',
  'fleet_mean',
  'mean_harm',
  'macro_f1',
  'unparsed_rate',
  'status',
  'public_leader_state',
  'leader_card_state',
  'bank_state',
  'evidence_url',
  'facts_checked',
  'facts_held',
  'facts_failed',
  'per_model',
  'models',
  'quotable',
];

export function cellKey(model: string, axis: string): string {
  return `${model}\u0000${axis}`;
}

/** Applies the live state to a derived row: a leader with no signed card is not named. */
function liveRow(d: DerivedAxis, live: LiveState): DerivedAxis {
  if (live.signedCells === null || d.row.leader === undefined) return d;
  if (live.signedCells.has(cellKey(d.row.leader, d.row.axis))) return d;
  const { leader: _withheld, ...rest } = d.row;
  return {
    ...d,
    row: {
      ...rest,
      public_leader_state: 'NO_SIGNED_CARD',
      leader_card_state: 'LEADER_READ_FROM_ROWS_WITHOUT_SIGNED_CARD',
    },
  };
}

function ordered(row: AxisRow): AxisRow {
  const out: Record<string, unknown> = {};
  for (const k of ROW_KEYS) if (row[k] !== undefined) out[k] = row[k];
  return out as unknown as AxisRow;
}

/**
 * Builds the board for a selection: every axis (`axis` null) or one known axis slug.
 * The caller checks that the slug is known (an unknown slug is a 404, not an empty board).
 */
export function buildBoard(source: BoardSource, axis: string | null, live: LiveState): BoardResponse {
  const selected = source.axes.filter((d) => axis === null || d.row.axis === axis).map((d) => liveRow(d, live));
  const rows = selected.map((d) => ordered(d.row));
  return {
    schema: BOARD_SCHEMA,
    issuer: source.meta.issuer,
    doi: source.meta.doi,
    measured_on: {
      model: source.meta.measured_on.model,
      date: source.meta.measured_on.date,
      grading: source.meta.measured_on.grading,
      living_stamp: live.livingStamp,
      peritem_sha256: source.peritem.sha256,
      peritem_rows: source.peritem.rows,
    },
    totals: computeTotals(rows),
    axes: rows,
    measured_in_lane: [...source.lane],
    limitations: deriveLimitations(source.meta.limitations, selected, live.limitations),
  };
}
