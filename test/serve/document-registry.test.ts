/**
 * The document registry (issue 14): every free GET document is one entry, served over HTTP by
 * the one route helper and read in-process by the surfaces and pages, with the same bytes. Each
 * entry's declared schema and cache rule are what it serves; every concrete path it lists
 * answers; no module under src/ reads the service's own routes through `inject`.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildApp, composeService } from '../../src/app.js';
import { readRailConfig } from '../../src/config.js';
import { bodyBytes } from '../../src/serve/documents/document.js';
import { ServedState } from '../../src/serve/served-state.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { repoRoot } from '../helpers/repo.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

const NOW = new Date('2026-11-20T12:00:00Z');
const signing = testSigning();
const state = new ServedState(
  loadRelease(publishRelease(demoCorpus, tempDir(), signing.inputs).dir),
  liveSigning(signing),
);
const options = { state, logLevel: 'silent', now: () => NOW, products: { rail: readRailConfig({}) } } as const;
const app = buildApp(options);
after(() => app.close());
const { read, entries, service } = composeService(options);
after(() => service.fabric.stop());

describe('the document registry', () => {
  it('has unique ids and routes, and every entry lists the paths it answers for the demo release', () => {
    assert.equal(new Set(entries.map((e) => e.id)).size, entries.length);
    assert.equal(new Set(entries.map((e) => e.route)).size, entries.length);
    for (const e of entries) {
      const paths = e.paths(state.current());
      // The demo publishes every document kind but one: /keys/transitions.json exists only once a
      // key was rotated (test/keys/key-rotation.e2e.test.ts serves it).
      if (e.id === 'key-transitions') assert.deepEqual(paths, []);
      // Slices are not mirrored (decision SL8) and the demo's rows carry no tags: test/serve/slices.test.ts.
      else if (e.id === 'slices') assert.deepEqual(paths, []);
      else assert.ok(paths.length > 0, `${e.id} lists no path`);
    }
  });

  it('each path answers 200 over HTTP with the bytes the in-process reader gets, the declared schema and cache rule', async () => {
    let checked = 0;
    for (const e of entries) {
      for (const path of e.paths(state.current())) {
        const r = await app.inject({ url: path });
        assert.equal(r.statusCode, 200, `${e.id} ${path}: ${r.body.slice(0, 200)}`);
        const got = await read.documents.readPath(path);
        assert.ok(got.ok, `${e.id} ${path} read in-process: ${JSON.stringify(got.value)}`);
        // Built per request from the same fixed clock: the same bytes both ways.
        assert.ok(bodyBytes(got.body).equals(r.rawPayload), `${e.id} ${path}: the reader and the route disagree`);
        // JSON documents (application/json, application/did+json) are read as values, the rest as text.
        const isJson = /^application\/([a-z0-9.-]+\+)?json(;|$)/.test(String(r.headers['content-type']));
        assert.deepEqual(got.value, isJson ? JSON.parse(r.body) : r.body, `${e.id} ${path} value`);
        if (e.schema !== null)
          assert.equal((r.json() as { schema?: unknown }).schema, e.schema, `${e.id} ${path} schema`);
        const cc = e.cache.cacheControl;
        if (cc === null) assert.equal(r.headers['cache-control'], undefined, `${e.id} ${path}`);
        else if (!cc.includes('<')) assert.equal(r.headers['cache-control'], cc, `${e.id} ${path} cache-control`);
        if (e.cache.kind === 'release' && got.body.kind === 'prepared')
          assert.equal(r.headers.etag, got.body.prepared.etag);
        checked++;
      }
    }
    assert.ok(checked > 100, `only ${checked} paths checked`);
  });

  it('a path no entry serves, a bad query and a missing card are answered in-process as the routes answer them', async () => {
    for (const path of [
      '/api/nope',
      '/api/gspc?axis=nope',
      '/api/gspc?bad=1',
      '/cards/0000000000000000.json',
      '/api/regulation?x=1',
      '/log/consistency?from=99999',
    ]) {
      const r = await app.inject({ url: path });
      const got = await read.documents.readPath(path);
      assert.equal(got.ok, false, path);
      assert.equal(got.status, r.statusCode, path);
      assert.deepEqual(got.value, r.json(), path);
    }
  });

  it('a file served as published ignores a cache-busting query; a document with declared parameters refuses an unknown one', async () => {
    assert.equal((await app.inject({ url: '/root.json?v=2' })).statusCode, 200);
    assert.equal((await app.inject({ url: '/api/corrections?v=2' })).statusCode, 400);
  });

  it('nothing under src/ reads the service through app.inject (surfaces and pages read the registry)', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
      );
    const offenders = files(join(repoRoot, 'src')).filter((f) => /\.inject\(/.test(readFileSync(f, 'utf8')));
    // The one exception: `gspc export static` reads every mirrored document as HTTP answers it,
    // headers included, from the composition root (decision X2).
    assert.deepEqual(offenders, [join(repoRoot, 'src', 'mirror.ts')]);
  });
});
