/**
 * The null rule on /api/hub-cards and /api/dashboard/stats (specification, Invariants §2-§3):
 * a total only when every source was read; an unread source makes totals null, offers a floor
 * and is named with its reason; a source with zero rows counts as read (0, not null). Peers
 * are real HTTP servers; the ledger is a real SQLite file.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { HubIndexReader } from '../../src/status/hub-index.js';
import { openLedger } from '../../src/store/open-ledger.js';
import { demoApp } from '../helpers/app.js';
import { tempDir } from '../helpers/tmp.js';

async function peer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; hits: () => number }> {
  let n = 0;
  const server = createServer((req, res) => {
    n++;
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  after(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => n };
}

const json = (res: ServerResponse, v: unknown) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(v));
const EMPTY_INDEX = { schema: 'svc.card-index/1', as_of: '2026-11-01T00:00:00Z', cards: [] };
const EMPTY_WITHDRAWALS = { schema: 'svc.withdrawal-ledger/1', as_of: '2026-11-01T00:00:00Z', entries: [] };
const emptyHub = (req: IncomingMessage, res: ServerResponse) =>
  json(res, req.url === '/cards/index.json' ? EMPTY_INDEX : EMPTY_WITHDRAWALS);

const { state, dir } = demoApp();
const matrix = JSON.parse(readFileSync(join(dir, 'evidence', 'card-matrix.json'), 'utf8')) as {
  counts: { cells: number };
};
const withdrawals = JSON.parse(readFileSync(join(dir, 'evidence', 'withdrawals.json'), 'utf8')) as {
  entries: { sha256: string }[];
};

function appWith(
  peers: { name: string; url: string }[],
  clock: { t: number },
  extra: Partial<Parameters<typeof buildApp>[0]> = {},
) {
  const now = () => new Date(clock.t);
  const app = buildApp({
    state,
    logLevel: 'silent',
    now,
    hubs: new HubIndexReader({ peers, timeoutMs: 1000, now }),
    ...extra,
  });
  after(() => app.close());
  return app;
}

describe('GET /api/hub-cards', () => {
  it('with every hub read: counts are totals, an empty hub counts as read with 0 cells, withdrawn cells are apart', async () => {
    const empty = await peer(emptyHub);
    const app = appWith([{ name: 'empty-peer', url: empty.url }], { t: Date.parse('2026-11-21T00:00:00Z') });
    const doc = (await app.inject('/api/hub-cards')).json();
    assert.equal(doc.schema, 'svc.hub-cards/0.1');
    assert.equal(doc.cache_window_seconds, 600);
    assert.deepEqual(doc.unread_sources, []);
    assert.equal(doc.counts_floor, null);
    assert.equal(doc.counts.cells, matrix.counts.cells);
    assert.equal(doc.counts.hubs_read, 2);
    const emptySource = doc.sources.find((s: { hub: string }) => s.hub === 'empty-peer');
    assert.deepEqual([emptySource.read, emptySource.cells], [true, 0]);
    assert.ok(withdrawals.entries.length > 0, 'the demo has a refused bank, so withdrawn cards');
    assert.deepEqual(
      doc.withdrawn_cells.map((w: { sha256: string }) => w.sha256).sort(),
      withdrawals.entries.map((e) => e.sha256).sort(),
    );
    const inCells = new Set(doc.cells.map((c: { sha256: string }) => c.sha256));
    assert.ok(doc.withdrawn_cells.every((w: { sha256: string }) => !inCells.has(w.sha256)));
  });

  it('an unreadable hub makes counts null, offers a floor and names the hub with its reason, after one retry', async () => {
    const down = await peer((_req, res) => res.writeHead(503).end('maintenance'));
    const app = appWith([{ name: 'down-peer', url: down.url }], { t: Date.parse('2026-11-21T00:00:00Z') });
    const doc = (await app.inject('/api/hub-cards')).json();
    assert.equal(doc.counts, null);
    assert.equal(doc.counts_floor.cells, matrix.counts.cells);
    assert.equal(doc.counts_floor.hubs_read, 1);
    assert.equal(doc.unread_sources.length, 1);
    assert.equal(doc.unread_sources[0].source, 'down-peer');
    assert.match(doc.unread_sources[0].reason, /answered HTTP 503/);
    const s = doc.sources.find((x: { hub: string }) => x.hub === 'down-peer');
    assert.deepEqual([s.read, s.cells, s.attempts], [false, null, 2]);
    assert.equal(down.hits(), 2, 'the failed index was retried once');
  });

  it('caches a read index for ten minutes; a failure is retried once at once and never cached', async () => {
    let failFirst = true;
    const flaky = await peer((req, res) => {
      if (failFirst) {
        failFirst = false;
        res.writeHead(500).end();
        return;
      }
      emptyHub(req, res);
    });
    const clock = { t: Date.parse('2026-11-21T00:00:00Z') };
    const app = appWith([{ name: 'flaky', url: flaky.url }], clock);
    const first = (await app.inject('/api/hub-cards')).json().sources.find((x: { hub: string }) => x.hub === 'flaky');
    assert.deepEqual([first.read, first.attempts, first.from_cache], [true, 2, false]);
    const hits = flaky.hits();
    clock.t += 599_000;
    const cached = (await app.inject('/api/hub-cards')).json().sources.find((x: { hub: string }) => x.hub === 'flaky');
    assert.deepEqual([cached.read, cached.from_cache], [true, true]);
    assert.equal(flaky.hits(), hits);
    clock.t += 2_000;
    const fresh = (await app.inject('/api/hub-cards')).json().sources.find((x: { hub: string }) => x.hub === 'flaky');
    assert.equal(fresh.from_cache, false);
    assert.equal(flaky.hits(), hits + 2);
  });

  it('refuses query parameters', async () => {
    const app = appWith([], { t: 0 });
    assert.equal((await app.inject('/api/hub-cards?peer=http://evil.example')).statusCode, 400);
  });
});

describe('GET /api/dashboard/stats', () => {
  let board: { totals: Record<string, number> };
  before(async () => {
    board = JSON.parse(state.current().boards.get('')!.body.toString('utf8'));
  });

  it('without a ledger: totals null, the floor keeps what was read, the ledger is named unread and its figures are null, not 0', async () => {
    const app = appWith([], { t: Date.parse('2026-11-21T00:00:00Z') });
    const doc = (await app.inject('/api/dashboard/stats')).json();
    assert.equal(doc.schema, 'svc.dashboard-stats/0.1');
    assert.equal(doc.totals, null);
    assert.equal(doc.totals_floor.measured_axes, board.totals.measured_axes);
    assert.equal(doc.totals_floor.items, board.totals.items);
    assert.equal(doc.totals_floor.cards, matrix.counts.cells);
    assert.equal(doc.totals_floor.settlements, null);
    assert.equal(doc.totals_floor.demand_settlements, null);
    assert.equal(doc.totals_floor.action_job_receipts, null);
    assert.deepEqual(
      doc.unread_sources.map((u: { source: string }) => u.source),
      ['revenue ledger', 'action-job ledger'],
    );
    assert.ok(doc.unread_sources[0].reason.length > 0);
  });

  it('with an empty ledger: every source read, totals published, settlements 0 (zero rows count as read)', async () => {
    const ledger = await openLedger({ sqlitePath: join(tempDir(), 'ledger.sqlite') });
    after(() => ledger.close());
    const app = appWith([], { t: Date.parse('2026-11-21T00:00:00Z') }, { ledger });
    const doc = (await app.inject('/api/dashboard/stats')).json();
    assert.deepEqual(doc.unread_sources, []);
    assert.equal(doc.totals_floor, null);
    assert.equal(doc.totals.settlements, 0);
    assert.equal(doc.totals.demand_settlements, 0);
    assert.equal(doc.totals.action_job_receipts, 0);
    assert.equal(doc.totals.corrections, state.current().release.corpus.status.corrections?.entries.length ?? 0);
    assert.equal(doc.totals.axes, board.totals.axes);
  });

  it('a ledger that fails to read is unread with its reason', async () => {
    const ledger = await openLedger({ sqlitePath: join(tempDir(), 'ledger.sqlite') });
    await ledger.close();
    const app = appWith([], { t: Date.parse('2026-11-21T00:00:00Z') }, { ledger });
    const doc = (await app.inject('/api/dashboard/stats')).json();
    assert.equal(doc.totals, null);
    assert.match(doc.unread_sources[0].reason, /could not be read/);
  });
});
