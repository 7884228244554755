/**
 * The operating variables of issue 18 read once by the one schema: rate limits, trusted proxies,
 * metrics and the drain timeout, with their defaults and a clear refusal for a wrong value.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readConfig } from '../../src/config.js';
import { GspcError } from '../../src/core/errors.js';

const refused = (env: Record<string, string>, message: RegExp) =>
  assert.throws(
    () => readConfig(env),
    (e: unknown) => e instanceof GspcError && e.code === 'config_invalid' && message.test(e.message),
  );

describe('operating configuration', () => {
  it('defaults: metrics on, the documented budgets, no trusted proxy, a 30 s drain', () => {
    const c = readConfig({});
    assert.equal(c.metrics, true);
    assert.deepEqual(c.rateLimits, {
      free: 3000,
      verify: 120,
      challenge: 600,
      paid: 600,
      invoice: 10,
      invoice_hour: 60,
    });
    assert.deepEqual(c.trustProxy, []);
    assert.equal(c.drainTimeoutMs, 30_000);
  });

  it('connections (issue 38): 64 per client, 10 s for headers, 30 s for a request, 5 s kept alive; each can be changed', () => {
    const c = readConfig({}).connections;
    assert.equal(c.maxPerClient, 64);
    assert.equal(c.headersTimeoutMs, 10_000);
    assert.equal(c.requestTimeoutMs, 30_000);
    assert.equal(c.keepAliveTimeoutMs, 5_000);
    assert.ok(c.max >= 64 && c.max <= 10_000, String(c.max));
    const set = readConfig({
      GSPC_MAX_CONNECTIONS_PER_CLIENT: '0',
      GSPC_MAX_CONNECTIONS: '500',
      GSPC_HEADERS_TIMEOUT_MS: '40000',
      GSPC_REQUEST_TIMEOUT_MS: '20000',
      GSPC_KEEP_ALIVE_TIMEOUT_MS: '1000',
    }).connections;
    // A request is never given less time than its headers.
    assert.deepEqual(set, {
      maxPerClient: 0,
      max: 500,
      headersTimeoutMs: 40_000,
      requestTimeoutMs: 40_000,
      keepAliveTimeoutMs: 1_000,
    });
    refused({ GSPC_HEADERS_TIMEOUT_MS: '10' }, /GSPC_HEADERS_TIMEOUT_MS/);
  });

  it('reads budgets by class (the rest keep their defaults), off, and proxies as addresses or CIDRs', () => {
    assert.deepEqual(readConfig({ GSPC_RATE_LIMITS: 'verify=30, paid=0' }).rateLimits, {
      free: 3000,
      verify: 30,
      challenge: 600,
      paid: 0,
      invoice: 10,
      invoice_hour: 60,
    });
    assert.deepEqual(readConfig({ GSPC_RATE_LIMITS: 'invoice=3' }).rateLimits.invoice, 3);
    assert.deepEqual(readConfig({ GSPC_RATE_LIMITS: 'off' }).rateLimits, {
      free: 0,
      verify: 0,
      challenge: 0,
      paid: 0,
      invoice: 0,
      invoice_hour: 0,
    });
    assert.deepEqual(readConfig({ GSPC_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).trustProxy, [
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
    ]);
    assert.equal(readConfig({ GSPC_METRICS: '0' }).metrics, false);
  });

  it('refuses a wrong value with the variable and what to give, never a stack trace later', () => {
    refused({ GSPC_RATE_LIMITS: 'foo=1' }, /GSPC_RATE_LIMITS: 'foo=1': give class=requests-per-minute pairs/);
    refused({ GSPC_TRUST_PROXY: 'not-an-ip' }, /GSPC_TRUST_PROXY: 'not-an-ip': give IP addresses or CIDR ranges/);
    refused({ GSPC_TRUST_PROXY: '10.0.0.0/33' }, /GSPC_TRUST_PROXY: '10.0.0.0\/33'/);
    refused({ GSPC_METRICS: 'yes' }, /GSPC_METRICS/);
  });
});
