/**
 * The aggregates under the null rule (specification, Invariants §2-§3): GET /api/hub-cards (the
 * signed-card cells of every hub, withdrawn cells apart) and GET /api/dashboard/stats (the
 * dashboard's figures over the board, the hubs, the corrections ledger and the ledgers). A source
 * that cannot be read makes the totals null, never zero, and is named with its reason.
 */
import { hubCardsDocument, type HubRead } from '../../core/status/hub-cards.js';
import { dashboardStatsDocument, type StatsContribution, type StatsSource } from '../../core/status/dashboard-stats.js';
import { countedAs } from '../../payments/revenue.js';
import type { ServiceContext } from '../context.js';
import { built, perRelease, type DocumentEntry } from './document.js';

/** The board's own totals (derived at publish from the per-item rows), read from the served bytes. */
const boardContribution = perRelease((p): StatsContribution => {
  const board = JSON.parse(p.boards.get('')!.body.toString('utf8')) as { totals: Required<StatsContribution> };
  const { axes, measured_axes, unmeasured_axes, quotable_axes, items, separated_leads, ties, untested_separations } =
    board.totals;
  return { axes, measured_axes, unmeasured_axes, quotable_axes, items, separated_leads, ties, untested_separations };
});

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function ledgerSources(ctx: ServiceContext): Promise<StatsSource[]> {
  const unread = (source: string, reason: string) => ({ source, read: false as const, reason });
  const settlements: StatsSource = {
    contributes: ['settlements', 'demand_settlements'],
    read: unread('revenue ledger', 'this service runs without a ledger'),
  };
  const receipts: StatsSource = {
    contributes: ['action_job_receipts'],
    read: unread('action-job ledger', 'this service runs without a ledger'),
  };
  const ledger = ctx.ledger;
  if (ledger === undefined) return [settlements, receipts];
  const self = new Set(
    [...(ctx.rail?.selfPayers ?? []), ...(ctx.rail?.payTo ? [ctx.rail.payTo] : [])].map((a) => a.toLowerCase()),
  );
  await Promise.all([
    ledger.list({ state: 'SETTLED', withArtefacts: false }).then(
      (records) => {
        settlements.read = {
          source: 'revenue ledger',
          read: true,
          value: {
            settlements: records.length,
            demand_settlements: records.filter((r) => countedAs(r, self) === 'demand').length,
          },
        };
      },
      (err) => {
        settlements.read = unread('revenue ledger', `the ledger could not be read: ${reasonOf(err)}`);
      },
    ),
    ledger.listActionReceipts().then(
      (rows) => {
        receipts.read = { source: 'action-job ledger', read: true, value: { action_job_receipts: rows.length } };
      },
      (err) => {
        receipts.read = unread('action-job ledger', `the ledger could not be read: ${reasonOf(err)}`);
      },
    ),
  ]);
  return [settlements, receipts];
}

function hubSources(reads: readonly HubRead[]): StatsSource[] {
  return reads.map((r) => ({
    contributes: ['cards', 'signed_cards', 'withdrawn_cards'],
    read: r.result.ok
      ? {
          source: `hub ${r.hub}`,
          read: true,
          value: {
            cards: r.result.index.cells.length,
            signed_cards: r.result.index.cells.filter((c) => c.signed).length,
            withdrawn_cards: r.result.index.withdrawn.length,
          },
        }
      : { source: `hub ${r.hub}`, read: false, reason: r.result.reason },
  }));
}

export const hubCardsDoc: DocumentEntry<ReturnType<typeof hubCardsDocument>> = {
  id: 'hub-cards',
  route: '/api/hub-cards',
  query: [],
  schema: 'svc.hub-cards/0.1',
  cache: { kind: 'request', cacheControl: 'no-store' },
  paths: () => ['/api/hub-cards'],
  read: async (ctx) =>
    built(hubCardsDocument(await ctx.hubs.readAll(ctx.state.current().release), ctx.now()), 'no-store'),
};

export const dashboardStatsDoc: DocumentEntry<ReturnType<typeof dashboardStatsDocument>> = {
  id: 'dashboard-stats',
  route: '/api/dashboard/stats',
  query: [],
  schema: 'svc.dashboard-stats/0.1',
  cache: { kind: 'request', cacheControl: 'no-store' },
  paths: () => ['/api/dashboard/stats'],
  read: async (ctx) => {
    const prepared = ctx.state.current();
    const [reads, ledgers] = await Promise.all([ctx.hubs.readAll(prepared.release), ledgerSources(ctx)]);
    const sources: StatsSource[] = [
      {
        contributes: [
          'axes',
          'measured_axes',
          'unmeasured_axes',
          'quotable_axes',
          'items',
          'separated_leads',
          'ties',
          'untested_separations',
        ],
        read: { source: 'board', read: true, value: boardContribution(prepared) },
      },
      ...hubSources(reads),
      // The corrections ledger is part of the release: read with it (no directory: zero entries, read).
      {
        contributes: ['corrections'],
        read: {
          source: 'corrections ledger',
          read: true,
          value: { corrections: prepared.release.corpus.status.corrections?.entries.length ?? 0 },
        },
      },
      ...ledgers,
    ];
    return built(dashboardStatsDocument(sources, ctx.now()), 'no-store');
  },
};
