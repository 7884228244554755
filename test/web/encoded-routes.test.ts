/**
 * One notion of the route (issue 38, finding 2): the rate limiter picked the class from the raw
 * URL while the router decoded it, so `POST /api/receipts/%76erify` and the absolute-form
 * `POST http://x/api/receipts/verify` were routed to the verification but counted as free reads
 * (3,000 a minute instead of 120). Every class must keep its budget whatever the spelling of the
 * target, and the request series must name the route, not the spelling.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import { ServiceMetrics } from '../../src/web/metrics.js';
import { demoApp } from '../helpers/app.js';

const BUDGETS = { free: 6, verify: 3, challenge: 3, paid: 3, invoice: 2 };

/** One client address per test (127.0.0.n), so each test counts in budgets of its own. */
let client = 10;

function send(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  localAddress = `127.0.0.${client}`,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = method === 'POST' ? '{}' : undefined;
    const req = request(
      {
        host: '127.0.0.1',
        localAddress,
        port,
        method,
        path: target,
        headers: { host: 'localhost', ...(body && { 'content-type': 'application/json' }), ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('every rate class keeps its budget whatever the spelling of the target (issue 38)', () => {
  let app: FastifyInstance;
  let port = 0;
  let metrics: ServiceMetrics;
  before(async () => {
    const { state } = demoApp();
    metrics = new ServiceMetrics(state);
    app = buildApp({
      state,
      logLevel: 'silent',
      products: { rail: readConfig({}).rail },
      rateLimits: BUDGETS,
      metrics,
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  after(() => app.close());

  const cases: { cls: keyof typeof BUDGETS; method: string; spellings: string[]; headers?: Record<string, string> }[] =
    [
      {
        cls: 'verify',
        method: 'POST',
        spellings: [
          '/api/receipts/verify',
          '/api/receipts/%76erify',
          'http://x/api/receipts/verify',
          '/api/%76erify',
          'HTTP://localhost/api/%76%65rify',
        ],
      },
      {
        cls: 'challenge',
        method: 'GET',
        spellings: [
          '/api/request-attestation',
          '/api/request-%61ttestation',
          'http://x/api/request-attestation',
          '/api/%65vidence-bundle',
        ],
      },
      {
        cls: 'invoice',
        method: 'GET',
        spellings: [
          '/api/evidence-bundle?invoice=gbp',
          '/api/%65vidence-bundle?invoice=gbp',
          'http://x/api/evidence-bundle?invoice=gbp',
        ],
      },
      {
        cls: 'paid',
        method: 'GET',
        spellings: ['/api/request-attestation', '/api/request-%61ttestation', 'http://x/api/request-attestation'],
        headers: { 'payment-signature': 'e30' },
      },
    ];

  for (const c of cases)
    it(`${c.cls}: ${BUDGETS[c.cls]} a minute, not one more, however the path is spelt`, async () => {
      client++;
      const statuses: number[] = [];
      for (let i = 0; i < BUDGETS[c.cls] + 3; i++)
        statuses.push(await send(port, c.method, c.spellings[i % c.spellings.length]!, c.headers));
      const limited = statuses.filter((s) => s === 429).length;
      assert.equal(limited, 3, `${c.cls}: ${statuses.join(' ')} for ${c.spellings.join(', ')}`);
    });

  it('free: the board spelt three ways is one budget, and one route in the request series', async () => {
    const spellings = ['/api/gspc', '/api/%67spc', 'http://x/api/gspc', '/api/gsp%63'];
    client++;
    const statuses: number[] = [];
    for (let i = 0; i < BUDGETS.free + 3; i++) statuses.push(await send(port, 'GET', spellings[i % spellings.length]!));
    assert.equal(statuses.filter((s) => s === 429).length, 3, statuses.join(' '));
    assert.equal(statuses.filter((s) => s === 200).length, BUDGETS.free, statuses.join(' '));
    const text = await (await app.inject({ url: '/metrics' })).body;
    assert.doesNotMatch(text, /route="[^"]*%/, 'no spelling of a route is a series of its own');
    assert.doesNotMatch(text, /route="http/);
  });

  it('an injected request (no server in front) is classed by the route it matched', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < BUDGETS.verify + 3; i++)
      statuses.push(
        (
          await app.inject({
            method: 'POST',
            url: i % 2 === 0 ? '/api/receipts/%76erify' : '/api/receipts/verify',
            remoteAddress: '127.0.0.99',
            payload: {},
          })
        ).statusCode,
      );
    assert.equal(statuses.filter((s) => s === 429).length, 3, statuses.join(' '));
  });
});
