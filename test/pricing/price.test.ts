import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatUsdc, priceAt, SPEC_PROMO_WINDOW } from '../../src/core/pricing/price.js';
import { PRODUCTS, productByKey } from '../../src/core/pricing/products.js';

describe('pricing', () => {
  it('has the four products of the specification with their atomic prices', () => {
    const table = PRODUCTS.map((p) => [p.path, p.normalAtomic, p.promoAtomic]);
    assert.deepEqual(table, [
      ['/api/free-door', 0n, 0n],
      ['/api/request-attestation', 20_000n, 10_000n],
      ['/api/evidence-bundle', 250_000_000n, 10_000n],
      ['/api/eunomia-data', 20_000n, 10_000n],
    ]);
    assert.equal(productByKey('eunomia_data').sku_id, 'issuance');
  });

  it('switches to PROMO_EXISTING_DATA only inside the window (start inclusive, end exclusive)', () => {
    const p = productByKey('request_attestation');
    const at = (iso: string) => priceAt(p, new Date(iso), SPEC_PROMO_WINDOW);
    assert.equal(at('2026-09-10T23:59:59.999Z').pricing_basis, 'STANDARD');
    const inside = at('2026-09-11T00:00:00Z');
    assert.deepEqual(inside, {
      product_id: 'gspc.request_attestation',
      sku_id: 'request_attestation',
      pricing_basis: 'PROMO_EXISTING_DATA',
      campaign_id: SPEC_PROMO_WINDOW.campaign_id,
      normal_amount_atomic: '20000',
      offered_amount_atomic: '10000',
      starts_at: '2026-09-11T00:00:00Z',
      ends_at: '2026-10-11T00:00:00Z',
      fresh_compute_excluded: true,
    });
    const after = at('2026-10-11T00:00:00Z');
    assert.equal(after.pricing_basis, 'STANDARD');
    assert.equal(after.offered_amount_atomic, '20000');
    assert.equal(after.campaign_id, null);
    assert.equal('starts_at' in after, false);
    assert.equal(priceAt(p, new Date('2026-09-20T00:00:00Z'), null).pricing_basis, 'STANDARD');
  });

  it('the free door is STANDARD and 0 even inside the window', () => {
    const free = priceAt(productByKey('free_door'), new Date('2026-09-20T00:00:00Z'), SPEC_PROMO_WINDOW);
    assert.equal(free.pricing_basis, 'STANDARD');
    assert.equal(free.offered_amount_atomic, '0');
  });

  it('formats atomic amounts exactly', () => {
    assert.equal(formatUsdc(250_000_000n), '250.000000 USDC');
    assert.equal(formatUsdc('10000'), '0.010000 USDC');
    assert.equal(formatUsdc(0n), '0.000000 USDC');
  });
});
