/**
 * Slow requests (issue 38, finding 1): an idle or slow-header connection was closed only after
 * 72 s, and a body sent one byte every 10 s was never timed out, so holding connections cost an
 * attacker almost nothing. Now a connection's headers must arrive within the headers timeout
 * (from the connection, even when it sends nothing) and its whole request within the request
 * timeout. Shortened here (1 s and 2 s; the defaults are 10 s and 30 s).
 */
import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { demoApp } from '../helpers/app.js';

/** Opens a connection, runs `drip` on it, resolves with what the server sent and when it closed. */
function held(port: number, drip: (write: (s: string) => void) => NodeJS.Timeout | undefined) {
  return new Promise<{ closedAfterMs: number; received: string }>((resolve) => {
    const t0 = Date.now();
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const s = connect({ host: '127.0.0.1', port }, () => {
      timer = drip((text) => {
        if (!s.destroyed) s.write(text);
      });
    });
    s.on('data', (d) => {
      received += d;
    });
    s.on('error', () => {});
    s.on('close', () => {
      clearInterval(timer);
      resolve({ closedAfterMs: Date.now() - t0, received });
    });
    // The test's own bound: a connection still open after 8 s fails below.
    setTimeout(() => s.destroy(), 8_000).unref();
  });
}

describe('slow requests are cut (issue 38)', () => {
  let app: FastifyInstance;
  let port = 0;
  before(async () => {
    app = buildApp({
      state: demoApp().state,
      logLevel: 'silent',
      connections: { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  after(() => app.close());

  it('a connection that sends nothing is closed after the headers timeout', async () => {
    const r = await held(port, () => undefined);
    assert.ok(r.closedAfterMs < 3_500, `closed after ${r.closedAfterMs} ms`);
  });

  it('headers sent a byte at a time are cut after the headers timeout', async () => {
    const head = 'GET /api/gspc HTTP/1.1\r\nHost: localhost\r\nX-Slow: ' + 'a'.repeat(200);
    let i = 0;
    const r = await held(port, (write) => setInterval(() => write(head[i++ % head.length]!), 200));
    assert.ok(r.closedAfterMs < 4_500, `closed after ${r.closedAfterMs} ms`);
  });

  it('a body sent a byte at a time is cut after the request timeout', async () => {
    const r = await held(port, (write) => {
      write(
        'POST /api/verify HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n',
      );
      return setInterval(() => write(' '), 300);
    });
    assert.ok(r.closedAfterMs < 5_500, `closed after ${r.closedAfterMs} ms`);
    assert.doesNotMatch(r.received, /^HTTP\/1\.1 200/);
  });
});
