/**
 * Issue 42 item 5: `gspc witness --submit` and `gspc monitor --submit-witness` with a log that is
 * also served as C2SP tlog-tiles. A log of 180 entries is witnessed, grows to 300 (a full
 * level-0 tile, a partial one and a level-1 tile), and is witnessed again from 180: the
 * consistency proof the witness receives is the one the served tiles give, and verifies from the
 * root the witness cosigned to the root the tiles give. The cosignature then comes back in
 * /log/checkpoint and every card's tlog-proof. The log's state is served `no-cache` (WN4), a
 * full tile `immutable`, and the static mirror keeps both.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { keyPairFromSeed } from '../../src/core/crypto/ed25519.js';
import { logOrigin } from '../../src/core/evidence/card-log.js';
import { verifyConsistency } from '../../src/core/evidence/merkle/rfc6962-verify.js';
import { consistencyProofFrom, rangeHash, tileHashReader } from '../../src/core/evidence/merkle/tile-proofs.js';
import { hashTilePath, publishedTiles } from '../../src/core/evidence/merkle/tiles.js';
import { parseCheckpoint } from '../../src/core/evidence/note/checkpoint.js';
import { signCosignature } from '../../src/core/evidence/note/cosignature.js';
import { formatSignatureLine, parseNote, SIG_TYPE_COSIGNATURE_V1 } from '../../src/core/evidence/note/signed-note.js';
import { formatVerifierKey, parseVerifierKey, verifierFromKey } from '../../src/core/evidence/note/verifier-key.js';
import { decideAddCheckpoint, parseAddCheckpointRequest } from '../../src/core/evidence/note/witness.js';
import { runWitness } from '../../src/cli/witness.js';
import { currentReleaseDir } from '../../src/release/data-dir.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { readWitnesses } from '../../src/release/witness-store.js';
import { LOG_STATE_CACHE_CONTROL } from '../../src/serve/prepared-bytes.js';
import { ServedState } from '../../src/serve/served-state.js';
import { pollOnce } from '../../src/verify/monitor.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { gspc } from '../helpers/cli.js';
import { writeManyAxesCorpus } from '../helpers/many-axes-corpus.js';
import { freePort } from '../helpers/process.js';
import { tempDir } from '../helpers/tmp.js';

const W = { name: 'witness.example/w1', seed: Buffer.alloc(32, 21) };
const wVkey = formatVerifierKey(W.name, keyPairFromSeed(W.seed).publicKey, SIG_TYPE_COSIGNATURE_V1);
const NOW = 1_800_000_000;
const servers: Server[] = [];
after(() => {
  for (const s of servers) s.close();
});

/**
 * A tlog-witness for one log (configured with the log's /log/vkey, as a witness operator would
 * be): `decideAddCheckpoint`, its latest cosigned size and root, and every request body it got.
 */
async function fakeWitness(logVkey: string) {
  const key = parseVerifierKey(logVkey.trim());
  assert.ok(key.ok, logVkey);
  // The vkey's name is the log's origin (the DID's host + /log): what a witness is keyed by.
  assert.equal(key.key.name, logOrigin(signing.did));
  const witness = {
    url: '',
    latest: null as { size: number; rootHash: Uint8Array } | null,
    bodies: [] as string[],
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      witness.bodies.push(body);
      const d = decideAddCheckpoint(body, (o) =>
        o === key.key.name ? { verifiers: [verifierFromKey(key.key)], latest: witness.latest } : undefined,
      );
      if (d.status === 409 && 'latestSize' in d)
        return res.writeHead(409, { 'content-type': 'text/x.tlog.size' }).end(`${d.latestSize}\n`);
      if (d.status !== 200) return res.writeHead(d.status).end(d.reason);
      witness.latest = { size: d.checkpoint.size, rootHash: d.checkpoint.rootHash };
      const line = formatSignatureLine(signCosignature(d.text, { name: W.name, privateKey: W.seed }, NOW));
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(line);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  witness.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return witness;
}

const port = await freePort();
const origin = `http://localhost:${port}`;
const signing = testSigning(join(tempDir(), 'keys'), `localhost:${port}`);
const dataDir = tempDir();
const publish = (axes: number) => {
  const corpus = join(tempDir(), `corpus-${axes}`);
  writeManyAxesCorpus(corpus, axes);
  publishRelease(corpus, dataDir, signing.inputs);
  return loadRelease(currentReleaseDir(dataDir)!);
};
const first = publish(60);
const state = new ServedState(first, liveSigning(signing), (sha) => readWitnesses(dataDir, sha));
const app = buildApp({ state, logLevel: 'silent', baseUrl: origin });
after(() => app.close());
await app.listen({ host: '127.0.0.1', port });
const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

/** Root and size of a checkpoint note. */
function treeOf(note: string) {
  const parsed = parseNote(note);
  assert.ok(parsed.ok);
  const cp = parseCheckpoint(parsed.text);
  assert.ok(cp.ok);
  return cp.checkpoint;
}

/** Every hash tile the service publishes at the current size, read over HTTP, by path. */
async function servedHashTiles(size: number, earlier: number[]) {
  const tiles = new Map<string, Uint8Array>();
  for (const t of publishedTiles(size, earlier)) {
    const r = await get(`/log/${hashTilePath(t)}`);
    assert.equal(r.statusCode, 200, hashTilePath(t));
    tiles.set(hashTilePath(t), r.rawPayload);
  }
  return tiles;
}

describe('witnessing a log that is served as tiles', () => {
  const vkey = () => get('/log/vkey').then((r) => r.body);

  it("gspc witness --submit from 180 to 300 entries: the proof the witness gets is the tiles' proof, and its cosignature comes back", async () => {
    const witness = await fakeWitness(await vkey());
    const submit = () =>
      runWitness(dataDir, { kind: 'transparency-log', submit: witness.url, witnessKeys: [wVkey], now: NOW });
    assert.match(await submit(), /^transparency-log: WITNESSED .*cosigned by witness\.example\/w1/);
    const before = treeOf(readFileSync(join(currentReleaseDir(dataDir)!, 'evidence', 'log-checkpoint'), 'utf8'));
    assert.equal(before.size, 180);
    assert.deepEqual(
      witness.bodies.map((b) => b.split('\n')[0]),
      ['old 0'],
    );

    state.swap(publish(100));
    const grown = treeOf((await get('/log/checkpoint')).body);
    assert.equal(grown.size, 300);
    assert.match(await submit(), /WITNESSED/);
    // old 0 answered 409 with 180, then old 180 with the proof: what tlog-witness says to send.
    assert.deepEqual(
      witness.bodies.slice(1).map((b) => b.split('\n')[0]),
      ['old 0', 'old 180'],
    );
    const sent = parseAddCheckpointRequest(witness.bodies[2]!);
    assert.ok(sent.ok);
    assert.equal(witness.latest?.size, 300);

    // The tiles the service serves: a full level-0 tile (8,192 bytes, immutable), its partial
    // neighbour, a level-1 tile. The proof computed from them is the one the witness received.
    const tiles = await servedHashTiles(300, [180]);
    assert.deepEqual([...tiles.keys()].sort(), ['tile/0/000', 'tile/0/001.p/44', 'tile/1/000.p/1']);
    assert.equal(tiles.get('tile/0/000')!.length, 8192);
    assert.equal((await get('/log/tile/0/000')).headers['cache-control'], 'public, max-age=31536000, immutable');
    const read = tileHashReader(300, (t) => tiles.get(hashTilePath(t)));
    const fromTiles = consistencyProofFrom(read, 180, 300);
    assert.deepEqual(
      sent.request.proof.map((h) => Buffer.from(h).toString('hex')),
      fromTiles.map((h) => Buffer.from(h).toString('hex')),
    );
    assert.ok(sent.request.proof.length > 0);
    const root180 = rangeHash(read, 0, 180);
    const root300 = rangeHash(read, 0, 300);
    assert.equal(Buffer.from(root180).toString('hex'), Buffer.from(before.rootHash).toString('hex'));
    assert.equal(Buffer.from(root300).toString('hex'), Buffer.from(grown.rootHash).toString('hex'));
    assert.ok(verifyConsistency(180, 300, sent.request.proof, root180, root300).ok);
    // A proof one hash off does not hold: the check above can fail.
    const bent = sent.request.proof.map((h, i) => (i === 0 ? Buffer.alloc(32, 1) : h));
    assert.equal(verifyConsistency(180, 300, bent, root180, root300).ok, false);

    // The cosignature is served on /log/checkpoint and in every card's tlog-proof.
    state.refreshWitnesses();
    const served = (await get('/log/checkpoint')).body;
    assert.match(served, /\n— witness\.example\/w1 [A-Za-z0-9+/=]+\n$/);
    const index = (await get('/cards/index.json')).json() as { cards: { sha256: string }[] };
    assert.equal(index.cards.length, 300);
    const proof = (await get(`/cards/${index.cards[0]!.sha256.slice(0, 16)}.tlog-proof`)).body;
    assert.ok(proof.endsWith(served), 'the tlog-proof carries the checkpoint as served, cosignature included');
  });

  it('gspc monitor --submit-witness sends what it verified, from the size the witness holds', async () => {
    const witness = await fakeWitness(await vkey());
    witness.latest = { size: 180, rootHash: treeOf(first.evidence.log.checkpoint!).rootHash };
    const r = await pollOnce([origin], tempDir(), () => new Date(NOW * 1000), { submitTo: [witness.url] });
    assert.deepEqual(r.alerts, []);
    assert.deepEqual(r.submitted, [{ witness: witness.url, cosigned: true }]);
    assert.deepEqual(
      witness.bodies.map((b) => b.split('\n')[0]),
      ['old 0', 'old 180'],
    );
    assert.equal(witness.latest?.size, 300);
  });

  it('the log state is no-cache (revalidated, 304 on its ETag); tiles keep their rules (WN4)', async () => {
    for (const path of [
      '/log/checkpoint',
      '/log/vkey',
      '/log/entries.json',
      '/log/history.json',
      '/log/consistency?from=180',
    ]) {
      const r = await get(path);
      assert.equal(r.statusCode, 200, path);
      assert.equal(r.headers['cache-control'], LOG_STATE_CACHE_CONTROL, path);
      if (r.headers.etag !== undefined) {
        const again = await get(path, { 'if-none-match': String(r.headers.etag) });
        assert.equal(again.statusCode, 304, path);
      }
    }
    assert.equal(LOG_STATE_CACHE_CONTROL, 'no-cache');
    assert.equal((await get('/log/tile/0/001.p/44')).headers['cache-control'], 'public, max-age=300');
    assert.equal((await get('/root.json')).headers['cache-control'], 'public, max-age=300');
  });

  it('the static mirror keeps the same rules: nginx.conf, mirror.json and site/_headers', async () => {
    const out = join(tempDir(), 'mirror');
    const r = await gspc(['export', 'static', dataDir, '--out', out, '--key-dir', signing.keyDir]);
    assert.equal(r.status, 0, r.stderr);
    const mirror = JSON.parse(readFileSync(join(out, 'mirror.json'), 'utf8')) as {
      documents: { path: string; headers: Record<string, string> }[];
    };
    const cc = (p: string) => mirror.documents.find((d) => d.path === p)?.headers['cache-control'];
    assert.equal(cc('/log/checkpoint'), 'no-cache');
    assert.equal(cc('/log/entries.json'), 'no-cache');
    assert.equal(cc('/log/tile/0/000'), 'public, max-age=31536000, immutable');
    assert.match(readFileSync(join(out, 'nginx.conf'), 'utf8'), /add_header cache-control "no-cache" always;/);
    assert.match(
      readFileSync(join(out, 'site', '_headers'), 'utf8'),
      /\/log\/checkpoint\n( {2}.+\n)* {2}cache-control: no-cache\n/,
    );
  });
});
