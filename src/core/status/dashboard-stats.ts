/**
 * `/api/dashboard/stats`: the figures the dashboard shows, over every source they come from,
 * under the null rule (specification, Invariants §2): totals only when every source was read;
 * otherwise `totals` is null, `totals_floor` carries what the read sources give (a figure whose
 * every source is unread is null there, never 0) and each unread source is named with its reason.
 */
import { applyNullRule, sumOrNull, type SourceRead } from './null-rule.js';

export const DASHBOARD_STATS_SCHEMA = 'svc.dashboard-stats/0.1';

/** What one source contributes; a source sets only the figures it knows. */
export interface StatsContribution {
  axes?: number;
  measured_axes?: number;
  unmeasured_axes?: number;
  quotable_axes?: number;
  items?: number;
  separated_leads?: number;
  ties?: number;
  untested_separations?: number;
  cards?: number;
  signed_cards?: number;
  withdrawn_cards?: number;
  corrections?: number;
  settlements?: number;
  demand_settlements?: number;
  action_job_receipts?: number;
}

export const STATS_FIGURES = [
  'axes',
  'measured_axes',
  'unmeasured_axes',
  'quotable_axes',
  'items',
  'separated_leads',
  'ties',
  'untested_separations',
  'cards',
  'signed_cards',
  'withdrawn_cards',
  'corrections',
  'settlements',
  'demand_settlements',
  'action_job_receipts',
] as const satisfies readonly (keyof StatsContribution)[];

export type StatsFigures = Record<(typeof STATS_FIGURES)[number], number | null>;

/** A source and the figures it would contribute (named even when it is unread). */
export interface StatsSource {
  read: SourceRead<StatsContribution>;
  contributes: readonly (keyof StatsContribution)[];
}

export function dashboardStatsDocument(sources: readonly StatsSource[], now: Date) {
  const agg = applyNullRule(
    sources.map((s) => s.read),
    (read) => {
      const out = {} as StatsFigures;
      for (const f of STATS_FIGURES) out[f] = sumOrNull(read.values(), (v) => v[f]);
      return out;
    },
  );
  return {
    schema: DASHBOARD_STATS_SCHEMA,
    observed_at: now.toISOString(),
    sources: sources.map((s) => ({
      source: s.read.source,
      read: s.read.read,
      contributes: s.contributes,
      reason: s.read.read ? null : s.read.reason,
    })),
    totals: agg.totals,
    totals_floor: agg.totals_floor,
    unread_sources: agg.unread_sources,
    note: 'totals is published only when every source was read; otherwise totals is null and totals_floor is a lower bound over the sources read (null where no read source gives the figure). A source with zero rows counts as read.',
  };
}
