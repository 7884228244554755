import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GspcError } from '../../src/core/errors.js';
import { SPEC_PROMO_WINDOW } from '../../src/core/pricing/price.js';
import { readRailConfig } from '../../src/config.js';
import { BASE_USDC } from '../../src/payments/rail-config.js';

const invalid = (name: string) => (e: unknown) =>
  e instanceof GspcError && e.code === 'config_invalid' && e.message.includes(`${name}:`);

describe('rail configuration', () => {
  it('defaults: unconfigured payee and facilitator, Base USDC ("USD Coin" v2), the specification promo window', () => {
    const r = readRailConfig({});
    assert.equal(r.payTo, null);
    assert.equal(r.facilitatorUrl, null);
    assert.equal(r.network, 'eip155:8453');
    assert.equal(r.asset, BASE_USDC);
    assert.equal(r.assetName, 'USD Coin');
    assert.deepEqual(r.promo, SPEC_PROMO_WINDOW);
    assert.deepEqual(r.selfPayers, []);
  });

  it('reads a configured rail; the payee is always a self payer', () => {
    const r = readRailConfig({
      GSPC_PAY_TO: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      GSPC_FACILITATOR_URL: 'http://127.0.0.1:9000/',
      GSPC_PROMO: 'none',
      GSPC_SELF_PAYERS: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    });
    assert.equal(r.facilitatorUrl, 'http://127.0.0.1:9000');
    assert.equal(r.promo, null);
    assert.deepEqual(r.selfPayers, [
      '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
    ]);
    assert.deepEqual(readRailConfig({ GSPC_PROMO: 'spring, 2027-03-01T00:00:00Z, 2027-04-01T00:00:00Z' }).promo, {
      campaign_id: 'spring',
      starts_at: '2027-03-01T00:00:00Z',
      ends_at: '2027-04-01T00:00:00Z',
    });
  });

  it('refuses bad values at start with config_invalid naming the variable', () => {
    assert.throws(() => readRailConfig({ GSPC_PAY_TO: '0x123' }), invalid('GSPC_PAY_TO'));
    assert.throws(() => readRailConfig({ GSPC_FACILITATOR_URL: 'ftp://x' }), invalid('GSPC_FACILITATOR_URL'));
    assert.throws(() => readRailConfig({ GSPC_NETWORK: 'base' }), invalid('GSPC_NETWORK'));
    assert.throws(() => readRailConfig({ GSPC_ASSET: 'usdc' }), invalid('GSPC_ASSET'));
    assert.throws(
      () => readRailConfig({ GSPC_PROMO: 'x,2027-04-01T00:00:00Z,2027-03-01T00:00:00Z' }),
      invalid('GSPC_PROMO'),
    );
    assert.throws(() => readRailConfig({ GSPC_SELF_PAYERS: 'me' }), invalid('GSPC_SELF_PAYERS'));
  });
});
