/**
 * `totals`: derived from the selected rows each time a selection is built, never stored or
 * typed (specification, "totals fields"). Sentences are built from the same counts.
 */
import type { AxisRow } from './axis-row.js';

export interface BoardTotals {
  public_count: string;
  axes: number;
  measured_axes: number;
  unmeasured_axes: number;
  quotable_axes: number;
  items: number;
  separated_leads: number;
  ties: number;
  untested_separations: number;
  separation_public_count: string;
  count_grammar: string;
  lid: string;
  own_leaders_excluded: number;
}

export const COUNT_GRAMMAR =
  "Every count is derived from the rows of this response when it is built, never typed. 'axis' counts published slots of any status; " +
  "'measured' counts rows with status MEASURED; 'unmeasured' counts rows with status UNMEASURED (DRAFT, SPEC and PLANNED rows are slots but neither). " +
  'A quotable row is MEASURED with n of at least 30 and a confidence interval. items is the sum of n over the rows. ' +
  'Separation counts cover measured model-comparison rows only: SEPARATED means the leader beat the best base model by an exact McNemar test (p < 0.05); ' +
  'a TIE is not a win; UNTESTED is not a tie. In-lane entries are never counted.';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function computeTotals(rows: readonly AxisRow[]): BoardTotals {
  const measured = rows.filter((r) => r.status === 'MEASURED');
  const comparisons = measured.filter((r) => r.kind === 'model-comparison');
  const separated = comparisons.filter((r) => r.separation === 'SEPARATED').length;
  const ties = comparisons.filter((r) => r.separation === 'TIE').length;
  const untested = comparisons.filter((r) => r.separation === 'UNTESTED').length;
  const axes = rows.length;
  return {
    public_count: `${axes} axis · ${measured.length} measured`,
    axes,
    measured_axes: measured.length,
    unmeasured_axes: rows.filter((r) => r.status === 'UNMEASURED').length,
    quotable_axes: rows.filter((r) => r.quotable).length,
    items: rows.reduce((s, r) => s + r.n, 0),
    separated_leads: separated,
    ties,
    untested_separations: untested,
    separation_public_count:
      `Of ${plural(comparisons.length, 'measured model-comparison axis', 'measured model-comparison axes')}, ` +
      `${separated} separated a leader from the best base model, ${ties} tied and ${untested} ${untested === 1 ? 'is' : 'are'} untested.`,
    count_grammar: COUNT_GRAMMAR,
    lid:
      `${plural(axes, 'axis', 'axes')} · ${measured.length} measured · ${plural(separated, 'separated leader', 'separated leaders')} · ` +
      `${plural(ties, 'tie', 'ties')} (a tie is not a win) — measurement, not certification`,
    own_leaders_excluded: rows.filter((r) => r.public_leader_state === 'EXCLUDED_OWN_MODEL').length,
  };
}
