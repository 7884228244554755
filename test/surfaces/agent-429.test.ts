/**
 * Over budget on the JSON-RPC surfaces (issue 38, finding 6): `/mcp` and `/api/a2a` answered a
 * request over its budget with HTTP 500 and `-32603 Internal error`, logging a stack trace each
 * (56,039 in 5 s wrote 33 MB of log and fired the server-error alert), where AG-UI answered 429.
 * Now each answers 429 with `Retry-After` and a JSON-RPC error body naming the budget.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { demoApp } from '../helpers/app.js';

const BUDGET = 2;

describe('over budget on /mcp and /api/a2a: 429 with a JSON-RPC error (issue 38)', () => {
  const { state } = demoApp();
  const app = buildApp({
    state,
    logLevel: 'silent',
    rateLimits: { free: BUDGET, verify: 0, challenge: 0, paid: 0 },
  });
  after(() => app.close());

  const bodies = {
    '/mcp': { jsonrpc: '2.0', id: 7, method: 'ping' },
    '/api/a2a': { jsonrpc: '2.0', id: 7, method: 'GetTask', params: { id: 'none' } },
  } as const;
  for (const [url, payload] of Object.entries(bodies))
    it(`${url}: the request over the budget is 429, a JSON-RPC error with the budget, no 500`, async () => {
      const statuses: number[] = [];
      let last: { statusCode: number; headers: Record<string, unknown>; body: string } | undefined;
      for (let i = 0; i < BUDGET + 2; i++) {
        const r = await app.inject({
          method: 'POST',
          url,
          remoteAddress: url === '/mcp' ? '10.0.0.1' : '10.0.0.2',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          payload,
        });
        statuses.push(r.statusCode);
        last = r;
      }
      assert.ok(!statuses.includes(500), statuses.join(' '));
      assert.deepEqual(statuses.slice(BUDGET), [429, 429], statuses.join(' '));
      assert.ok(Number(last!.headers['retry-after']) > 0, 'Retry-After');
      const body = JSON.parse(last!.body) as {
        jsonrpc: string;
        id: unknown;
        error: { code: number; message: string; data: { code: string; class: string; limit: number } };
      };
      assert.equal(body.jsonrpc, '2.0');
      assert.equal(body.error.code, -32000);
      assert.match(body.error.message, /too many free requests/);
      assert.deepEqual(
        { code: body.error.data.code, class: body.error.data.class, limit: body.error.data.limit },
        { code: 'rate_limited', class: 'free', limit: BUDGET },
      );
      assert.doesNotMatch(last!.body, /at .*\.js:\d+/, 'no stack trace');
    });
});
