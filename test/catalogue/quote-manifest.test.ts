/** The quote manifest, GET /.well-known/x402.json: challenges observed through the app itself. */
import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import type { ServedState } from '../../src/serve/served-state.js';
import { signingContext } from '../../src/keys/signing.js';
import { readRailConfig } from '../../src/config.js';
import { observeQuotes } from '../../src/payments/quote-manifest.js';
import { demoApp, TEST_DID_HOST, testSigning } from '../helpers/app.js';

const BASE = 'http://localhost:8080';
const T0 = Date.parse('2026-09-20T12:00:00Z');

function appOver(state: ServedState, clock: { t: number }) {
  const app = buildApp({
    state,
    logLevel: 'silent',
    baseUrl: BASE,
    now: () => new Date(clock.t),
    products: { rail: readRailConfig({}) },
  });
  after(() => app.close());
  return app;
}
type Quote = {
  url: string;
  method: string;
  http: number | null;
  body: Record<string, any> | null;
  error: string | null;
  skipped: string | null;
};

describe('GET /.well-known/x402.json', () => {
  const { state } = demoApp();
  const clock = { t: T0 };
  const app = appOver(state, clock);
  const manifest = () => app.inject({ method: 'GET', url: '/.well-known/x402.json' });

  it('quotes every product as observed: one 402 x402 v2 challenge per example request, none skipped', async () => {
    const r = await manifest();
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['access-control-allow-origin'], '*');
    const m = r.json();
    assert.equal(m.schema, 'svc.x402-quotes/0.1');
    assert.equal(m.kind, 'MEASURED');
    assert.equal(m.manifest, '/.well-known/x402.json');
    assert.equal(m.as_of, new Date(T0).toISOString());
    const quotes = m.quotes as Quote[];
    // free door, one attestation, the bundle of each of the 4 obligations, the feed
    assert.equal(quotes.length, 7);
    assert.deepEqual(
      quotes.map((q) => new URL(q.url).pathname),
      ['/api/free-door', '/api/request-attestation', ...Array(4).fill('/api/evidence-bundle'), '/api/eunomia-data'],
    );
    for (const q of quotes) {
      assert.equal(q.method, 'GET');
      assert.equal(q.http, 402, q.url);
      assert.equal(q.skipped, null);
      assert.equal(q.error, null);
      assert.equal(q.body!.x402Version, 2);
      assert.equal(q.body!.accepts[0].resource, q.url);
    }
    assert.equal(quotes[0]!.body!.accepts[0].amount, '0');
    assert.equal(quotes[2]!.body!.accepts[0].svc_pricing.pricing_basis, 'PROMO_EXISTING_DATA');
    assert.deepEqual(m.counts, { quotes: 7, read: 7, errors: 0, skipped: 0 });
  });

  it('each quote is exactly what a client requesting that URL gets, but for the sign-in nonce each 402 draws (decision P45)', async () => {
    const m = (await manifest()).json();
    const nonceOf = (b: Record<string, any>) => b.extensions['sign-in-with-x'].info.nonce as string;
    const withoutNonce = (b: Record<string, any>) => {
      const c = structuredClone(b);
      delete c.extensions['sign-in-with-x'].info.nonce;
      return c;
    };
    for (const q of m.quotes as Quote[]) {
      const u = new URL(q.url);
      const direct = await app.inject({ method: 'GET', url: `${u.pathname}${u.search}` });
      const again = await app.inject({ method: 'GET', url: `${u.pathname}${u.search}` });
      assert.deepEqual(withoutNonce(q.body!), withoutNonce(direct.json()), q.url);
      assert.match(nonceOf(direct.json()), /^[0-9a-f]{32}$/);
      assert.notEqual(nonceOf(direct.json()), nonceOf(again.json()), 'a nonce per 402');
      const header = JSON.parse(Buffer.from(direct.headers['payment-required'] as string, 'base64').toString('utf8'));
      assert.equal(nonceOf(header), nonceOf(direct.json()), 'the header and the body carry the same nonce');
    }
  });

  it('serves one observation per release for at most 300 s, with a max-age that counts down', async () => {
    clock.t = T0 + 100_000;
    const later = await manifest();
    assert.equal(later.json().as_of, new Date(T0).toISOString());
    assert.equal(later.headers['cache-control'], 'public, max-age=200');
    clock.t = T0 + 300_000;
    const fresh = await manifest();
    assert.equal(fresh.json().as_of, new Date(T0 + 300_000).toISOString());
    assert.equal(fresh.headers['cache-control'], 'public, max-age=300');
    clock.t = T0 + 301_000;
    state.swap(state.current().release);
    assert.equal(
      (await manifest()).json().as_of,
      new Date(T0 + 301_000).toISOString(),
      'a new release is observed again',
    );
  });

  it('with no signed card, the attestation quote is skipped with the reason; the others are still observed', async () => {
    const s = testSigning();
    chmodSync(join(s.keyDir, 'board-attestation-1.key'), 0o644);
    const { state: unsigned } = demoApp(undefined, { ...signingContext(s.keyDir, TEST_DID_HOST), keyDir: s.keyDir });
    const m = (await appOver(unsigned, { t: T0 }).inject({ method: 'GET', url: '/.well-known/x402.json' })).json();
    const skipped = (m.quotes as Quote[]).filter((q) => q.skipped !== null);
    assert.equal(skipped.length, 1);
    assert.equal(skipped[0]!.url, `${BASE}/api/request-attestation`);
    assert.equal(skipped[0]!.http, null);
    assert.equal(skipped[0]!.body, null);
    assert.match(skipped[0]!.skipped!, /no active signed card/);
    assert.ok(
      (m.quotes as Quote[])
        .filter((q) => q.skipped === null)
        .every((q) => q.http === 402 && q.body!.svc.signer.key_present === false),
    );
  });

  it('an answer that is not a challenge is recorded as an error, never as a quote body', async () => {
    const quotes = await observeQuotes(
      [
        { product: 'eunomia_data', path: '/api/eunomia-data?feed=1', skipped: null },
        { product: 'free_door', path: '/api/free-door', skipped: null },
      ],
      BASE,
      async (path) => {
        if (path.startsWith('/api/free-door')) throw new Error('socket closed');
        return { status: 400, body: JSON.stringify({ error: 'feed: required', code: 'bad_query' }) };
      },
    );
    assert.deepEqual(
      quotes.map((q) => [q.http, q.body, q.error]),
      [
        [400, null, 'expected HTTP 402, got 400: feed: required'],
        [null, null, 'the request could not be made: socket closed'],
      ],
    );
  });
});
