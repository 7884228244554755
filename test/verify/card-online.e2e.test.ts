/**
 * `gspc verify <url> --card <sha256|card.json>` (issue 42, item 3; decisions VC1-VC7): one card
 * checked online from the log's tiles. A log of 5,000 entries served as tiles (test/monitor
 * tiled-log.ts) holds a signed card at entry 3,210; a mirror in front of it serves the cards and
 * their tlog-proofs, its DID's host being the log's server. VALID costs O(log n) requests and no
 * /log/entries.json; a card the log does not hold, a bad signature, a tampered tile, an impostor
 * with its own keys under the origin's DID and a view with no tiles are each INVALID with a code.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { canonicalJsonStrict } from '../../src/core/crypto/canonical-json.js';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import { logOrigin } from '../../src/core/evidence/card-log.js';
import { leafHash } from '../../src/core/evidence/merkle/hash.js';
import { MerkleTree } from '../../src/core/evidence/merkle/merkle-tree.js';
import { inclusionProof } from '../../src/core/evidence/merkle/rfc6962.js';
import { rangeHash, type Subtree } from '../../src/core/evidence/merkle/tile-proofs.js';
import { formatCheckpoint } from '../../src/core/evidence/note/checkpoint.js';
import { formatNote, keyId, noteSignature, SIG_TYPE_ED25519 } from '../../src/core/evidence/note/signed-note.js';
import { formatVerifierKey } from '../../src/core/evidence/note/verifier-key.js';
import { formatTlogProof } from '../../src/core/evidence/tlog-proof.js';
import { buildApp } from '../../src/app.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { ServedState } from '../../src/serve/served-state.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { gspc } from '../helpers/cli.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';
import { syntheticEntry, type SyntheticLog, tiledView, type TiledView } from '../monitor/tiled-log.js';

const N = 5000;
const K = 3210;
/** The seed tiled-log.ts signs with: the board key of the DID's host. */
const BOARD = keyPairFromSeed(Buffer.alloc(32, 7));
const IMPOSTOR = keyPairFromSeed(Buffer.alloc(32, 9));

type Pair = typeof BOARD;
const x = (p: Pair) => Buffer.from(p.publicKey).toString('base64url');

/** A card-v1 signed by `pair` under `kid`: its sha256 is its RFC 8785 body's. */
function signedCard(kid: string, pair: Pair, subject: string) {
  const body = { schema: 'card-v1', signer: kid, subject, as_of: '2026-11-29T00:00:00Z' };
  const bytes = Buffer.from(canonicalJsonStrict(body));
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return {
    ...body,
    sha256,
    url: `/cards/${sha256.slice(0, 16)}.json`,
    sig_ed25519: sign(pair.privateKey, bytes).toString('hex'),
  };
}

/** A log of `n` synthetic entries with `cards` at their indexes. */
function logWith(n: number, cards: ReadonlyMap<number, string>): SyntheticLog & { leaves: Uint8Array[] } {
  const entry = (i: number) => {
    const c = cards.get(i);
    return c === undefined ? syntheticEntry(i) : Buffer.from(c, 'hex');
  };
  const leaves = Array.from({ length: n }, (_, i) => leafHash(entry(i)));
  const tree = new MerkleTree(leaves);
  return {
    entry,
    tree,
    leaves,
    rootAt: (size: number) => rangeHash((s: Subtree) => tree.hashes(s.level, s.index, 1), 0, size),
  };
}

function checkpointBy(pair: Pair, origin: string, size: number, root: Uint8Array): string {
  const text = formatCheckpoint({ origin, size, rootHash: root, extensions: [] });
  const line = noteSignature(
    origin,
    keyId(origin, SIG_TYPE_ED25519, pair.publicKey),
    sign(pair.privateKey, Buffer.from(text)),
  );
  return formatNote(text, [line]);
}

/**
 * A mirror of `upstream`: its own `/cards/…` (and, for an impostor, its own DID document and
 * checkpoint), everything else fetched from upstream.
 */
async function mirror(upstream: () => string, own: Map<string, string>): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const path = req.url ?? '/';
    const body = own.get(path);
    if (body !== undefined) return res.writeHead(200).end(body);
    if (path.startsWith('/cards/')) return res.writeHead(404).end();
    const r = await fetch(`${upstream()}${path}`);
    res.writeHead(r.status).end(r.status === 200 ? Buffer.from(await r.arrayBuffer()) : undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('gspc verify <url> --card: one card online, from the tiles (VC1-VC7)', () => {
  let view: TiledView;
  let did: string;
  let good: ReturnType<typeof signedCard>;
  let other: ReturnType<typeof signedCard>;
  let forged: Record<string, unknown>;
  let site: { url: string; server: Server };
  let impostor: { url: string; server: Server };
  const servers: Server[] = [];
  let closeImpostorLog = () => undefined as void;
  const dir = tempDir('gspc-card-online-');

  before(async () => {
    view = await tiledView(logWith(1, new Map()), N);
    did = view.did;
    assert.equal(view.boardX, x(BOARD), "the test signs with tiled-log.ts's board key");
    const kid = `${did}#board-attestation-1`;
    good = signedCard(kid, BOARD, 'logged');
    other = signedCard(kid, BOARD, 'never logged');
    // Entry K is the card; entry K+1 the sha256 a forged card claims (its signature is bad).
    forged = { ...signedCard(kid, BOARD, 'forged'), subject: 'changed after signing' };
    const forgedBody = Object.fromEntries(
      Object.entries(forged).filter(([k]) => !['sha256', 'url', 'sig_ed25519'].includes(k)),
    );
    const forgedSha = createHash('sha256').update(canonicalJsonStrict(forgedBody)).digest('hex');
    forged = { ...forged, sha256: forgedSha, url: `/cards/${forgedSha.slice(0, 16)}.json` };
    const log = logWith(
      N,
      new Map([
        [K, good.sha256],
        [K + 1, forgedSha],
      ]),
    );
    view.served = log;
    view.signed = log;
    const origin = logOrigin(did);
    const note = checkpointBy(BOARD, origin, N, log.rootAt(N));
    assert.equal(await (await fetch(`${view.url}/log/checkpoint`)).text(), note);
    const proof = (i: number) => formatTlogProof(i, inclusionProof(log.leaves, i), note);
    site = await mirror(
      () => view.url,
      new Map([
        [`/cards/${good.sha256.slice(0, 16)}.json`, JSON.stringify(good)],
        [`/cards/${good.sha256.slice(0, 16)}.tlog-proof`, proof(K)],
        [`/cards/${other.sha256.slice(0, 16)}.json`, JSON.stringify(other)],
        // The card the log does not hold, served with the logged card's index and path.
        [`/cards/${other.sha256.slice(0, 16)}.tlog-proof`, proof(K)],
        [`/cards/${forgedSha.slice(0, 16)}.json`, JSON.stringify(forged)],
        [`/cards/${forgedSha.slice(0, 16)}.tlog-proof`, proof(K + 1)],
      ]),
    );
    // The impostor: the origin's DID with its own key, the same card and tree signed by it.
    const ikid = `${did}#board-attestation-1`;
    const icard = signedCard(ikid, IMPOSTOR, 'logged');
    const ilog = logWith(N, new Map([[K, icard.sha256]]));
    const inote = checkpointBy(IMPOSTOR, origin, N, ilog.rootAt(N));
    const didDoc = JSON.stringify({
      '@context': ['https://www.w3.org/ns/did/v1'],
      id: did,
      verificationMethod: [
        {
          id: ikid,
          type: 'JsonWebKey2020',
          controller: did,
          publicKeyJwk: { kty: 'OKP', crv: 'Ed25519', x: x(IMPOSTOR) },
        },
      ],
    });
    // Its tiles are its own log's: a second tiled server serving ilog, behind the impostor's own checkpoint.
    const iview = await tiledView(ilog, N);
    impostor = await mirror(
      () => iview.url,
      new Map([
        ['/.well-known/did.json', didDoc],
        ['/log/checkpoint', inote],
        [`/cards/${icard.sha256.slice(0, 16)}.json`, JSON.stringify(icard)],
        [`/cards/${icard.sha256.slice(0, 16)}.tlog-proof`, formatTlogProof(K, inclusionProof(ilog.leaves, K), inote)],
      ]),
    );
    servers.push(site.server, impostor.server);
    closeImpostorLog = () => iview.close();
    // The same card body (its sha256 is the body's), signed by the impostor's key.
    assert.equal(icard.sha256, good.sha256);
    assert.notEqual(icard.sig_ed25519, good.sig_ed25519);
  });

  after(() => {
    view.close();
    closeImpostorLog();
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
  });

  const verify = async (url: string, card: string, extra: string[] = []) => {
    const r = await gspc(['verify', url, '--card', card, '--json', ...extra]);
    return { status: r.status, report: JSON.parse(r.stdout || '{}'), stderr: r.stderr };
  };

  it('VALID for a logged card, in O(log n) requests: 3 tiles of a log of 5,000, no /log/entries.json', async () => {
    view.log.length = 0;
    const { status, report } = await verify(site.url, good.sha256);
    assert.equal(status, 0, JSON.stringify(report.checks, null, 1));
    assert.equal(report.result, 'VALID');
    assert.equal(report.code, null);
    assert.deepEqual(report.log, {
      origin: logOrigin(did),
      tree_size: N,
      root_hash: Buffer.from(view.signed.rootAt(N)).toString('hex'),
      index: K,
    });
    // Entry 3,210's tile 0/012, the partial level-1 tile and the right edge's partial tile 0/019.p/136:
    // 3 tiles (13,152 bytes) and 8 requests in all, where /log/entries.json is 5,000 entries.
    assert.deepEqual(report.requests.paths.slice(5).sort(), [
      '/log/tile/0/012',
      '/log/tile/0/019.p/136',
      '/log/tile/1/000.p/19',
    ]);
    assert.equal(report.requests.tiles, 3);
    assert.equal(report.requests.total, 8, report.requests.paths.join(', '));
    assert.equal(report.requests.paths.includes('/log/entries.json'), false);
    assert.equal(
      view.log.some((r) => r.path === '/log/entries.json'),
      false,
      'the DID host was not asked for its log',
    );
    assert.match(report.keys, /the DID document at http:\/\/localhost/);
    // The same check with the card file, and as text.
    const file = join(dir, 'card.json');
    writeFileSync(file, JSON.stringify(good));
    assert.equal((await verify(site.url, file)).report.result, 'VALID');
    const text = await gspc(['verify', site.url, '--card', good.sha256]);
    assert.equal(text.status, 0);
    assert.match(
      text.stdout,
      new RegExp(`VALID: entry ${K} of ${logOrigin(did).replace(/[.%]/g, '\\$&')} at size ${N}`),
    );
    assert.match(text.stdout, /requests: \d+ \(\d tiles/);
  });

  it('INVALID for a card the log does not hold, served with the index and path of a logged one', async () => {
    const { status, report } = await verify(site.url, other.sha256);
    assert.equal(status, 1);
    assert.equal(report.code, 'card_not_included');
    assert.match(report.checks.find((c: { check: string }) => c.check === 'log_inclusion').detail, /not entry 3210/);
    // Not served at all: no index to prove.
    const missing = 'ab'.repeat(32);
    assert.equal((await verify(site.url, missing)).report.code, 'card_not_served');
  });

  it('INVALID for a logged card whose signature does not verify', async () => {
    const { status, report } = await verify(site.url, String(forged.sha256));
    assert.equal(status, 1);
    assert.equal(report.code, 'card_signature');
    // Its inclusion held: only the signature failed.
    assert.equal(report.checks.find((c: { check: string }) => c.check === 'log_inclusion').ok, true);
  });

  it('INVALID when a tile the proof reads is tampered with, and a clear message with no tiles', async () => {
    view.tamper = (path, bytes) => {
      if (!path.startsWith('/log/tile/0/')) return bytes;
      const b = Buffer.from(bytes);
      b[0] = b[0]! ^ 1;
      return b;
    };
    try {
      const { status, report } = await verify(site.url, good.sha256);
      assert.equal(status, 1);
      assert.equal(report.code, 'card_not_included');
      view.tamper = () => undefined;
      const none = await verify(site.url, good.sha256);
      assert.equal(none.status, 1);
      assert.equal(none.report.code, 'card_no_tiles');
      assert.match(
        none.report.checks.find((c: { check: string }) => c.check === 'log_inclusion').detail,
        /the view serves no tiles .*run gspc verify/,
      );
    } finally {
      delete view.tamper;
    }
  });

  it("an impostor with its own keys under the origin's DID is never VALID under the origin's name", async () => {
    const isha = JSON.parse(await (await fetch(`${impostor.url}/.well-known/did.json`)).text()).verificationMethod[0]
      .id as string;
    assert.equal(isha, `${did}#board-attestation-1`);
    const card = signedCard(isha, IMPOSTOR, 'logged').sha256;
    const { status, report } = await verify(impostor.url, card);
    assert.equal(status, 1);
    assert.equal(report.result, 'INVALID');
    assert.equal(report.code, 'key_anchor');
    assert.match(report.checks[0].detail, /not .*'s|disagree|not the DID's host/);
    // Under the impostor's key as the reader's own trust everything else holds: the anchor alone refused it.
    const trusted = await verify(impostor.url, card, ['--trust-key', x(IMPOSTOR)]);
    assert.equal(trusted.report.result, 'VALID', JSON.stringify(trusted.report.checks));
    // And the origin's key as the reader's trust refuses the impostor too.
    assert.equal((await verify(impostor.url, card, ['--trust-key', x(BOARD)])).report.code, 'key_anchor');
  });

  it("a witness policy's quorum is required of the checkpoint", async () => {
    const w = formatVerifierKey('witness.example/w', keyPairFromSeed(Buffer.alloc(32, 6)).publicKey, 0x04);
    const policy = join(dir, 'w.policy');
    writeFileSync(policy, `log ${formatVerifierKey(logOrigin(did), BOARD.publicKey)}\nwitness w ${w}\nquorum w\n`);
    const { status, report } = await verify(site.url, good.sha256, ['--witness-policy', policy]);
    assert.equal(status, 1);
    assert.equal(report.code, 'card_witness_policy');
    const none = join(dir, 'none.policy');
    writeFileSync(none, `log ${formatVerifierKey(logOrigin(did), BOARD.publicKey)}\nquorum none\n`);
    assert.equal((await verify(site.url, good.sha256, ['--witness-policy', none])).status, 0);
  });
});

describe('gspc verify <url> --card on a served release (the real cards, tlog-proofs and tiles)', async () => {
  const signing = testSigning();
  const { dir } = publishRelease(demoCopy(), tempDir(), signing.inputs);
  const app = buildApp({ state: new ServedState(loadRelease(dir), liveSigning(signing)), logLevel: 'silent' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  after(() => app.close());
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const get = async (path: string) => (await fetch(`${url}${path}`)).text();
  const cards = (JSON.parse(await get('/cards/index.json')) as { cards: { sha256: string }[] }).cards;
  const didFile = join(tempDir(), 'did.json');
  writeFileSync(didFile, await get('/.well-known/did.json'));

  it('VALID under a saved DID document; UNVERIFIABLE_KEY when the DID host cannot be read and nothing anchors the keys', async () => {
    const a = cards[cards.length - 1]!.sha256;
    const r = await gspc(['verify', url, '--card', a, '--trust-did-document', didFile, '--json']);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.result, 'VALID');
    assert.equal(report.log.origin, logOrigin(signing.did));
    assert.equal(report.requests.paths.includes('/log/entries.json'), false);
    assert.ok(report.requests.tiles >= 1 && report.requests.tiles <= 2, report.requests.paths.join(', '));
    const unanchored = await gspc(['verify', url, '--card', a, '--json']);
    assert.equal(unanchored.status, 1);
    assert.equal(JSON.parse(unanchored.stdout).result, 'UNVERIFIABLE_KEY');
  });
});
