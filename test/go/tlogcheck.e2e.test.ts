/**
 * The card log's tiles checked by a client nobody here wrote (issue 42 item 4): test/go/tlogcheck,
 * built on the Go checksum database's own golang.org/x/mod/sumdb/note and tlog (Debian's
 * packages, test/helpers/go-tlogcheck.ts), opens the checkpoint under /log/vkey, recomputes the
 * root through tlog.TileHashReader, proves every record from tiles alone and matches every entry
 * bundle to the leaves, against the three ways the log is served: the service on a port, the
 * static mirror in nginx, and the plain site/ tree (as files, and over a plain file server).
 * A served tampered tile, bundle or key makes it fail.
 *
 * The log: two releases into one data directory (180 cards, then 300 more axes' cards), so it
 * has full and partial tiles, two levels, and an earlier checkpoint.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { extendLog, logHistoryDocument, logVerifierKey, type PreviousLog } from '../../src/core/evidence/card-log.js';
import { publishRelease } from '../../src/release/publish.js';
import { loadRelease } from '../../src/release/load.js';
import { currentReleaseDir } from '../../src/release/data-dir.js';
import { ServedState } from '../../src/serve/served-state.js';
import { logTiles } from '../../src/serve/log-tiles.js';
import type { LoadedRelease } from '../../src/release/load.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { gspc } from '../helpers/cli.js';
import { goTlogCheck, runTlogCheck } from '../helpers/go-tlogcheck.js';
import { writeManyAxesCorpus } from '../helpers/many-axes-corpus.js';
import { nginxMissing, startNginx } from '../helpers/nginx.js';
import { tempDir } from '../helpers/tmp.js';

const checker = goTlogCheck();
const skip = checker.ok ? undefined : checker.reason;

const signing = testSigning();
const dataDir = tempDir();
for (const axes of [60, 100]) {
  const corpus = join(tempDir(), `corpus-${axes}`);
  writeManyAxesCorpus(corpus, axes);
  publishRelease(corpus, dataDir, signing.inputs);
}
const release = loadRelease(currentReleaseDir(dataDir)!);
const size = release.evidence.log.entries.length;
const app = buildApp({ state: new ServedState(release, liveSigning(signing)), logLevel: 'silent' });
after(() => app.close());
const served = await app.listen({ port: 0, host: '127.0.0.1' });

/** A plain file server over `dir` (what any static host does), or with some paths answered otherwise. */
async function serveFiles(answer: (path: string) => Promise<{ status: number; body: Buffer }>): Promise<string> {
  const server: Server = createServer((req, res) => {
    answer(new URL(req.url ?? '/', 'http://x').pathname).then(
      ({ status, body }) => res.writeHead(status).end(body),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  after(() => new Promise<void>((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}
const fromDir = (dir: string) => async (path: string) => {
  const file = join(dir, path);
  return existsSync(file) && !path.includes('..')
    ? { status: 200, body: readFileSync(file) }
    : { status: 404, body: Buffer.from('{"code":"not_found"}') };
};

const out = join(tempDir(), 'mirror');
if (skip === undefined) {
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
}

async function passes(prefix: string) {
  if (!checker.ok) throw new Error('unreachable');
  const r = await runTlogCheck(checker.bin, prefix);
  assert.equal(r.status, 0, `tlogcheck ${prefix}: ${r.stdout}${r.stderr}`);
  const report = JSON.parse(r.stdout) as Record<string, number | string | boolean>;
  assert.equal(report.ok, true);
  assert.equal(report.tree_size, size);
  assert.equal(report.records_proved, size, 'every record proved');
  assert.equal(report.bundles, Math.ceil(size / 256));
  assert.equal(report.consistency_checked, release.evidence.log.history.length, 'every earlier checkpoint');
  // The release's own log, not any log a server signs under a vkey it serves (review R3-2).
  const [origin, , root] = release.evidence.log.checkpoint!.split('\n');
  assert.equal(report.origin, origin);
  assert.equal(report.root, root);
  assert.equal(report.published_checked, logTiles(release).paths().length, 'every tile and bundle, byte for byte');
  return report;
}

async function fails(prefix: string, why: RegExp, vkey?: string) {
  if (!checker.ok) throw new Error('unreachable');
  const r = await runTlogCheck(checker.bin, prefix, vkey);
  assert.equal(r.status, 1, `tlogcheck ${prefix} should fail: ${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /^FAIL: /);
  assert.match(r.stdout, why);
}

describe("Go's sumdb tlog and note over the log's tiles", { skip }, () => {
  it('the log has full and partial tiles on two levels and an earlier checkpoint', () => {
    assert.ok(size > 256 && size < 65_536, `log size ${size}`);
    assert.ok(release.evidence.log.history.length >= 1);
  });

  it('passes against the service on a port', async () => {
    const report = await passes(`${served}/log`);
    // The root's tiles, then each level-0 tile once: what TileHashReader reads.
    assert.equal(report.tiles_read, Math.ceil(size / 256) + 1);
    // The headers the service sends: a full tile immutable for a year, a partial one 300 s.
    const full = await fetch(`${served}/log/tile/0/000`);
    assert.equal(full.headers.get('content-type'), 'application/octet-stream');
    assert.equal(full.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal((await full.arrayBuffer()).byteLength, 8192);
    const partial = await fetch(`${served}/log/tile/0/001.p/${size - 256}`);
    assert.equal(partial.headers.get('cache-control'), 'public, max-age=300');
    const bundle = await fetch(`${served}/log/tile/entries/000`);
    assert.equal(bundle.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal((await bundle.arrayBuffer()).byteLength, 256 * 34);
  });

  it('passes against the static mirror in nginx', { skip: nginxMissing() }, async () => {
    const conf = readFileSync(join(out, 'nginx.conf'), 'utf8');
    const { url } = await startNginx((port) => conf.replace('listen 127.0.0.1:1;', `listen 127.0.0.1:${port};`));
    await passes(`${url}/log`);
    const full = await fetch(`${url}/log/tile/0/000`);
    assert.equal(full.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(full.headers.get('etag'), (await fetch(`${served}/log/tile/0/000`)).headers.get('etag'));
    const partial = await fetch(`${url}/log/tile/0/001.p/${size - 256}`);
    assert.equal(partial.headers.get('cache-control'), 'public, max-age=300');
    const missing = await fetch(`${url}/log/tile/0/999`);
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { code: string }).code, 'tile_not_found');
    assert.equal(((await (await fetch(`${url}/nope`)).json()) as { code: string }).code, 'not_found');
  });

  it('passes against the plain site/ tree, as files and over a plain file server', async () => {
    await passes(join(out, 'site', 'log'));
    await passes(`${await serveFiles(fromDir(join(out, 'site')))}/log`);
  });

  it('passes on a 70,000-entry log written from the tile code (three levels, the spec example), and fails when a level-2 tile is wrong', async () => {
    const key = testSigning().inputs.boardKey;
    assert.ok(key.healthy);
    const origin = 'tiles.example/log';
    const cards = Array.from({ length: 70_000 }, (_, i) => createHash('sha256').update(`card ${i}`).digest('hex'));
    const first = extendLog(undefined, cards.slice(0, 69_990), origin, key);
    const log = extendLog(first as PreviousLog, cards, origin, key);
    assert.equal(log.history[0]?.tree_size, 69_990);
    const tiles = logTiles({ evidence: { log } } as unknown as LoadedRelease);
    const dir = tempDir();
    writeFileSync(join(dir, 'checkpoint'), log.checkpoint!);
    writeFileSync(join(dir, 'history.json'), JSON.stringify(logHistoryDocument(log)));
    writeFileSync(join(dir, 'vkey'), `${logVerifierKey(origin, key.signer.publicKey)}\n`);
    for (const path of tiles.paths()) {
      const file = join(dir, path.slice('/log/'.length));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, tiles.read(path)!.body);
    }
    assert.ok(existsSync(join(dir, 'tile', '2', '000.p', '1')));
    assert.ok(existsSync(join(dir, 'tile', '0', '273.p', '102')), "the earlier checkpoint's partial tile");
    if (!checker.ok) throw new Error('unreachable');
    const r = await runTlogCheck(checker.bin, dir);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout) as Record<string, number>;
    assert.equal(report.tree_size, 70_000);
    assert.equal(report.bundles, 274);
    assert.equal(report.consistency_checked, 1);
    assert.ok(report.records_proved! >= 4096);
    assert.equal(report.published_checked, tiles.paths().length);
    // The earlier checkpoint's partial tile and bundle: read by no proof of the current tree,
    // each still checked byte for byte (review R3-2: a changed one passed).
    for (const [rel, at, why] of [
      ['tile/0/273.p/102', 40, /tile tile\/0\/273\.p\/102 is not the tree's/],
      ['tile/entries/273.p/102', 40, /entry 1 of bundle tile\/entries\/273\.p\/102/],
    ] as const) {
      const file = join(dir, rel);
      const good = readFileSync(file);
      const bad = Buffer.from(good);
      bad[at] = bad[at]! ^ 1;
      writeFileSync(file, bad);
      await fails(dir, why);
      writeFileSync(file, good);
    }
    const top = join(dir, 'tile', '2', '000.p', '1');
    writeFileSync(top, Buffer.alloc(32));
    await fails(dir, /tree hash from tiles: downloaded inconsistent tile/);
  });

  it('fails on a served tampered tile, a tampered bundle, a tampered partial tile and a foreign key', async () => {
    const flip = (b: Buffer, at: number) => {
      const c = Buffer.from(b);
      c[at] = c[at]! ^ 1;
      return c;
    };
    // The service's answers, with one path changed: a proxy in front of it.
    const tampered = (path: string, at: number) =>
      serveFiles(async (p) => {
        const r = await app.inject({ url: p });
        return { status: r.statusCode, body: p === path ? flip(r.rawPayload, at) : r.rawPayload };
      });
    // Leaf 7 of the first full tile: Go's TileHashReader hands it back unchecked (decision TT6),
    // the proof of record 0 through it fails against the signed root.
    await fails(`${await tampered('/log/tile/0/000', 32 * 7)}/log`, /record 0: invalid transparency proof/);
    await fails(`${await tampered('/log/tile/entries/000', 2 + 34 * 5)}/log`, /entry 5 of bundle tile\/entries\/000/);
    const partial = `/log/tile/0/001.p/${size - 256}`;
    await fails(`${await tampered(partial, 0)}/log`, /tree hash from tiles: downloaded inconsistent tile/);
    // The plain tree with an edited file.
    const site = join(tempDir(), 'site');
    cpSync(join(out, 'site'), site, { recursive: true });
    const tile = join(site, 'log', 'tile', '1', '000.p', '1');
    writeFileSync(tile, flip(readFileSync(tile), 31));
    await fails(join(site, 'log'), /tree hash from tiles: downloaded inconsistent tile/);
    // The checkpoint under another key of the same name: note.Open refuses it.
    const other = testSigning().inputs.boardKey;
    assert.ok(other.healthy);
    const foreign = logVerifierKey(release.evidence.log.origin, other.signer.publicKey);
    await fails(`${served}/log`, /does not open/, foreign);
  });
});
