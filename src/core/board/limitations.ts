/**
 * `limitations`: the operator's stated limitations, then one sentence per fact about the
 * selected rows that limits how they may be read. Derived live from the same rows as totals.
 */
import type { DerivedAxis } from './axis-row.js';
import { QUOTABLE_MIN_N } from './comparison-row.js';

export const LANE_LIMITATION =
  'measured_in_lane entries are served for honesty only: never quotable as board results and never counted in totals.';

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;

export function deriveLimitations(
  stated: readonly string[],
  axes: readonly DerivedAxis[],
  extra: readonly string[] = [],
): string[] {
  const out = [...stated];
  for (const { row, notes } of axes) {
    const a = row.axis;
    if (row.status !== 'MEASURED') {
      out.push(`${a}: status ${row.status} (n = ${row.n}); no result is read from it.`);
      continue;
    }
    if (notes.refused)
      out.push(
        `${a}: refused — the exact-label menu has fewer than two distinct labels, so no leader is read and its cards are withdrawn.`,
      );
    if (notes.ownLeader)
      out.push(
        `${a}: the top model is the service's own (${notes.ownLeader}); it is removed from the public leader slot.`,
      );
    if (row.public_leader_state === 'NO_SIGNED_CARD')
      out.push(`${a}: the leader read from the per-item rows has no signed card yet, so no public leader is named.`);
    if (row.kind === 'model-comparison' && row.n < QUOTABLE_MIN_N)
      out.push(`${a}: n = ${row.n} is below ${QUOTABLE_MIN_N}; not quotable.`);
    if (notes.untestedReason && !notes.refused)
      out.push(`${a}: separation UNTESTED (${notes.untestedReason}); untested is not a tie.`);
    if (notes.settingsUnknown) {
      const { leader, basis, fields } = notes.settingsUnknown;
      out.push(
        `${a}: the run settings of ${leader} and ${basis} cannot be compared (${fields.length > 0 ? `${fields.join(', ')} recorded for one of them only` : 'one of them has none recorded'}); the separation assumes they were run alike.`,
      );
    }
    if (row.separation === 'TIE')
      out.push(`${a}: the leader is not separated from the best base model (TIE); a tie is not a win.`);
    if (row.unparsed_rate !== undefined && row.unparsed_rate > 0) {
      out.push(
        `${a}: ${percent(row.unparsed_rate)} of responses had no readable label; they are reported, never scored as wrong.`,
      );
    }
    if (notes.goldLists) {
      const { items, leftOutBy } = notes.goldLists;
      const figures = leftOutBy.map((f) => (f === 'macro_f1' ? 'macro_f1' : 'the per-model TP/FP/TN/FN'));
      out.push(
        `${a}: ${items} of ${row.n} items accept a list of gold labels; ${figures.join(' and ')} ${figures.length > 1 ? 'leave' : 'leaves'} them out (they need one gold class per item).`,
      );
    }
    if (row.kind === 'deterministic-facts' && row.facts_failed && row.facts_failed.length > 0) {
      out.push(
        `${a}: ${row.facts_failed.length} of ${row.facts_checked} facts do not hold (${row.facts_failed.join(', ')}).`,
      );
    }
  }
  out.push(...extra, LANE_LIMITATION);
  return out;
}
