/**
 * `gspc export static` served by Debian's nginx (issue 17): every mirrored document is the
 * service's own bytes and headers, conditional requests get 304, anything else a JSON 404/405,
 * `gspc verify <mirror URL>` passes, and an edited file in the mirror is named by it.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import { urlSource } from '../../src/verify/release-source.js';
import { verifyRelease } from '../../src/verify/release-verifier.js';
import { savedDidDocument, trusting } from '../helpers/anchor.js';
import { demoApp, testSigning } from '../helpers/app.js';
import { gspc } from '../helpers/cli.js';
import { brokenLinks, withOriginLinksRelative } from '../helpers/crawl.js';
import { nginxMissing, startNginx } from '../helpers/nginx.js';
import { tempDir } from '../helpers/tmp.js';

const skip = nginxMissing();
const KEPT = ['content-type', 'cache-control', 'etag', 'access-control-allow-origin', 'x-content-type-options'];

interface Mirrored {
  path: string;
  query: string;
  file: string;
  sha256: string;
  headers: Record<string, string>;
}

const signing = testSigning();
const { state, dataDir } = demoApp(undefined, signing);
// What `gspc serve` would answer with this environment's rail (unconfigured: challenges only),
// as `gspc export static` reads it: the pricing page lists the products either way.
const app = buildApp({ state, logLevel: 'silent', products: { rail: readConfig({}).rail } });
after(() => app.close());
const out = join(tempDir(), 'mirror');

/** Exports the demo release and starts nginx on the mirror (at file level: it stops when the file ends). */
async function serveMirror(): Promise<{ url: string; docs: Mirrored[] }> {
  const r = await gspc([
    'export',
    'static',
    dataDir,
    '--out',
    out,
    '--key-dir',
    signing.keyDir,
    '--listen',
    '127.0.0.1:1',
  ]);
  assert.equal(r.status, 0, r.stderr);
  const docs = JSON.parse(readFileSync(join(out, 'mirror.json'), 'utf8')).documents as Mirrored[];
  assert.match(
    r.stdout,
    new RegExp(
      `^mirrored release r-[0-9a-f]{20} of http://localhost:8080: ${docs.length} documents, \\d+ bytes, in ${out}`,
    ),
  );
  const conf = readFileSync(join(out, 'nginx.conf'), 'utf8');
  const { url } = await startNginx((port) => conf.replace('listen 127.0.0.1:1;', `listen 127.0.0.1:${port};`));
  return { url, docs };
}
const { url, docs } = skip === undefined ? await serveMirror() : { url: '', docs: [] as Mirrored[] };

describe('gspc export static, served by nginx', { skip }, () => {
  it('mirrors the board for every axis, every card and proof, the evidence, the log, the DID, the agent card, the pages', () => {
    const paths = new Set(docs.map((d) => d.path));
    for (const p of [
      '/api/gspc',
      '/api/gspc?axis=jail',
      '/root.json',
      '/cards/index.json',
      '/cards-bundle.json',
      '/signed/card-matrix.json',
      '/ledgers/withdrawals.json',
      '/log/checkpoint',
      '/log/entries.json',
      '/.well-known/did.json',
      '/.well-known/agent-card.json',
      '/peritem/manifest.json',
      '/dashboard',
      '/gspc-verify',
      '/methodology',
      '/api/changes',
      '/api/model-cards',
      '/api/cost?axis=jail',
      '/feed.atom',
    ])
      assert.ok(paths.has(p), `${p} is mirrored`);
    assert.ok(docs.filter((d) => /^\/cards\/[0-9a-f]{16}\.proof\.json$/.test(d.path)).length >= 36);
    // Not mirrored: live documents, the pricing page (the catalogue as of each request), paid routes.
    for (const p of ['/healthz', '/pricing', '/api/capability-fabric', '/api/oracle-fleet'])
      assert.ok(!paths.has(p), `${p} is not mirrored`);
    assert.ok(![...paths].some((p) => p.startsWith('/api/request-attestation')));
  });

  it("nginx answers each path with the service's bytes and headers", async () => {
    for (const d of docs) {
      const [mirror, service] = await Promise.all([
        fetch(`${url}${d.path}`),
        app.inject({ method: 'GET', url: d.path }),
      ]);
      assert.equal(mirror.status, 200, d.path);
      const body = Buffer.from(await mirror.arrayBuffer());
      // A page links to the origin for the paths the mirror does not serve (/pricing); nothing else differs.
      const relinked = !body.equals(service.rawPayload);
      assert.ok(
        relinked
          ? d.headers['content-type']!.startsWith('text/html') &&
              withOriginLinksRelative(body, 'http://localhost:8080').equals(service.rawPayload)
          : true,
        `${d.path}: the same bytes`,
      );
      for (const h of KEPT)
        if (!(relinked && h === 'etag'))
          assert.equal(mirror.headers.get(h) ?? undefined, service.headers[h], `${d.path}: ${h}`);
    }
  });

  it('a matching If-None-Match is 304 with the ETag; another path or method is a JSON 404 or 405', async () => {
    const first = await fetch(`${url}/root.json`);
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"[0-9a-f]+"$/);
    const again = await fetch(`${url}/root.json`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('etag'), etag);
    assert.equal((await fetch(`${url}/root.json`, { headers: { 'if-none-match': '"other"' } })).status, 200);
    const missing = await fetch(`${url}/api/request-attestation?subject=x`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(((await missing.json()) as { code: string }).code, 'not_found');
    const post = await fetch(`${url}/root.json`, { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(((await post.json()) as { code: string }).code, 'method_not_allowed');
    assert.equal(
      (await fetch(`${url}/cards/index.json?v=2`)).status,
      200,
      'a file served as published ignores its query',
    );
    assert.equal((await fetch(`${url}/api/gspc?axis=nope`)).status, 404);
  });

  it('gspc verify <mirror URL> passes (the CLI, exit 0), with every check of a service', async () => {
    // The origin (localhost:8080) is not running: the reader anchors the keys with the DID document
    // they saved from it (issue 36; the mirror serves the origin's bytes).
    const saved = savedDidDocument(await (await fetch(`${url}/.well-known/did.json`)).json());
    const r = await gspc(['verify', url, '--trust-did-document', saved]);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^VALID: every check passes, 36 of 36 cards valid$/m);
    for (const check of ['card_files', 'card_proofs', 'served_documents', 'board_attestation', 'board_rederived'])
      assert.match(r.stdout, new RegExp(`^  ok   ${check}:`, 'm'));
  });

  it('refused, writing nothing: no usable board key (the mirror would be unsigned), not a release, a bad --listen', async () => {
    const elsewhere = join(tempDir(), 'none');
    const noKeys = await gspc(['export', 'static', dataDir, '--out', elsewhere, '--key-dir', tempDir()]);
    assert.equal(noKeys.status, 2);
    assert.match(
      noKeys.stderr,
      /the board key in .* is not usable .*the mirror's board would be unsigned, unlike the service's\. Give the keys/,
    );
    const notRelease = await gspc(['export', 'static', tempDir(), '--out', elsewhere]);
    assert.equal(notRelease.status, 2);
    assert.match(notRelease.stderr, /is neither a release directory nor a data directory with a current release/);
    const badListen = await gspc([
      'export',
      'static',
      dataDir,
      '--out',
      elsewhere,
      '--key-dir',
      signing.keyDir,
      '--listen',
      'abc',
    ]);
    assert.equal(badListen.status, 2);
    assert.match(badListen.stderr, /--listen abc: a port, or host:port/);
    assert.equal(existsSync(elsewhere), false);
  });

  it('an edited card file or proof in the mirror is named by gspc verify, with the first differing byte', async () => {
    const card = docs.find((d) => /^\/cards\/[0-9a-f]{16}\.json$/.test(d.path))!;
    const proof = docs.find((d) => /\.proof\.json$/.test(d.path))!;
    const cardFile = join(out, card.file);
    const proofFile = join(out, proof.file);
    const [cardBytes, proofBytes] = [readFileSync(cardFile), readFileSync(proofFile)];
    try {
      writeFileSync(
        cardFile,
        cardBytes.toString('utf8').replace(/"correct": (\d+)/, (_, n: string) => `"correct": ${Number(n) + 1}`),
      );
      writeFileSync(
        proofFile,
        proofBytes.toString('utf8').replace(/"leaf_index": (\d+)/, (_, n: string) => `"leaf_index": ${Number(n) + 1}`),
      );
      const r = await verifyRelease(urlSource(url), {
        anchor: trusting(await (await fetch(`${url}/.well-known/did.json`)).json()),
      });
      const failed = Object.fromEntries(r.checks.filter((c) => !c.ok).map((c) => [c.check, c.detail]));
      assert.deepEqual(Object.keys(failed).sort(), ['card_files', 'card_proofs']);
      assert.match(
        failed.card_files!,
        new RegExp(`^${card.path.replaceAll('.', '\\.')}: first difference at byte \\d+`),
      );
      assert.match(
        failed.card_proofs!,
        new RegExp(`^${proof.path.replaceAll('.', '\\.')}: first difference at byte \\d+`),
      );
    } finally {
      writeFileSync(cardFile, cardBytes);
      writeFileSync(proofFile, proofBytes);
    }
  });

  it('no link of a mirrored page answers 404 under nginx: the paths it does not serve are linked at the origin', async () => {
    const pages = docs.filter((d) => d.headers['content-type']!.startsWith('text/html')).map((d) => d.path);
    const { checked, broken } = await brokenLinks(url, pages);
    assert.ok(checked > 50, `${checked} links`);
    assert.deepEqual(broken, []);
    const page = docs.find((d) => d.path === '/dashboard')!;
    const html = readFileSync(join(out, page.file), 'utf8');
    assert.match(html, /href="http:\/\/localhost:8080\/pricing"/);
    assert.match(html, /href="\/api\/gspc\?axis=/, 'nginx serves the query paths: those links stay');
    assert.equal((await fetch(`${url}/dashboard`)).headers.get('etag') ?? undefined, page.headers.etag);
  });
});
