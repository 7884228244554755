/** The metered product routes in this build: challenges, previews, strict queries, and an unconfigured rail. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import { buildApp } from '../../src/app.js';
import { readRailConfig } from '../../src/config.js';
import { demoApp } from '../helpers/app.js';

const { state } = demoApp();
const app = buildApp({
  state,
  logLevel: 'silent',
  baseUrl: 'http://localhost:8080',
  now: () => new Date('2026-11-21T00:00:00Z'),
  products: { rail: readRailConfig({}) },
});
after(() => app.close());
const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
const model = [...state.current().release.evidence.cards.values()].find(
  (c) => c.surface === 'board.measurement',
)!.subject;

describe('metered product routes', () => {
  it('a paid path without payment is a 402 whose PAYMENT-REQUIRED header the official client reads and equals the body', async () => {
    const r = await get(`/api/request-attestation?subject=${encodeURIComponent(model)}`);
    assert.equal(r.statusCode, 402);
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.match(r.headers['access-control-expose-headers'] as string, /PAYMENT-REQUIRED/);
    const header = r.headers['payment-required'] as string;
    const read = new x402HTTPClient(new x402Client()).getPaymentRequiredResponse(
      (n) => (n.toLowerCase() === 'payment-required' ? header : null),
      {},
    );
    assert.deepEqual(read, r.json());
    const body = r.json();
    assert.equal(body.accepts[0].amount, '20000');
    assert.equal(body.svc.rail.pay_to_configured, false);
    assert.ok(body.svc.preview.cards.length > 0);
    assert.match(body.svc.not_paid_reason, /PAYMENT-SIGNATURE/);
    assert.equal(body.svc.lid, JSON.parse((await get('/api/gspc')).body).totals.lid);
  });

  it('the free door is a zero-amount challenge with its free equivalents', async () => {
    const r = await get('/api/free-door');
    assert.equal(r.statusCode, 402);
    const b = r.json();
    assert.equal(b.accepts[0].amount, '0');
    assert.equal(b.accepts[0].svc_pricing.pricing_basis, 'STANDARD');
    assert.ok(b.svc.why_402 && b.svc.free_equivalents.includes('http://localhost:8080/api/gspc'));
  });

  it('the evidence bundle previews for free without bundle=1, challenges with it, and lists known obligations for an unknown one', async () => {
    const preview = await get('/api/evidence-bundle?obligation=article-50');
    assert.equal(preview.statusCode, 200);
    assert.equal(preview.json().obligation.control_id, 'EU-AI-ACT-50');
    assert.equal((await get('/api/evidence-bundle?obligation=article-50&bundle=1')).statusCode, 402);
    const unknown = await get('/api/evidence-bundle?obligation=article-99&bundle=1');
    assert.equal(unknown.statusCode, 400);
    assert.deepEqual(unknown.json().known, ['article-50', 'article-53', 'dora', 'cra']);
  });

  it('the feed needs feed=1; its preview pins the regulation feed the signals come from', async () => {
    assert.equal((await get('/api/eunomia-data')).statusCode, 400);
    const r = await get('/api/eunomia-data?feed=1');
    assert.equal(r.statusCode, 402);
    const streams = r.json().svc.preview.streams;
    const regulation = state.current().release.corpus.status.regulation!;
    assert.equal(streams.signals.value.version, regulation.version);
    assert.equal(streams.root.value.merkle_root, state.current().release.evidence.root.merkle_root);
  });

  it('a payment or an invoice request on an unconfigured rail is 503 rail_unconfigured; an unreadable payment header is 400', async () => {
    const pay = await get(`/api/request-attestation?subject=${model}`, {
      'payment-signature': Buffer.from(
        JSON.stringify({
          x402Version: 2,
          accepted: {
            scheme: 'exact',
            network: 'eip155:8453',
            amount: '20000',
            asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
            payTo: '0x0000000000000000000000000000000000000000',
            maxTimeoutSeconds: 300,
            extra: {},
          },
          payload: {
            signature: '0x00',
            authorization: {
              from: `0x${'11'.repeat(20)}`,
              to: `0x${'00'.repeat(20)}`,
              value: '20000',
              validAfter: '0',
              validBefore: '1900000000',
              nonce: `0x${'22'.repeat(32)}`,
            },
          },
        }),
      ).toString('base64'),
    });
    assert.equal(pay.statusCode, 503);
    assert.equal(pay.json().code, 'rail_unconfigured');
    const invoice = await get('/api/evidence-bundle?obligation=dora&bundle=1&invoice=gbp&commissioned_by=Acme%20Ltd');
    assert.equal(invoice.statusCode, 503);
    const bad = await get(`/api/request-attestation?subject=${model}`, { 'x-payment': 'not base64!' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 'bad_payment');
    assert.equal((await get('/api/request-attestation')).statusCode, 400);
  });

  it('refuses to start with a configured rail but no ledger to record settlements', () => {
    const rail = readRailConfig({ GSPC_PAY_TO: `0x${'33'.repeat(20)}`, GSPC_FACILITATOR_URL: 'http://127.0.0.1:9' });
    assert.throws(
      () => buildApp({ state, logLevel: 'silent', baseUrl: 'http://x', now: () => new Date(), products: { rail } }),
      /needs a ledger/,
    );
  });
});
