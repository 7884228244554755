/**
 * The prepared documents' fast path (src/web/fast-path.ts, decision O6): a plain GET of a
 * per-release prepared document is answered before Fastify with exactly what Fastify answered
 * for it, and everything else still reaches Fastify. Over real HTTP on 127.0.0.1; an `onRequest`
 * hook added by the test counts the requests Fastify saw, so each test knows which path answered.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { documentRegistry } from '../../src/serve/documents/registry.js';
import type { Prepared } from '../../src/serve/prepared-bytes.js';
import { PreparedFastPath } from '../../src/web/fast-path.js';
import { ServiceMetrics } from '../../src/web/metrics.js';
import { demoApp } from '../helpers/app.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

const demo = demoApp();

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One GET over HTTP; `date` (the second it was sent) left out of the headers compared. */
function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const { date: _date, ...rest } = res.headers;
        resolve({
          status: res.statusCode!,
          headers: Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)])),
          body: Buffer.concat(chunks),
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The app over the demo release, listening, with a count of the requests Fastify itself saw. */
async function serve(
  o: Partial<AppOptions> = {},
): Promise<{ app: FastifyInstance; port: number; fastify: () => number }> {
  const app = buildApp({ state: demo.state, logLevel: 'silent', ...o });
  let seen = 0;
  app.addHook('onRequest', (_req, _reply, done) => {
    seen++;
    done();
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  after(() => app.close());
  return { app, port: (app.server.address() as AddressInfo).port, fastify: () => seen };
}

/** Every path of a per-release document of the demo release, without a query. */
const perReleasePaths = documentRegistry({ products: false, extra: [] })
  .filter((e) => e.cache.kind === 'release')
  .flatMap((e) => e.paths(demo.state.current()))
  .filter((p) => !p.includes('?'));

describe('the prepared documents fast path', () => {
  it('answers every per-release prepared document exactly as Fastify does (status, headers, bytes)', async () => {
    assert.ok(perReleasePaths.length > 50, `the demo has many per-release documents (${perReleasePaths.length})`);
    assert.ok(perReleasePaths.includes('/api/gspc') && perReleasePaths.some((p) => p.endsWith('.proof.json')));
    const fast = await serve();
    const slow = await serve({ fastPath: false });
    for (const path of perReleasePaths) {
      const reference = await get(slow.port, path);
      assert.equal(reference.status, 200, path);
      const first = await get(fast.port, path); // through Fastify, recorded
      const seen = fast.fastify();
      const replayed = await get(fast.port, path); // through the fast path
      // Prepared bytes (those with an ETag) are replayed; a document built once per release
      // without prepared bytes (the compute bridge) is answered by Fastify each time.
      const replay = reference.headers.etag !== undefined;
      assert.equal(fast.fastify(), replay ? seen : seen + 1, `${path}: replayed before Fastify: ${replay}`);
      for (const a of [first, replayed]) {
        assert.equal(a.status, reference.status, path);
        assert.deepEqual(a.headers, reference.headers, path);
        assert.ok(a.body.equals(reference.body), `${path}: same bytes`);
      }
    }
  });

  it('leaves to Fastify a refused or ignored query, a HEAD, a conditional GET, an unknown path and every document built per request', async () => {
    const s = await serve();
    await get(s.port, '/api/gspc');
    const etag = (await get(s.port, '/api/gspc')).headers.etag!;
    // A query a document does not read (the card index answers it as without) is never recorded.
    const cases: [string, string, Record<string, string>, number][] = [
      ['GET', '/api/gspc?axis=nope', {}, 404],
      ['GET', '/api/gspc?axis=nope', {}, 404],
      ['GET', '/cards/index.json?x=1', {}, 200],
      ['GET', '/cards/index.json?x=1', {}, 200],
      ['HEAD', '/api/gspc', {}, 200],
      ['GET', '/api/gspc', { 'If-None-Match': etag }, 304],
      ['GET', '/api/gspc/', {}, 404],
      ['GET', '/cards/0000000000000000.json', {}, 404],
      ['GET', '/healthz', {}, 200],
      ['GET', '/healthz', {}, 200],
    ];
    for (const [method, path, headers, status] of cases) {
      const before = s.fastify();
      const a = await get(s.port, path, headers, method);
      assert.equal(a.status, status, `${method} ${path}`);
      assert.equal(s.fastify(), before + 1, `${method} ${path} reached Fastify`);
    }
    // A card's name with a percent-escaped letter is the same card: the server reads the target as
    // the card's own name before anything else does (issue 38, decision HA3), so it is the one
    // recorded answer, and spelling one name a million ways cannot grow the record.
    const card = perReleasePaths.find((p) => /^\/cards\/[0-9a-f]{16}\.json$/.test(p))!;
    const escaped = `/cards/%${card.charCodeAt(7).toString(16)}${card.slice(8)}`; // its first character escaped
    const plain = await get(s.port, card);
    const before = s.fastify();
    for (let i = 0; i < 2; i++) {
      const a = await get(s.port, escaped);
      assert.equal(a.status, 200);
      assert.deepEqual(a.body, plain.body, escaped);
    }
    assert.equal(s.fastify(), before, `${escaped} answered as ${card} by the fast path`);
  });

  it('a query the document reads (the board and /api/models by axis) is replayed like a path, exactly as Fastify answered it', async () => {
    const fast = await serve();
    const slow = await serve({ fastPath: false });
    const axis = demo.state.current().knownAxes.find((a) => a === 'safety')!;
    for (const path of [`/api/gspc?axis=${axis}`, `/api/models?axis=${axis}`]) {
      const reference = await get(slow.port, path);
      assert.equal(reference.status, 200, path);
      const seen = fast.fastify();
      const first = await get(fast.port, path);
      assert.equal(fast.fastify(), seen + 1, `${path}: the first GET reaches Fastify`);
      const replayed = await get(fast.port, path);
      assert.equal(fast.fastify(), seen + 1, `${path}: the second is replayed before Fastify`);
      for (const a of [first, replayed]) {
        assert.deepEqual([a.status, a.headers], [reference.status, reference.headers], path);
        assert.ok(a.body.equals(reference.body), `${path}: same bytes`);
      }
    }
  });

  it('never replays a document of an earlier release: the first GET after a new release goes to Fastify', async () => {
    const { state, signing } = demoApp();
    const s = await serve({ state });
    await get(s.port, '/api/gspc');
    await get(s.port, '/api/gspc');
    // A new release (published again: a new PreparedRelease object, whatever its bytes).
    state.swap(loadRelease(publishRelease(demoCorpus, tempDir(), signing.inputs).dir));
    const seen = s.fastify();
    const first = await get(s.port, '/api/gspc');
    assert.equal(s.fastify(), seen + 1, 'the new release is read through Fastify first');
    const replayed = await get(s.port, '/api/gspc');
    assert.equal(s.fastify(), seen + 1, 'then replayed');
    assert.ok(replayed.body.equals(first.body));
    assert.deepEqual(replayed.headers, first.headers);
  });

  it('counts its answers in the same free budget: the request over it is answered 429 by the limiter', async () => {
    const s = await serve({ rateLimits: { free: 5, verify: 0, challenge: 0, paid: 0 } });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await get(s.port, '/api/gspc')).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
    const limited = await get(s.port, '/api/gspc');
    assert.equal(limited.status, 429);
    assert.match(limited.headers['retry-after'] ?? '', /^\d+$/);
    assert.equal((JSON.parse(limited.body.toString()) as { code: string }).code, 'rate_limited');
    assert.ok(s.fastify() <= 2 + 4, 'the 200s after the first were answered before Fastify');
  });

  it('sends no x-ratelimit-* headers on an answered read, on either path (decision O8)', async () => {
    const s = await serve({ rateLimits: { free: 100, verify: 0, challenge: 0, paid: 0 } });
    for (const path of ['/api/gspc', '/api/gspc', '/healthz'])
      assert.deepEqual(
        Object.keys((await get(s.port, path)).headers).filter((h) => h.startsWith('x-ratelimit')),
        [],
        path,
      );
  });

  it('counts its answers in the metrics like Fastify does', async () => {
    const s = await serve({ metrics: new ServiceMetrics(demo.state) });
    for (let i = 0; i < 7; i++) await get(s.port, '/api/gspc');
    const text = (await get(s.port, '/metrics')).body.toString();
    assert.match(text, /^gspc_http_requests_total\{route="\/api\/gspc",method="GET",status="200"\} 7$/m);
    assert.match(text, /^gspc_http_request_duration_seconds_count\{route="\/api\/gspc",method="GET"\} 7$/m);
    assert.match(text, /^gspc_http_request_duration_seconds_bucket\{le="\+Inf",route="\/api\/gspc",method="GET"\} 7$/m);
  });

  it('is off with the access log on (every request must reach the logger) and with fastPath: false', async () => {
    for (const o of [{ accessLog: true }, { fastPath: false }]) {
      const s = await serve(o);
      for (let i = 0; i < 3; i++) await get(s.port, '/api/gspc');
      assert.equal(s.fastify(), 3, JSON.stringify(o));
    }
  });

  it('stops answering once closing, and forgets what it recorded when the release changes', () => {
    let release = {};
    const fp = new PreparedFastPath({ current: () => release });
    const p: Prepared = { body: Buffer.from('{}'), etag: '"e"', headers: { 'content-type': 'application/json' } };
    fp.record(release, '/x', '/x', p);
    const res = () => {
      const sent: unknown[] = [];
      return {
        sent,
        writeHead: (...a: unknown[]) => sent.push(a),
        end: (b: unknown) => sent.push(b),
      } as unknown as Parameters<PreparedFastPath['serve']>[1] & { sent: unknown[] };
    };
    const req = (url: string) => ({ method: 'GET', url, rawHeaders: ['Host', 'x'] }) as never;
    const r1 = res();
    assert.equal(fp.serve(req('/x'), r1), true);
    assert.deepEqual(r1.sent[0], [200, ['content-type', 'application/json', 'content-length', '2']]);
    assert.equal(fp.serve(req('/y'), res()), false, 'not recorded');
    release = {};
    assert.equal(fp.serve(req('/x'), res()), false, 'recorded under another release');
    fp.record(release, '/x', '/x', p);
    assert.equal(fp.serve({ method: 'GET', url: '/x', rawHeaders: ['IF-NONE-MATCH', '"e"'] } as never, res()), false);
    fp.close();
    assert.equal(fp.serve(req('/x'), res()), false, 'closing');
  });
});
