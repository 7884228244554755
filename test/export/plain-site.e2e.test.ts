/**
 * The static mirror on any static host (issue 31): `gspc export static` also writes `site/`, the
 * documents as plain files at their own paths. Before, `python3 -m http.server` over the export
 * answered `/.well-known/did.json` with a 404 (the files had hashed names that only the generated
 * nginx.conf mapped) and `gspc verify` failed `did_document`. Now a plain server over `site/`
 * verifies, pages with paths below them are directory indexes, and `_headers` and
 * `site-objects.json` carry the service's headers for hosts and buckets. Skips, saying why,
 * without python3.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { demoApp, testSigning } from '../helpers/app.js';
import { savedDidDocument } from '../helpers/anchor.js';
import { gspc } from '../helpers/cli.js';
import { brokenLinks, withOriginLinksRelative } from '../helpers/crawl.js';
import { freePort, start, waitFor } from '../helpers/process.js';
import { tempDir } from '../helpers/tmp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- exported JSON */
type Json = any;

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const skip =
  python.status === 0 ? undefined : 'no python3 on PATH (the plain static server this test serves the mirror with)';
const signing = testSigning();
const { dataDir } = demoApp(undefined, signing);
const out = join(tempDir(), 'mirror');
/** The origin the demo release was published for (the mirror links there for what it does not serve). */
const ORIGIN = 'http://localhost:8080';

/** Exports the demo release and serves its site/ with python's plain server (at file level: it stops when the file ends). */
async function servePlain(): Promise<{ url: string; mirror: Json }> {
  const r = await gspc(['export', 'static', dataDir, '--out', out, '--key-dir', signing.keyDir]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /site\/ is the same as plain files for any static host .*, \d+ paths; the \d+ paths with a query/,
  );
  const port = await freePort();
  const server = start(
    'python3',
    ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', join(out, 'site')],
    {},
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/root.json`, 15_000, server.output);
  return { url, mirror: JSON.parse(readFileSync(join(out, 'mirror.json'), 'utf8')) };
}
const { url, mirror } = skip === undefined ? await servePlain() : { url: '', mirror: {} as Json };

describe('gspc export static: site/, served by python3 -m http.server', { skip }, () => {
  it('gspc verify <plain server URL> passes, with every check of a service', async () => {
    // The origin (localhost:8080) is not running: the reader anchors the keys with the DID document
    // they saved from it (issue 36; the plain site holds the origin's bytes).
    const saved = savedDidDocument(await (await fetch(`${url}/.well-known/did.json`)).json());
    const r = await gspc(['verify', url, '--trust-did-document', saved]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^VALID: every check passes, 36 of 36 cards valid$/m);
    for (const check of ['did_document', 'card_files', 'card_proofs', 'served_documents', 'board_attestation'])
      assert.match(r.stdout, new RegExp(`^  ok   ${check}:`, 'm'));
  });

  it('every path without a query is its own file, byte for byte; a path with paths below it is a directory index', async () => {
    const plain = (mirror.documents as Json[]).filter((d) => !d.path.includes('?'));
    assert.ok(plain.length > 150);
    for (const d of plain) {
      const res = await fetch(`${url}${d.path}`);
      assert.equal(res.status, 200, d.path);
      const served = Buffer.from(await res.arrayBuffer());
      // A page links to the origin for what this mirror does not serve; nothing else differs.
      const html = d.headers['content-type'].startsWith('text/html');
      assert.deepEqual(
        html ? withOriginLinksRelative(served, ORIGIN) : served,
        html ? withOriginLinksRelative(readFileSync(join(out, d.file)), ORIGIN) : readFileSync(join(out, d.file)),
        d.path,
      );
    }
    assert.ok(existsSync(join(out, 'site', 'dashboard', 'index.html')), '/dashboard has /dashboard/axes/… below it');
    assert.equal((await fetch(`${url}/dashboard`, { redirect: 'manual' })).headers.get('location'), '/dashboard/');
  });

  it('_headers and site-objects.json give each path the service’s content type and cache rule', () => {
    const headers = readFileSync(join(out, 'site', '_headers'), 'utf8');
    assert.match(
      headers,
      /^\/\.well-known\/did\.json\n {2}access-control-allow-origin: \*\n(?: {2}.*\n)*? {2}content-type: application\/did\+json/m,
    );
    assert.match(headers, /^\/dashboard\/\n(?: {2}.*\n)*? {2}content-type: text\/html/m);
    assert.doesNotMatch(headers, /etag:/, 'a static host computes its own ETag');
    const objects = JSON.parse(readFileSync(join(out, 'site-objects.json'), 'utf8')).objects as Json[];
    const did = objects.find((o) => o.path === '/.well-known/did.json');
    assert.deepEqual([did.key, did.content_type], ['.well-known/did.json', 'application/did+json']);
    assert.equal(objects.find((o) => o.path === '/dashboard').key, 'dashboard/index.html');
    assert.equal(objects.length, (mirror.documents as Json[]).filter((d) => !d.path.includes('?')).length);
  });

  it('a path with a query is not a plain file: a plain server ignores the query, so mirror.json and nginx.conf map it', async () => {
    const axis = (mirror.documents as Json[]).find((d) => d.path.startsWith('/api/gspc?axis='));
    assert.ok(axis);
    const plainAnswer = Buffer.from(await (await fetch(`${url}${axis.path}`)).arrayBuffer());
    assert.notDeepEqual(plainAnswer, readFileSync(join(out, axis.file)), 'the plain server answers the whole board');
  });

  it('no link of a mirrored page answers 404: what the plain server does not serve is linked at the origin', async () => {
    const pages = (mirror.documents as Json[])
      .filter((d) => d.headers['content-type'].startsWith('text/html'))
      .map((d) => d.path as string);
    assert.ok(pages.length >= 19);
    const { checked, broken } = await brokenLinks(url, pages);
    assert.ok(checked > 30, `${checked} links`);
    assert.deepEqual(broken, []);
    const dashboard = readFileSync(join(out, 'site', 'dashboard', 'index.html'), 'utf8');
    assert.match(dashboard, /href="http:\/\/localhost:8080\/pricing"/, 'the pricing page is the origin’s');
    assert.match(dashboard, /href="http:\/\/localhost:8080\/openapi.json"/);
    assert.match(dashboard, /href="\/gspc-verify"/, 'a mirrored page stays a relative link');
  });
});
