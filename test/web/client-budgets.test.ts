/**
 * The per-client counts behind the rate limits (src/web/client-budgets.ts, decision O12): fixed
 * windows counted as @fastify/rate-limit's own store counts them, a bound on the clients held,
 * and the fast path's per-connection cell (src/web/rate-limits.ts), which must never merge two
 * clients that a trusted proxy forwards over one connection. Times come from a clock the test
 * moves.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { ClientBudgets, countIn } from '../../src/web/client-budgets.js';
import { RateCounts } from '../../src/web/rate-limits.js';

const WINDOW = 60_000;

function clock(start = 1000) {
  let t = start;
  return { now: () => t, at: (ms: number) => (t = ms) };
}

function incr(b: ClientBudgets, key: string): { current: number; ttl: number } {
  let out: { current: number; ttl: number } | undefined;
  b.store.incr(key, (e, r) => (out = e ? undefined : r), WINDOW, 10);
  assert.ok(out, 'answered synchronously');
  return out;
}

/** A request as node:http hands it: its connection (peer address) and its headers. */
const request = (socket: object, headers: Record<string, string> = {}) =>
  ({ socket, headers, rawHeaders: Object.entries(headers).flat() }) as unknown as IncomingMessage;

describe('client budgets', () => {
  it('counts in fixed windows, as the plugin store contract says: current, and the milliseconds left', () => {
    const c = clock();
    const b = new ClientBudgets(WINDOW, c.now);
    assert.deepEqual(incr(b, 'free|a'), { current: 1, ttl: WINDOW });
    c.at(1000 + 250);
    assert.deepEqual(incr(b, 'free|a'), { current: 2, ttl: WINDOW - 250 });
    assert.deepEqual(incr(b, 'free|b'), { current: 1, ttl: WINDOW }, 'another key has its own count');
    c.at(1000 + WINDOW - 1);
    assert.deepEqual(incr(b, 'free|a'), { current: 3, ttl: 1 });
    c.at(1000 + WINDOW);
    assert.deepEqual(incr(b, 'free|a'), { current: 1, ttl: WINDOW }, 'the window has ended: a new one begins');
    assert.equal(b.store.child({} as never), b.store, 'a route child counts in the same cells');
  });

  it('countIn and the store count in the same cell', () => {
    const c = clock();
    const b = new ClientBudgets(WINDOW, c.now);
    const cell = b.cell('free|a');
    assert.equal(countIn(cell, c.now(), WINDOW), 1);
    assert.equal(countIn(cell, c.now(), WINDOW), 2);
    assert.equal(incr(b, 'free|a').current, 3);
    assert.equal(cell.count, 3);
  });

  it('holds at most maxCells clients: ended windows are swept first, then the oldest goes, and a dropped cell says so', () => {
    const c = clock(0);
    const b = new ClientBudgets(WINDOW, c.now, 2);
    const a = b.cell('a');
    countIn(a, c.now(), WINDOW);
    c.at(10);
    const bb = b.cell('b');
    countIn(bb, c.now(), WINDOW);
    c.at(20);
    b.cell('c'); // full, nothing ended: the oldest (a) goes
    assert.equal(b.size, 2);
    assert.equal(a.live, false, 'a holder of the dropped cell knows to look again');
    assert.equal(bb.live, true);
    assert.notEqual(b.cell('a'), a, 'a is counted afresh in a new cell');
    assert.equal(bb.live, false, 'and b, now the oldest, made room for it');

    // Both windows ended: a sweep drops every ended cell at once, not only the oldest.
    const d = new ClientBudgets(WINDOW, c.now, 3);
    for (const k of ['x', 'y', 'z']) countIn(d.cell(k), c.now(), WINDOW);
    c.at(20 + WINDOW);
    d.cell('w');
    assert.equal(d.size, 1, 'the three ended windows were swept');
  });

  it('sweeps at most once a second: a flood of new clients costs one sweep, then drops the oldest', () => {
    const c = clock(0);
    const b = new ClientBudgets(WINDOW, c.now, 2);
    const first = b.cell('a');
    countIn(first, c.now(), WINDOW);
    countIn(b.cell('b'), c.now(), WINDOW);
    c.at(WINDOW); // both ended
    b.cell('c'); // sweep: a and b go
    assert.equal(b.size, 1);
    const cc = b.cell('c');
    countIn(cc, c.now(), WINDOW); // c counted: its window runs
    const d = b.cell('d'); // d never counted: its window has ended
    c.at(WINDOW + 500);
    b.cell('e'); // full, and the last sweep was under a second ago: no sweep, the oldest (c) goes
    assert.equal(cc.live, false, 'the oldest went');
    assert.equal(d.live, true, 'a sweep would have taken the ended d instead');
    c.at(WINDOW + 1000);
    b.cell('f'); // a second later a sweep runs again: d, ended, goes; e was never counted either
    assert.equal(d.live, false);
    assert.equal(b.size, 1);
  });
});

describe('the fast path budget count (RateCounts.admitFree)', () => {
  it("counts a connection's reads in its client's cell, shared with the plugin's key, and refuses past the budget", () => {
    const c = clock();
    const counts = new RateCounts({ free: 3, verify: 0, challenge: 0, paid: 0 }, { clock: c.now });
    const one = { remoteAddress: '192.0.2.1' };
    const two = { remoteAddress: '192.0.2.1' };
    assert.equal(counts.admitFree(request(one), c.now()), true);
    assert.equal(counts.admitFree(request(two), c.now()), true, 'a second connection of the same address');
    let current = 0;
    counts.store.incr('free|192.0.2.1', (_e, r) => (current = r!.current), WINDOW, 3);
    assert.equal(current, 3, "the plugin's count under the same key is the same count");
    assert.equal(counts.admitFree(request(one), c.now()), false, 'the fourth read of the address is over');
    assert.equal(counts.admitFree(request({ remoteAddress: '192.0.2.2' }), c.now()), true, 'another address');
    c.at(1000 + WINDOW);
    assert.equal(counts.admitFree(request(one), c.now()), true, 'a new window');
  });

  it('behind a trusted proxy, tells apart the clients one connection carries', () => {
    const c = clock();
    const counts = new RateCounts(
      { free: 2, verify: 0, challenge: 0, paid: 0 },
      { trustProxy: ['127.0.0.1'], clock: c.now },
    );
    const proxy = { remoteAddress: '127.0.0.1' };
    const from = (client: string) => request(proxy, { 'x-forwarded-for': client });
    assert.equal(counts.admitFree(from('198.51.100.7'), c.now()), true);
    assert.equal(counts.admitFree(from('198.51.100.7'), c.now()), true);
    assert.equal(counts.admitFree(from('198.51.100.7'), c.now()), false, 'the flooding client is over');
    assert.equal(counts.admitFree(from('203.0.113.9'), c.now()), true, 'another client on the same connection');
  });

  it('a connection whose cell was dropped (the bound) counts in a live cell again', () => {
    const c = clock();
    const counts = new RateCounts({ free: 2, verify: 0, challenge: 0, paid: 0 }, { clock: c.now, maxClients: 1 });
    const a = { remoteAddress: '192.0.2.1' };
    assert.equal(counts.admitFree(request(a), c.now()), true);
    assert.equal(counts.admitFree(request({ remoteAddress: '192.0.2.2' }), c.now()), true); // a's cell dropped
    // a counts afresh (its old count is gone with its cell) and is refused again only past the budget.
    assert.equal(counts.admitFree(request(a), c.now()), true);
    assert.equal(counts.admitFree(request(a), c.now()), true);
    assert.equal(counts.admitFree(request(a), c.now()), false, 'counted in the live cell, not the dropped one');
  });
});
