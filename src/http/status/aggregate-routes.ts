/**
 * The aggregates under the null rule (specification, Invariants §2-§3): GET /api/hub-cards (the
 * signed-card cells of every hub, withdrawn cells apart) and GET /api/dashboard/stats (the
 * dashboard's figures over the board, the hubs, the corrections ledger and the ledgers). A source
 * that cannot be read makes the totals null, never zero, and is named with its reason.
 */
import type { FastifyInstance } from 'fastify';
import { hubCardsDocument, type HubRead } from '../../core/status/hub-cards.js';
import { dashboardStatsDocument, type StatsContribution, type StatsSource } from '../../core/status/dashboard-stats.js';
import { countedAs } from '../../payments/revenue.js';
import type { HubIndexReader } from '../../status/hub-index.js';
import { BASE_HEADERS } from '../errors.js';
import type { PreparedRelease } from '../prepared.js';
import { readQuery } from '../query.js';
import type { StatusContext } from './context.js';

const HEADERS = { ...BASE_HEADERS, 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' };

const boardTotals = new WeakMap<PreparedRelease, StatsContribution>();

/** The board's own totals (derived at publish from the per-item rows), read from the served bytes. */
function boardContribution(p: PreparedRelease): StatsContribution {
  let t = boardTotals.get(p);
  if (t === undefined) {
    const board = JSON.parse(p.boards.get('')!.body.toString('utf8')) as { totals: Required<StatsContribution> };
    const { axes, measured_axes, unmeasured_axes, quotable_axes, items, separated_leads, ties, untested_separations } = board.totals;
    t = { axes, measured_axes, unmeasured_axes, quotable_axes, items, separated_leads, ties, untested_separations };
    boardTotals.set(p, t);
  }
  return t;
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function ledgerSources(ctx: StatusContext): Promise<StatsSource[]> {
  const unread = (source: string, reason: string) => ({ source, read: false as const, reason });
  const settlements: StatsSource = { contributes: ['settlements', 'demand_settlements'], read: unread('revenue ledger', 'this service runs without a ledger') };
  const receipts: StatsSource = { contributes: ['action_job_receipts'], read: unread('action-job ledger', 'this service runs without a ledger') };
  const ledger = ctx.ledger;
  if (ledger === undefined) return [settlements, receipts];
  const self = new Set([...(ctx.rail?.selfPayers ?? []), ...(ctx.rail?.payTo ? [ctx.rail.payTo] : [])].map((a) => a.toLowerCase()));
  await Promise.all([
    ledger.list({ state: 'SETTLED', withArtefacts: false }).then(
      (records) => { settlements.read = { source: 'revenue ledger', read: true, value: { settlements: records.length, demand_settlements: records.filter((r) => countedAs(r, self) === 'demand').length } }; },
      (err) => { settlements.read = unread('revenue ledger', `the ledger could not be read: ${reasonOf(err)}`); }),
    ledger.listActionReceipts().then(
      (rows) => { receipts.read = { source: 'action-job ledger', read: true, value: { action_job_receipts: rows.length } }; },
      (err) => { receipts.read = unread('action-job ledger', `the ledger could not be read: ${reasonOf(err)}`); }),
  ]);
  return [settlements, receipts];
}

function hubSources(reads: readonly HubRead[]): StatsSource[] {
  return reads.map((r) => ({
    contributes: ['cards', 'signed_cards', 'withdrawn_cards'],
    read: r.result.ok
      ? { source: `hub ${r.hub}`, read: true, value: { cards: r.result.index.cells.length, signed_cards: r.result.index.cells.filter((c) => c.signed).length, withdrawn_cards: r.result.index.withdrawn.length } }
      : { source: `hub ${r.hub}`, read: false, reason: r.result.reason },
  }));
}

export function registerAggregateRoutes(app: FastifyInstance, ctx: StatusContext, hubs: HubIndexReader): void {
  const readHubs = () => hubs.readAll(ctx.state.current().release);

  app.get('/api/hub-cards', async (req, reply) => {
    readQuery(req.url, []);
    const reads = await readHubs();
    reply.headers(HEADERS).send(JSON.stringify(hubCardsDocument(reads, ctx.now())));
  });

  app.get('/api/dashboard/stats', async (req, reply) => {
    readQuery(req.url, []);
    const prepared = ctx.state.current();
    const [reads, ledgers] = await Promise.all([readHubs(), ledgerSources(ctx)]);
    const sources: StatsSource[] = [
      { contributes: ['axes', 'measured_axes', 'unmeasured_axes', 'quotable_axes', 'items', 'separated_leads', 'ties', 'untested_separations'], read: { source: 'board', read: true, value: boardContribution(prepared) } },
      ...hubSources(reads),
      // The corrections ledger is part of the release: read with it (no directory: zero entries, read).
      { contributes: ['corrections'], read: { source: 'corrections ledger', read: true, value: { corrections: prepared.release.corpus.status.corrections?.entries.length ?? 0 } } },
      ...ledgers,
    ];
    reply.headers(HEADERS).send(JSON.stringify(dashboardStatsDocument(sources, ctx.now())));
  });
}
