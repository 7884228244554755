/**
 * GET /api/oracle-fleet over a real SQLite ledger with a fixed clock: the watchdog FRESH at 599
 * and 600 s and STALE at 601 s (the 600-second dead-man's switch), NEVER_SEEN when it never
 * beat, a beat dated far ahead not counting as alive, UNREAD without a ledger or when it cannot
 * be read; `source` (required by the heartbeat read action) always present. The CLI
 * (`gspc heartbeat`) is tested in test/cli/status-cli.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { WATCHDOG_PERIOD_SECONDS } from '../../src/core/ledger/oracle-fleet.js';
import { buildApp } from '../../src/app.js';
import type { ServedState } from '../../src/serve/served-state.js';
import { NO_SOURCES } from '../../src/serve/context.js';
import type { Ledger } from '../../src/store/ledger.js';
import { openLedger } from '../../src/store/open-ledger.js';
import { demoApp } from '../helpers/app.js';
import { tempDir } from '../helpers/tmp.js';

const T0 = Date.parse('2026-09-12T08:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const dir = tempDir('gspc-oracle-fleet-');
let count = 0;
// The demo release is published once, at load (tempDir must not be called in a before() hook).
const state: ServedState = demoApp().state;

/** An app whose clock the test moves. */
function app(ledger: Ledger | undefined, clock: { now: Date }): FastifyInstance {
  const a = buildApp({
    state,
    logLevel: 'silent',
    now: () => clock.now,
    sources: NO_SOURCES,
    ...(ledger !== undefined && { ledger }),
  });
  after(() => a.close());
  return a;
}

async function freshLedger(): Promise<Ledger> {
  const ledger = await openLedger({ sqlitePath: join(dir, `ledger-${++count}.sqlite`) });
  after(() => ledger.close());
  return ledger;
}

async function get(a: FastifyInstance) {
  const res = await a.inject({ method: 'GET', url: '/api/oracle-fleet' });
  return { res, doc: res.json() as Record<string, any> };
}

describe('GET /api/oracle-fleet', () => {
  it('serves svc.oracle-fleet/0.1 with source (required by the heartbeat read action), watchdog and heartbeats, and the headers', async () => {
    const ledger = await freshLedger();
    await ledger.recordHeartbeat({ source: 'watchdog', at: at(0).toISOString(), note: 'cron tick' });
    await ledger.recordHeartbeat({ source: 'oracle-eu', at: at(30).toISOString() });
    await ledger.recordHeartbeat({ source: 'oracle-eu', at: at(60).toISOString() });
    const { res, doc } = await get(app(ledger, { now: at(120) }));
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(doc.schema, 'svc.oracle-fleet/0.1');
    assert.equal(doc.observed_at, at(120).toISOString());
    assert.equal(doc.source, 'heartbeat ledger (sqlite)');
    assert.deepEqual(Object.keys(doc).sort(), ['heartbeats', 'observed_at', 'schema', 'source', 'unread', 'watchdog']);
    assert.deepEqual(doc.watchdog, {
      source: 'watchdog',
      period_seconds: WATCHDOG_PERIOD_SECONDS,
      last_seen: at(0).toISOString(),
      age_seconds: 120,
      state: 'FRESH',
      reason: doc.watchdog.reason,
    });
    assert.match(doc.watchdog.reason, /120 s old, within the 600 s period/);
    assert.deepEqual(
      doc.heartbeats.map((h: any) => [h.source, h.last_seen, h.age_seconds, h.state, h.beats, h.note]),
      [
        ['oracle-eu', at(60).toISOString(), 60, 'FRESH', 2, undefined],
        ['watchdog', at(0).toISOString(), 120, 'FRESH', 1, 'cron tick'],
      ],
    );
    assert.equal('note' in doc.heartbeats[0], false, 'a beat without a note has no note key');
    assert.deepEqual(doc.unread, []);
  });

  it('the watchdog is FRESH at 599 s and at exactly 600 s, STALE at 601 s (a missed 10-minute check-in), FRESH again after the next beat', async () => {
    const ledger = await freshLedger();
    await ledger.recordHeartbeat({ source: 'watchdog', at: at(0).toISOString() });
    const clock = { now: at(599) };
    const a = app(ledger, clock);
    assert.deepEqual(((await get(a)).doc.watchdog as any).state, 'FRESH');
    assert.equal((await get(a)).doc.watchdog.age_seconds, 599);
    clock.now = at(600);
    assert.equal((await get(a)).doc.watchdog.state, 'FRESH');
    clock.now = at(601);
    const stale = (await get(a)).doc;
    assert.deepEqual(
      [stale.watchdog.state, stale.watchdog.age_seconds, stale.heartbeats[0].state],
      ['STALE', 601, 'STALE'],
    );
    assert.match(stale.watchdog.reason, /601 s old, older than the 600 s period/);
    clock.now = at(600.5);
    assert.equal(
      (await get(a)).doc.watchdog.state,
      'STALE',
      'half a second past the period is stale (ages are not rounded down)',
    );
    await ledger.recordHeartbeat({ source: 'watchdog', at: at(700).toISOString() });
    clock.now = at(701);
    assert.deepEqual([(await get(a)).doc.watchdog.state, (await get(a)).doc.watchdog.age_seconds], ['FRESH', 1]);
  });

  it('NEVER_SEEN when the ledger was read and holds no watchdog beat (other sources still listed)', async () => {
    const ledger = await freshLedger();
    const a = app(ledger, { now: at(10) });
    const empty = (await get(a)).doc;
    assert.deepEqual(
      [empty.watchdog.state, empty.watchdog.last_seen, empty.watchdog.age_seconds, empty.heartbeats],
      ['NEVER_SEEN', null, null, []],
    );
    await ledger.recordHeartbeat({ source: 'oracle-us', at: at(0).toISOString() });
    const { doc } = await get(a);
    assert.equal(doc.watchdog.state, 'NEVER_SEEN');
    assert.match(doc.watchdog.reason, /no heartbeat from source 'watchdog'/);
    assert.deepEqual(
      doc.heartbeats.map((h: any) => [h.source, h.state]),
      [['oracle-us', 'FRESH']],
    );
  });

  it('a beat dated more than 60 s ahead of the service clock does not show the watchdog alive; a small difference does', async () => {
    const ledger = await freshLedger();
    await ledger.recordHeartbeat({ source: 'watchdog', at: at(3600).toISOString() });
    const clock = { now: at(0) };
    const a = app(ledger, clock);
    const ahead = (await get(a)).doc;
    assert.deepEqual([ahead.watchdog.state, ahead.watchdog.age_seconds], ['STALE', -3600]);
    assert.match(ahead.watchdog.reason, /clocks disagree/);
    clock.now = at(3570);
    assert.deepEqual([(await get(a)).doc.watchdog.state, (await get(a)).doc.watchdog.age_seconds], ['FRESH', -30]);
  });

  it('without a ledger: 200, source says so, heartbeats null with the reason, watchdog UNREAD (not NEVER_SEEN)', async () => {
    const { res, doc } = await get(app(undefined, { now: at(0) }));
    assert.equal(res.statusCode, 200);
    assert.equal(doc.schema, 'svc.oracle-fleet/0.1');
    assert.equal(doc.source, 'no heartbeat ledger configured');
    assert.equal(doc.heartbeats, null);
    assert.deepEqual(
      [doc.watchdog.state, doc.watchdog.last_seen, doc.watchdog.age_seconds, doc.watchdog.period_seconds],
      ['UNREAD', null, null, 600],
    );
    assert.equal(doc.unread.length, 1);
    assert.match(doc.unread[0].reason, /without a ledger/);
  });

  it('a ledger that cannot be read: 200, UNREAD with the error code, source names the ledger as unread', async () => {
    const ledger = await freshLedger();
    await ledger.recordHeartbeat({ source: 'watchdog', at: at(0).toISOString() });
    const a = app(ledger, { now: at(1) });
    await ledger.close();
    const { res, doc } = await get(a);
    assert.equal(res.statusCode, 200);
    assert.equal(doc.source, 'heartbeat ledger (sqlite), unread');
    assert.deepEqual([doc.watchdog.state, doc.heartbeats], ['UNREAD', null]);
    assert.match(doc.watchdog.reason, /could not be read \(ledger_unavailable\)/);
  });

  it('refuses query parameters with 400 bad_query', async () => {
    const res = await app(undefined, { now: at(0) }).inject({
      method: 'GET',
      url: '/api/oracle-fleet?source=watchdog',
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'bad_query');
  });
});
