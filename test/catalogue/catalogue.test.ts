/** The product catalogue, GET /api/x402: the four products at the specification's prices, from the live release. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { catalogueMaxAge } from '../../src/payments/catalogue.js';
import { readRailConfig } from '../../src/config.js';
import { SPEC_PROMO_WINDOW } from '../../src/core/pricing/price.js';
import { demoApp } from '../helpers/app.js';

const BASE = 'http://localhost:8080';
const { state } = demoApp();
function appAt(now: string, env = {}) {
  const app = buildApp({
    state,
    logLevel: 'silent',
    baseUrl: BASE,
    now: () => new Date(now),
    products: { rail: readRailConfig(env) },
  });
  after(() => app.close());
  return app;
}
const catalogue = async (now: string, env = {}) => {
  const r = await appAt(now, env).inject({ method: 'GET', url: '/api/x402' });
  assert.equal(r.statusCode, 200);
  return { r, body: r.json() };
};
type Entry = Record<string, any>;
const byPath = (body: { products: Entry[] }) => Object.fromEntries(body.products.map((p) => [p.path, p]));

describe('GET /api/x402', () => {
  it('lists the four products with the promo amounts inside the window', async () => {
    const { r, body } = await catalogue('2026-09-20T12:00:00Z');
    assert.equal(body.schema, 'svc.x402-catalogue/0.1');
    assert.equal(body.x402Version, 2);
    assert.equal(body.as_of, '2026-09-20T12:00:00.000Z');
    assert.equal(r.headers['access-control-allow-origin'], '*');
    assert.equal(r.headers['cache-control'], 'public, max-age=300');
    const p = byPath(body);
    assert.deepEqual(Object.keys(p), [
      '/api/free-door',
      '/api/request-attestation',
      '/api/evidence-bundle',
      '/api/eunomia-data',
    ]);
    const expected: Record<string, [string, string, string, string]> = {
      '/api/free-door': ['gspc.free_door', 'STANDARD', '0', '0'],
      '/api/request-attestation': ['gspc.request_attestation', 'PROMO_EXISTING_DATA', '10000', '20000'],
      '/api/evidence-bundle': ['gspc.evidence_bundle', 'PROMO_EXISTING_DATA', '10000', '250000000'],
      '/api/eunomia-data': ['gspc.issuance', 'PROMO_EXISTING_DATA', '10000', '20000'],
    };
    for (const [path, [id, basis, offered, normal]] of Object.entries(expected)) {
      const e = p[path]!;
      assert.equal(e.product_id, id);
      assert.equal(e.method, 'GET');
      assert.equal(e.pricing.pricing_basis, basis, path);
      assert.equal(e.pricing.offered_amount_atomic, offered, path);
      assert.equal(e.pricing.normal_amount_atomic, normal, path);
      assert.ok(e.never.includes('certificate'));
    }
    assert.equal(p['/api/request-attestation']!.pricing.offered, '0.010000 USDC');
    assert.equal(p['/api/evidence-bundle']!.pricing.normal, '250.000000 USDC');
    assert.equal(p['/api/free-door']!.pricing.promo, null);
    assert.deepEqual(p['/api/eunomia-data']!.pricing.promo, {
      ...SPEC_PROMO_WINDOW,
      amount_atomic: '10000',
      amount: '0.010000 USDC',
      active: true,
    });
    assert.equal(p['/api/eunomia-data']!.sku_id, 'issuance');
  });

  it('charges the normal amounts outside the window, and is never cached past a promo boundary', async () => {
    const { body } = await catalogue('2026-11-21T00:00:00Z');
    const p = byPath(body);
    assert.equal(p['/api/evidence-bundle']!.pricing.pricing_basis, 'STANDARD');
    assert.equal(p['/api/evidence-bundle']!.pricing.offered_amount_atomic, '250000000');
    assert.equal(p['/api/evidence-bundle']!.pricing.promo.active, false);
    const { r } = await catalogue('2026-10-10T23:58:00Z');
    assert.equal(r.headers['cache-control'], 'public, max-age=120');
    assert.equal(catalogueMaxAge(new Date('2026-09-10T23:59:59Z'), SPEC_PROMO_WINDOW), 1);
    assert.equal(catalogueMaxAge(new Date('2026-09-10T23:59:59Z'), null), 300);
  });

  it('describes each query as JSON Schema 2020-12 and gives example requests from the live release', async () => {
    const { body } = await catalogue('2026-09-20T12:00:00Z');
    const p = byPath(body);
    const ra = p['/api/request-attestation']!;
    assert.equal(ra.query.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.deepEqual(ra.query.required, ['subject']);
    const url = new URL(ra.example_request);
    const subject = url.searchParams.get('subject')!;
    assert.ok(
      [...state.current().release.evidence.cards.values()].some((c) => c.subject === subject && c.sig_ed25519 !== null),
    );
    const eb = p['/api/evidence-bundle']!;
    assert.deepEqual(
      eb.example_requests.map((u: string) => new URL(u).searchParams.get('obligation')),
      ['article-50', 'article-53', 'dora', 'cra'],
    );
    assert.match(eb.invoice.how, /invoice=gbp&commissioned_by=/);
    assert.equal(eb.invoice.available, false);
    assert.equal(p['/api/eunomia-data']!.example_request, `${BASE}/api/eunomia-data?feed=1`);
    assert.ok(p['/api/free-door']!.free_equivalents.includes(`${BASE}/root.json`));
    assert.equal(body.verify.offers_and_receipts.url, `${BASE}/api/receipts/verify`);
    assert.equal(body.verify.cards.url, `${BASE}/api/verify`);
  });

  it('states the rail as configured: an unconfigured one has no payee; a payee is published, the facilitator URL never', async () => {
    const { body } = await catalogue('2026-09-20T12:00:00Z');
    assert.deepEqual(
      {
        network: body.rail.network,
        asset: body.rail.asset,
        decimals: body.rail.decimals,
        symbol: body.rail.symbol,
        pay_to: body.rail.pay_to,
        mode: body.rail.mode,
      },
      {
        network: 'eip155:8453',
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        decimals: 6,
        symbol: 'USDC',
        pay_to: null,
        mode: 'live',
      },
    );
    assert.equal(body.rail.pay_to_configured, false);
    assert.equal(body.rail.facilitator_configured, false);
    assert.equal(body.signer.offers_signed, false);
    const payTo = `0x${'ab'.repeat(20)}`;
    const { body: withPayee } = await catalogue('2026-09-20T12:00:00Z', { GSPC_PAY_TO: payTo });
    assert.equal(withPayee.rail.pay_to, payTo);
    assert.equal(withPayee.signer.offers_signed, true);
  });

  it('a query string is a 400, not ignored', async () => {
    const r = await appAt('2026-09-20T12:00:00Z').inject({ method: 'GET', url: '/api/x402?x=1' });
    assert.equal(r.statusCode, 400);
    assert.equal(r.json().code, 'bad_query');
  });
});
