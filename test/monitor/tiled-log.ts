/**
 * A board log served as C2SP tlog-tiles only, for the monitor's tile tests (issue 42, item 3):
 * synthetic 32-byte entries (as a card's sha256 is an entry, TT1), a DID document at the DID's
 * own host (this server, as localhost:<port>), the checkpoint of the current size signed by the
 * board key, the hash tiles and entry bundles of that size, and nothing else (every release
 * document answers 404, so a poll's digest of them is stable). Every request is recorded with
 * its status and body size, so a test counts what a poll cost. The DID document carries an ETag
 * and answers 304 to a matching If-None-Match, as the service does.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import { logOrigin } from '../../src/core/evidence/card-log.js';
import { leafHash } from '../../src/core/evidence/merkle/hash.js';
import { MerkleTree } from '../../src/core/evidence/merkle/merkle-tree.js';
import { rangeHash, type Subtree } from '../../src/core/evidence/merkle/tile-proofs.js';
import { entryBundle, parseTilePath, tileBytes, tileWidth } from '../../src/core/evidence/merkle/tiles.js';
import { formatCheckpoint } from '../../src/core/evidence/note/checkpoint.js';
import { formatNote, keyId, noteSignature, SIG_TYPE_ED25519 } from '../../src/core/evidence/note/signed-note.js';

/** Entry i of a synthetic log: 32 distinct bytes; `salt` makes another log (a fork) from the same indexes. */
export const syntheticEntry = (i: number, salt = 0): Uint8Array => {
  const e = new Uint8Array(32);
  new DataView(e.buffer).setUint32(0, i);
  new DataView(e.buffer).setUint32(4, salt);
  return e;
};

/** A tree of `n` synthetic entries; entries from `forkFrom` on are another log's (salt 1). */
export function syntheticLog(n: number, forkFrom = Number.POSITIVE_INFINITY) {
  const entry = (i: number) => syntheticEntry(i, i >= forkFrom ? 1 : 0);
  const leaves = new Uint8Array(n * 32);
  for (let i = 0; i < n; i++) leaves.set(leafHash(entry(i)), i * 32);
  const tree = new MerkleTree(leaves);
  return {
    entry,
    tree,
    /** The root of the first `size` entries, from the stored tree (no rehashing). */
    rootAt: (size: number) => rangeHash((s: Subtree) => tree.hashes(s.level, s.index, 1), 0, size),
  };
}

export type SyntheticLog = ReturnType<typeof syntheticLog>;

export interface Served {
  path: string;
  status: number;
  bytes: number;
}

export interface TiledView {
  url: string;
  did: string;
  boardX: string;
  /** Every request served, in order (cleared by the test between polls). */
  log: Served[];
  /** The size served now (the checkpoint and the tiles of that size). */
  size: number;
  /** The log served (the tiles and bundles); `signed` is the one the checkpoint signs (the same unless a test lies). */
  served: SyntheticLog;
  signed: SyntheticLog;
  /** Changes a tile's or bundle's bytes as sent (undefined: 404). */
  tamper?: (path: string, bytes: Buffer) => Buffer | undefined;
  close(): void;
}

const SEED = Buffer.alloc(32, 7);

/**
 * Serves `log` at `size` on 127.0.0.1; its DID is did:web:localhost%3A<its port>, so the DID's
 * host is this server too. `port`: listen there (a second view claiming the same DID).
 */
export async function tiledView(log: SyntheticLog, size: number, didPort?: number): Promise<TiledView> {
  const pair = keyPairFromSeed(SEED);
  const boardX = Buffer.from(pair.publicKey).toString('base64url');
  const view: TiledView = { url: '', did: '', boardX, log: [], size, served: log, signed: log, close: () => undefined };
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const send = (status: number, body: Buffer | string = '', headers: Record<string, string> = {}) => {
      const b = Buffer.from(body);
      view.log.push({ path, status, bytes: status === 200 ? b.length : 0 });
      res.writeHead(status, headers).end(status === 200 ? b : undefined);
    };
    if (path === '/.well-known/did.json') {
      const doc = JSON.stringify({
        '@context': ['https://www.w3.org/ns/did/v1'],
        id: view.did,
        verificationMethod: [
          {
            id: `${view.did}#board-attestation-1`,
            type: 'JsonWebKey2020',
            controller: view.did,
            publicKeyJwk: { kty: 'OKP', crv: 'Ed25519', x: boardX },
          },
        ],
      });
      const etag = `"${createHash('sha256').update(doc).digest('hex').slice(0, 32)}"`;
      if (req.headers['if-none-match'] === etag) return send(304);
      return send(200, doc, { 'content-type': 'application/json', etag });
    }
    if (path === '/log/checkpoint') {
      const origin = logOrigin(view.did);
      const text = formatCheckpoint({
        origin,
        size: view.size,
        rootHash: view.signed.rootAt(view.size),
        extensions: [],
      });
      const line = noteSignature(
        origin,
        keyId(origin, SIG_TYPE_ED25519, pair.publicKey),
        sign(pair.privateKey, Buffer.from(text)),
      );
      return send(200, formatNote(text, [line]), { 'content-type': 'text/plain; charset=utf-8' });
    }
    const a = path.startsWith('/log/') ? parseTilePath(path.slice('/log/'.length)) : undefined;
    if (a === undefined || tileWidth(view.size, a.tile.level, a.tile.index) !== a.tile.width) return send(404);
    const t = a.tile;
    const bytes =
      a.kind === 'hash'
        ? Buffer.from(tileBytes(view.served.tree, t))
        : Buffer.from(entryBundle(Array.from({ length: t.width }, (_, i) => view.served.entry(t.index * 256 + i))));
    const sent = view.tamper === undefined ? bytes : view.tamper(path, bytes);
    return sent === undefined ? send(404) : send(200, sent);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  view.close = () => {
    server.closeAllConnections();
    server.close();
  };
  const port = (server.address() as AddressInfo).port;
  view.url = `http://127.0.0.1:${port}`;
  view.did = `did:web:localhost%3A${didPort ?? port}`;
  return view;
}

/** What a poll cost one view: requests by kind, and the bytes of the bodies sent. */
export function costOf(log: readonly Served[]) {
  const tiles = log.filter((r) => r.path.startsWith('/log/tile/') && !r.path.startsWith('/log/tile/entries/'));
  const bundles = log.filter((r) => r.path.startsWith('/log/tile/entries/'));
  return {
    requests: log.length,
    tiles: tiles.length,
    bundles: bundles.length,
    tileBytes: tiles.reduce((n, r) => n + r.bytes, 0),
    bundleBytes: bundles.reduce((n, r) => n + r.bytes, 0),
    checkpoints: log.filter((r) => r.path === '/log/checkpoint').length,
    /** Answers with a body (200), other than the checkpoint, tiles and bundles. */
    otherBodies: log.filter((r) => r.status === 200 && !r.path.startsWith('/log/')).map((r) => r.path),
    notModified: log.filter((r) => r.status === 304).length,
    notFound: log.filter((r) => r.status === 404).length,
    bytes: log.reduce((n, r) => n + r.bytes, 0),
  };
}
