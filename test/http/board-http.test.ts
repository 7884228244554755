import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { demoApp } from '../helpers/app.js';
import { demoCorpus } from '../helpers/tmp.js';

const { app } = demoApp();
const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('GET /api/gspc', () => {
  it('serves the board with CORS, a 300-second cache lifetime and an ETag', async () => {
    const r = await get('/api/gspc');
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['access-control-allow-origin'], '*');
    assert.equal(r.headers['cache-control'], 'public, max-age=300');
    assert.match(r.headers['content-type'] as string, /^application\/json/);
    assert.match(r.headers.etag as string, /^"[0-9a-f]{32}"$/);
    const board = r.json();
    assert.equal(board.schema, 'svc.gspc-axes/0.5');
    assert.equal(board.axes.length, 22);
  });

  it('answers 304 to a matching If-None-Match (strong, weak, list and *), 200 otherwise', async () => {
    const etag = (await get('/api/gspc')).headers.etag as string;
    for (const h of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const r = await get('/api/gspc', { 'if-none-match': h });
      assert.equal(r.statusCode, 304, h);
      assert.equal(r.body, '');
      assert.equal(r.headers.etag, etag);
    }
    assert.equal((await get('/api/gspc', { 'if-none-match': '"other"' })).statusCode, 200);
  });

  it('selects one axis, with totals over the selection', async () => {
    const r = await get('/api/gspc?axis=governance');
    assert.equal(r.statusCode, 200);
    const b = r.json();
    assert.deepEqual(
      b.axes.map((a: { axis: string }) => a.axis),
      ['governance'],
    );
    assert.equal(b.totals.axes, 1);
    assert.equal(b.totals.items, b.axes[0].n);
    assert.notEqual(r.headers.etag, (await get('/api/gspc')).headers.etag);
  });

  it('404s an unknown axis with the known slugs', async () => {
    const r = await get('/api/gspc?axis=nonesuch');
    assert.equal(r.statusCode, 404);
    const b = r.json();
    assert.equal(b.error, 'unknown axis');
    assert.equal(b.code, 'unknown_axis');
    assert.equal(b.known.length, 22);
    assert.ok(b.known.includes('jail'));
    assert.equal(r.headers['access-control-allow-origin'], '*');
  });

  it('400s malformed queries with a clear error', async () => {
    const cases: [string, RegExp][] = [
      ['/api/gspc?axis=jail&axis=safety', /more than once/],
      ['/api/gspc?axis=', /is empty/],
      ['/api/gspc?axes=jail', /unknown query parameter 'axes'/],
      [`/api/gspc?axis=${'x'.repeat(201)}`, /longer than 200/],
    ];
    for (const [url, reason] of cases) {
      const r = await get(url);
      assert.equal(r.statusCode, 400, url);
      assert.equal(r.json().code, 'bad_query');
      assert.match(r.json().error, reason);
    }
  });

  it('answers HEAD like GET without a body; other methods and paths get JSON errors', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/api/gspc' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    const post = await app.inject({ method: 'POST', url: '/api/gspc', payload: {} });
    assert.equal(post.statusCode, 404);
    assert.equal(post.json().code, 'not_found');
    const missing = await get('/v1/anything');
    assert.equal(missing.statusCode, 404);
    assert.match(missing.json().error, /no resource/);
  });
});

describe('published per-item rows', () => {
  it('serves the manifest whose SHA-256 the board quotes, and every file byte-identical to the corpus', async () => {
    const board = (await get('/api/gspc')).json();
    const m = await get('/peritem/manifest.json');
    assert.equal(m.statusCode, 200);
    assert.equal(createHash('sha256').update(m.rawPayload).digest('hex'), board.measured_on.peritem_sha256);
    const manifest = m.json();
    assert.equal(manifest.rows, board.measured_on.peritem_rows);
    let rows = 0;
    for (const f of manifest.files) {
      const r = await get(f.url);
      assert.equal(r.statusCode, 200, f.url);
      assert.equal(createHash('sha256').update(r.rawPayload).digest('hex'), f.sha256, f.url);
      assert.equal(r.rawPayload.length, f.bytes);
      rows += f.rows ?? 0;
    }
    assert.equal(rows, manifest.rows);
    const rowsFile = await get('/peritem/governance.jsonl');
    assert.deepEqual(rowsFile.rawPayload, readFileSync(join(demoCorpus, 'peritem', 'governance.jsonl')));
    assert.match(rowsFile.headers['content-type'] as string, /ndjson/);
  });

  it('serves the evidence file a facts row points at, and 404s unknown files', async () => {
    const board = (await get('/api/gspc?axis=provenance')).json();
    const r = await get(board.axes[0].evidence_url);
    assert.equal(r.statusCode, 200);
    assert.equal(r.json().manifest.format, 'c2pa');
    for (const url of ['/peritem/nope.jsonl', '/peritem/../board.json', '/evidence/provenance/../../release.json']) {
      assert.equal((await get(url)).statusCode, 404, url);
    }
  });
});
