/**
 * `/mcp` at the HTTP level (issue 6), with plain `fetch` and no MCP client: public (no 403,
 * CORS), both eras' raw requests, GET and DELETE, bounded and malformed bodies answered as
 * JSON-RPC errors, and what the capability fabric's `mcp-tools` probe observes.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { ServedState } from '../../src/serve/served-state.js';
import { readRailConfig } from '../../src/config.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { probeRail } from '../../src/status/fabric-probe.js';
import { railById, type RailDefinition } from '../../src/core/fabric/rails.js';
import { railObservation } from '../../src/core/fabric/rail-state.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

const signing = testSigning();
const { dir } = publishRelease(demoCorpus, tempDir(), signing.inputs);
const app = buildApp({
  state: new ServedState(loadRelease(dir), liveSigning(signing)),
  logLevel: 'silent',
  baseUrl: 'http://localhost:8080',
  now: () => new Date(),
  products: { rail: readRailConfig({}) },
});
let origin = '';
before(async () => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
after(() => app.close());

const BOTH = 'application/json, text/event-stream';
const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
// The per-request envelope of MCP 2026-07-28 (what the v2 client sends when it negotiates that era).
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const MODERN = { 'content-type': 'application/json', accept: BOTH, 'mcp-protocol-version': '2026-07-28' };

const post = (body: unknown, headers: Record<string, string>) =>
  fetch(`${origin}/mcp`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

/** The JSON-RPC messages of an SSE body (`data:` lines). */
const sseMessages = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);

async function jsonRpcError(r: Response, status: number, code: number, message: RegExp) {
  assert.equal(r.status, status);
  assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
  const body = (await r.json()) as { jsonrpc: string; error: { code: number; message: string }; id: unknown };
  assert.equal(body.jsonrpc, '2.0');
  assert.equal(body.error.code, code);
  assert.match(body.error.message, message);
}

describe('/mcp over plain HTTP', () => {
  it('a raw 2025-era tools/list with the right Accept header is answered (no session, CORS open): SSE with the 17 tools', async () => {
    const r = await post(LIST, { 'content-type': 'application/json', accept: BOTH });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    assert.equal(r.headers.get('mcp-session-id'), null);
    assert.match(r.headers.get('content-type') ?? '', /^text\/event-stream/);
    const [msg] = sseMessages(await r.text());
    assert.equal((msg!.result as { tools: unknown[] }).tools.length, 17);
  });

  it('DNS-rebinding protection: a foreign Origin is a 403 JSON-RPC error; no Origin, the public or a loopback one is served', async () => {
    const headers = { 'content-type': 'application/json', accept: BOTH };
    const foreign = await post(LIST, { ...headers, origin: 'https://agent.example' });
    assert.equal(foreign.status, 403);
    const body = (await foreign.json()) as { jsonrpc: string; error: { code: number; message: string } };
    assert.equal(body.error.code, -32000);
    assert.match(body.error.message, /^Forbidden: the Origin https:\/\/agent\.example is not this service's/);
    for (const origin of [undefined, 'http://localhost:8080', 'http://127.0.0.1:5173', 'http://[::1]:3000'])
      assert.equal((await post(LIST, { ...headers, ...(origin && { origin }) })).status, 200, String(origin));
    assert.equal((await post(LIST, { ...headers, origin: 'null' })).status, 403);
  });

  it('a raw 2026-07-28 tools/list and tools/call are answered as plain JSON', async () => {
    const list = await post({ ...LIST, params: { _meta: ENVELOPE } }, { ...MODERN, 'mcp-method': 'tools/list' });
    assert.equal(list.status, 200);
    assert.match(list.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(list.headers.get('access-control-allow-origin'), '*');
    assert.equal(((await list.json()) as { result: { tools: unknown[] } }).result.tools.length, 17);
    const call = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'gspc_board', arguments: {}, _meta: ENVELOPE } },
      { ...MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'gspc_board' },
    );
    assert.equal(call.status, 200);
    const result = ((await call.json()) as { result: { structuredContent: unknown } }).result;
    assert.deepEqual(result.structuredContent, await (await fetch(`${origin}/api/gspc`)).json());
  });

  it('GET and DELETE are 405 with a JSON-RPC error (no standalone stream, no session), in both eras', async () => {
    for (const method of ['GET', 'DELETE']) {
      for (const headers of [{ accept: BOTH }, { accept: BOTH, 'mcp-protocol-version': '2026-07-28' }]) {
        const r = await fetch(`${origin}/mcp`, { method, headers });
        assert.equal(r.headers.get('allow'), 'POST');
        assert.equal(r.headers.get('access-control-allow-origin'), '*');
        await jsonRpcError(r, 405, -32000, /^Method not allowed/);
      }
    }
  });

  it('bodies are bounded (256 KiB, issue 38) and malformed ones are JSON-RPC errors', async () => {
    const big = JSON.stringify({ ...LIST, params: { pad: 'x'.repeat(256 * 1024) } });
    await jsonRpcError(
      await post(big, { 'content-type': 'application/json', accept: BOTH }),
      413,
      -32000,
      /^Payload Too Large: Request body must not exceed 262144 bytes/,
    );
    const under = JSON.stringify({ ...LIST, params: { pad: 'x'.repeat(200 * 1024) } });
    assert.notEqual((await post(under, { 'content-type': 'application/json', accept: BOTH })).status, 413);
    await jsonRpcError(
      await post('{"jsonrpc": "2.0", "id": 1,', { 'content-type': 'application/json', accept: BOTH }),
      400,
      -32700,
      /^Parse error/,
    );
    await jsonRpcError(
      await post('', { 'content-type': 'application/json', accept: BOTH }),
      400,
      -32700,
      /^Parse error/,
    );
    await jsonRpcError(
      await post(JSON.stringify(LIST), { 'content-type': 'text/plain', accept: BOTH }),
      415,
      -32000,
      /^Unsupported Media Type/,
    );
    await jsonRpcError(
      await post(JSON.stringify(LIST), { 'content-type': 'application/xml', accept: BOTH }),
      415,
      -32000,
      /^Unsupported Media Type/,
    );
    // The SDK's own rule for the 2025 era: the client must accept both JSON and SSE.
    await jsonRpcError(
      await post(LIST, { 'content-type': 'application/json', accept: 'application/json' }),
      406,
      -32000,
      /^Not Acceptable/,
    );
  });

  it('answers the CORS preflight of a browser client', async () => {
    const r = await fetch(`${origin}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://reader.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version',
      },
    });
    assert.equal(r.status, 204);
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    assert.match(r.headers.get('access-control-allow-headers') ?? '', /mcp-protocol-version/);
  });

  it("the fabric's mcp-tools probe (tools/list in the 2026-07-28 form) gets JSON with the tools: RUNTIME_OBSERVED", async () => {
    const def = railById('mcp-tools')!;
    const o = {
      origin,
      timeoutMs: 3500,
      fetch: (u: string | URL, i?: RequestInit) => fetch(u, i),
      now: () => new Date(),
    };
    const outcome = await probeRail(def, o);
    assert.equal(outcome.kind, 'answered');
    if (outcome.kind !== 'answered') return;
    assert.equal(outcome.status, 200);
    assert.match(outcome.content_type, /^application\/json/);
    const seen = railObservation(def, outcome);
    assert.equal(seen.state, 'RUNTIME_OBSERVED', seen.last_error ?? '');
    // The same request in the 2025 era is answered as SSE, which the probe does not read.
    const legacy: RailDefinition = {
      ...def,
      probe: {
        ...def.probe!,
        headers: { 'content-type': 'application/json', accept: BOTH, 'mcp-protocol-version': '2025-06-18' },
        body: LIST,
      },
    };
    const old = railObservation(legacy, await probeRail(legacy, o));
    assert.deepEqual([old.state, old.last_error], ['UNCHECKABLE', 'output requirement not met: the body is not JSON']);
  });
});

describe('/mcp subscriptions/listen (2026-07-28)', () => {
  it("is acknowledged over SSE, and an open stream does not hold up the app's shutdown", async () => {
    const own = buildApp({ state: new ServedState(loadRelease(dir), liveSigning(signing)), logLevel: 'silent' });
    await own.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(own.server.address() as AddressInfo).port}/mcp`;
    const r = await fetch(url, {
      method: 'POST',
      headers: { ...MODERN, 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'subscriptions/listen',
        params: { _meta: ENVELOPE, notifications: { toolsListChanged: true } },
      }),
    });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/event-stream/);
    const reader = r.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    assert.equal(sseMessages(first)[0]!.method, 'notifications/subscriptions/acknowledged');
    const closing = own.close();
    const outcome = await Promise.race([
      closing.then(() => 'closed'),
      new Promise((r) => setTimeout(r, 5000, 'still open after 5 s')),
    ]);
    if (outcome !== 'closed') await reader.cancel();
    await closing;
    assert.equal(outcome, 'closed');
    await assert.rejects(async () => {
      while (!(await reader.read()).done);
    }, 'the stream is cut at shutdown');
  });
});
