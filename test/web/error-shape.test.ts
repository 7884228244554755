/**
 * One error shape, one vocabulary (issue 28, item 4), and no body a library could choke on
 * (item 2). Every route of the app, with the products' rail, gets malformed requests of every
 * kind: a body nested 5,000 deep, JSON that does not parse, an empty JSON body, a content type
 * no route reads, a body over the limit, a malformed %-escape, an over-long path segment; then
 * fast-check draws random mixes of them. Every answer is a 4xx (never a 5xx), JSON, and either
 * the documented error body (a snake_case code listed in docs/errors.md, never a framework's
 * FST_ERR_…) or, on the JSON-RPC routes (/mcp, /api/a2a), a JSON-RPC error. What node's HTTP
 * parser refuses before Fastify (a path without its leading slash) is checked on a real socket.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { readRailConfig } from '../../src/config.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { ServedState } from '../../src/serve/served-state.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { repoRoot } from '../helpers/repo.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

const RPC = new Set(['/mcp', '/api/a2a']);
const DEEP = `${'['.repeat(5000)}${']'.repeat(5000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;

/** Every code docs/errors.md documents (the first column of its tables). */
const documented = new Set(
  [...readFileSync(join(repoRoot, 'docs', 'errors.md'), 'utf8').matchAll(/^\| `([a-z_]+)`/gm)].map((m) => m[1]!),
);

let app: FastifyInstance;
let routes: { path: string; method: string }[];

before(async () => {
  const signing = testSigning();
  const { dir } = publishRelease(demoCorpus, tempDir(), signing.inputs);
  const state = new ServedState(loadRelease(dir), liveSigning(signing));
  // The products' routes with an unconfigured rail: challenges and previews, no ledger needed.
  app = buildApp({ state, logLevel: 'silent', products: { rail: readRailConfig({}) } });
  const doc = (await app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
  routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => m !== 'options')
      .map((method) => ({ path: path.replace(/\{[^}]+\}/g, 'x'), method: method.toUpperCase() })),
  );
});
after(() => app?.close());

/**
 * A 4xx in the documented shape. On the JSON-RPC routes, a JSON-RPC error: A2A answers its
 * errors with HTTP 200, as its SDK does (docs/errors.md), unless `rpc200` is false (a body too
 * deep is refused with a 4xx everywhere).
 */
function assertShape(
  what: string,
  path: string,
  r: { statusCode: number; body: string; headers: Record<string, unknown> },
  rpc200 = true,
) {
  const body = JSON.parse(r.body) as { code?: unknown; error?: unknown; jsonrpc?: unknown };
  const rpcError = RPC.has(path) && body.jsonrpc === '2.0';
  const ok = (r.statusCode >= 400 && r.statusCode < 500) || (rpc200 && rpcError && r.statusCode === 200);
  assert.ok(ok, `${what} ${path}: ${r.statusCode} ${r.body.slice(0, 200)}`);
  if (rpcError) {
    assert.equal(typeof (body.error as { code?: unknown }).code, 'number', `${what} ${path}: ${r.body}`);
    return;
  }
  assert.equal(typeof body.error, 'string', `${what} ${path}: ${r.body}`);
  assert.match(String(body.code), /^[a-z][a-z0-9_]*$/, `${what} ${path}: ${r.body}`);
  assert.ok(documented.has(String(body.code)), `${what} ${path}: code ${String(body.code)} is not in docs/errors.md`);
  assert.equal(r.headers['access-control-allow-origin'], '*', `${what} ${path}`);
}

/** The methods that carry a body; a GET route is sent the same body as a POST (it has none). */
const bodyMethod = (method: string) => (method === 'GET' || method === 'DELETE' ? 'POST' : method);

describe('every route answers malformed requests with the one error shape', () => {
  it('a body nested 5,000 deep (arrays or objects) is a 4xx on every route, before any library reads it', async () => {
    for (const { path, method } of routes)
      for (const payload of [DEEP, DEEP_OBJECT]) {
        const r = await app.inject({
          method: bodyMethod(method) as 'POST',
          url: path,
          payload,
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        });
        assertShape('5,000 deep', path, r, false);
      }
  });

  it('JSON that does not parse, an empty JSON body, a foreign content type, a body over the limit', async () => {
    const cases: { what: string; payload: string; type: string }[] = [
      { what: 'not JSON', payload: '{"a": ', type: 'application/json' },
      { what: 'empty JSON', payload: '', type: 'application/json' },
      { what: 'XML', payload: '<a/>', type: 'application/xml' },
      { what: 'over 16 MiB', payload: `"${'x'.repeat(17 * 1024 * 1024)}"`, type: 'application/json' },
    ];
    for (const { path, method } of routes.filter((r) => r.method === 'POST'))
      for (const c of cases) {
        const r = await app.inject({
          method: 'POST',
          url: path,
          payload: c.payload,
          headers: { 'content-type': c.type, accept: 'application/json, text/event-stream' },
        });
        assertShape(`${c.what} (${method})`, path, r);
        assert.doesNotMatch(r.body, /FST_ERR/, `${c.what} ${path}`);
      }
  });

  it('a malformed %-escape and an over-long path segment are bad_url', async () => {
    for (const url of ['/%zz', '/cards/%E0%A4%A.json', `/cards/${'a'.repeat(300)}.json`]) {
      const r = await app.inject({ url });
      assertShape('bad URL', url, r);
      assert.equal(JSON.parse(r.body).code, 'bad_url', url);
    }
  });

  it('random malformed requests (fast-check): never a 5xx, never a framework code, always the documented shape', async () => {
    const junk = fc.oneof(
      fc.constant(DEEP),
      fc.string({ maxLength: 40 }),
      fc.json({ depthSize: 'small' }).map((j) => j.slice(0, -1)),
      fc.constantFrom('', 'null', '[]', '{"jsonrpc":"2.0"}', '{"__proto__":{"x":1}}'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        junk,
        fc.constantFrom('application/json', 'text/xml', 'application/x-www-form-urlencoded', 'multipart/form-data'),
        async (route, payload, type) => {
          const r = await app.inject({
            method: bodyMethod(route.method) as 'POST',
            url: route.path,
            payload,
            headers: { 'content-type': type, accept: 'application/json, text/event-stream' },
          });
          assert.ok(r.statusCode < 500, `${route.path} ${type} ${payload.slice(0, 60)}: ${r.statusCode} ${r.body}`);
          assert.doesNotMatch(r.body, /FST_ERR/);
          if (r.statusCode >= 400) assertShape(`${type}`, route.path, r);
        },
      ),
      { numRuns: 300, seed: 28 },
    );
  });

  it('a request line node cannot read (a path without its leading slash) gets the JSON shape on the socket', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    for (const line of ['GET abc HTTP/1.1', 'GET /%zz HTTP/1.1', 'BREW / HTTP/1.1']) {
      const raw = await new Promise<string>((resolve, reject) => {
        const s = connect(port, '127.0.0.1', () => s.end(`${line}\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
        let out = '';
        s.on('data', (d) => {
          out += d.toString('utf8');
        });
        s.on('end', () => resolve(out));
        s.on('error', reject);
      });
      const [head, body] = raw.split('\r\n\r\n');
      assert.match(head!, /^HTTP\/1\.1 4\d\d /, `${line}: ${raw.slice(0, 200)}`);
      const parsed = JSON.parse(body!) as { code: string; error: string };
      assert.ok(documented.has(parsed.code), `${line}: ${body}`);
      assert.equal(typeof parsed.error, 'string');
    }
  });
});
