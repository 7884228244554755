/**
 * One origin of a did:web DID and the views around it (issue 36), shared by the tests that judge
 * key changes through `gspc verify`, the browser and the served endpoints
 * (test/verify/keys-from-host.e2e.test.ts) and through `gspc monitor`
 * (test/monitor/key-changes.e2e.test.ts), each reusing one origin for every case. The origin
 * (`hostOrigin`) is a front server on `localhost:<port>` (the DID's host) in front of a real
 * service (`buildApp`) that can be swapped for another state of the same DID (a key changed) or
 * overridden path by path (key documents a test builds), and can be taken down and brought back
 * on the same port. Its keys are fixed seeds, the identity root included, so every key change
 * is signed here with core functions (`keyChanges`), whatever the key store does.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';
import { buildApp } from '../../src/app.js';
import { canonicalBytesStrict } from '../../src/core/crypto/canonical-json.js';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import { logLeaves } from '../../src/core/evidence/card-log.js';
import { didDocument, type PublishedKey } from '../../src/core/evidence/did.js';
import { MerkleTree } from '../../src/core/evidence/merkle/merkle-tree.js';
import {
  KEY_TRANSITION_SCHEMA,
  type KeyTransition,
  type LegacyRevocationTransition,
  signRevocation,
  signTransition,
  transitionsDocument,
} from '../../src/core/evidence/key-transition.js';
import { BOARD_KEY, ROOT_KEY, type Signer, type SignerState } from '../../src/core/evidence/signer.js';
import { type LoadedRelease, loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { ServedState } from '../../src/serve/served-state.js';
import type { SigningLive } from '../../src/serve/signed-board.js';
import { freePort } from './process.js';
import { demoCorpus, tempDir } from './tmp.js';

export type Key = Signer & { x: string; fragment: string };

/** A key of `did` from a fixed seed, under `fragment`. */
export function keyOf(did: string, fragment: string, seed: number): Key {
  const pair = keyPairFromSeed(Buffer.alloc(32, seed));
  return {
    kid: `${did}#${fragment}`,
    fragment,
    publicKey: pair.publicKey,
    x: pair.publicKey.toString('base64url'),
    sign: (m: Uint8Array) => sign(pair.privateKey, m),
  };
}

export const healthy = (k: Key): SignerState => ({ healthy: true, signer: k });
export const published = (keys: readonly Key[]): PublishedKey[] =>
  keys.map((k) => ({ fragment: k.fragment as PublishedKey['fragment'], publicKey: k.publicKey }));

/** What the origin's service signs with: board, the two card keys and the identity root (which signs nothing served). */
export function liveOf(
  did: string,
  keys: { board: Key; cards: [Key, Key]; root: Key },
  transitions: KeyTransition[] = [],
) {
  const live: SigningLive = {
    did,
    boardKey: healthy(keys.board),
    published: published([keys.board, ...keys.cards, keys.root]),
    cardKey: healthy(keys.cards[1]),
    ...(transitions.length > 0 && { transitions }),
  };
  return live;
}

/** A real service over `release` signed with `live`, on 127.0.0.1; closed when the file ends. */
export async function serveState(
  release: LoadedRelease,
  live: SigningLive,
  baseUrl: string,
  keysAtDidHost = false,
): Promise<{ url: string; state: ServedState }> {
  const state = new ServedState(release, live);
  const app = buildApp({ state, logLevel: 'silent', baseUrl, keysAtDidHost });
  after(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, state };
}

/**
 * A server that answers as `target()` does, byte for byte, except for the paths `overrides`
 * gives (JSON, readable from any origin, as the service serves its documents).
 */
export async function proxy(
  target: () => string,
  overrides: () => ReadonlyMap<string, unknown> = () => new Map(),
  port = 0,
): Promise<{ url: string; port: number; down(): Promise<void>; up(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const own = overrides().get(req.url!.split('?')[0]!);
    if (own !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      res.end(JSON.stringify(own));
      return;
    }
    try {
      const upstream = await fetch(`${target()}${req.url}`, { method: req.method ?? 'GET', redirect: 'manual' });
      const headers: Record<string, string> = {};
      for (const [k, v] of upstream.headers)
        if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) headers[k] = v;
      res.writeHead(upstream.status, headers);
      res.end(Buffer.from(await upstream.arrayBuffer()));
    } catch {
      res.writeHead(502).end();
    }
  });
  const listen = (p: number) => new Promise<void>((r) => server.listen(p, '127.0.0.1', r));
  await listen(port);
  const bound = (server.address() as AddressInfo).port;
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    async down() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
    up: () => listen(bound),
  };
}

/** The keys of one DID: its board key, its two card keys and its identity root. */
export interface KeySet {
  board: Key;
  cards: [Key, Key];
  root: Key;
}

/** The keys of `did` from fixed seeds: the origin's (`K`), the ones a key change moves to, and a stranger's. */
export function keysOf(did: string) {
  return {
    K: {
      board: keyOf(did, BOARD_KEY, 1),
      cards: [keyOf(did, 'card-attestation-1', 2), keyOf(did, 'card-attestation-2', 3)] as [Key, Key],
      root: keyOf(did, ROOT_KEY, 4),
    } satisfies KeySet,
    board1: keyOf(did, BOARD_KEY, 5),
    board2: keyOf(did, BOARD_KEY, 6),
    root1: keyOf(did, ROOT_KEY, 7),
    stranger: keyOf(did, BOARD_KEY, 66),
  };
}

const AT = '2026-11-03T00:00:00Z';

/** The RFC 6962 root (hex) of a log's first `n` entries: what a revocation trusting them binds. */
export function rootOfFirst(entries: readonly string[], n: number): string {
  if (n === 0) return createHash('sha256').digest('hex');
  return Buffer.from(new MerkleTree(logLeaves(entries.slice(0, n))).root()).toString('hex');
}

/** Key changes of `did` (whose keys were `K`), signed with core functions, and the documents that serve them. */
export function keyChanges(did: string, K: KeySet, logEntries: () => readonly string[] = () => []) {
  /** A rotation of `fragment` from `from` to `to`, signed by both (or by `signers`: the retired key's, the new key's). */
  const rotation = (fragment: string, sequence: number, from: Key, to: Key, signers: [Key, Key] = [from, to]) =>
    signTransition(
      {
        schema: KEY_TRANSITION_SCHEMA,
        did,
        fragment: fragment as never,
        sequence,
        kind: 'rotation',
        old_x: from.x,
        new_x: to.x,
        at: AT,
      },
      signers[0],
      signers[1],
    );
  /** The body of a revocation of the board key `K.board` (trusting `trusted` log entries), moving to `next`, authorised by `root`. */
  const revocationBody = (trusted: number, next: Key, root: Key = K.root) => ({
    schema: KEY_TRANSITION_SCHEMA as typeof KEY_TRANSITION_SCHEMA,
    did,
    fragment: BOARD_KEY as typeof BOARD_KEY,
    sequence: 1,
    kind: 'revocation' as const,
    old_x: K.board.x,
    new_x: next.x,
    at: AT,
    revoked_x: K.board.x,
    compromised_since: '2026-11-02T00:00:00Z',
    trusted_size: trusted,
    trusted_root: rootOfFirst(logEntries(), trusted),
    root_x: root.x,
  });
  /** That revocation, signed by the identity root `root` and the new key. */
  const revocation = (trusted: number, next: Key, root: Key = K.root) =>
    signRevocation(revocationBody(trusted, next, root), root, next);
  /** The issue-30 form of a revocation: the new key alone signs, as a copy of the public files can. */
  const legacy = (next: Key): LegacyRevocationTransition => {
    const { root_x: _, trusted_root: _r, ...body } = revocationBody(0, next);
    return { ...body, sig_new: next.sign(canonicalBytesStrict(body)).toString('hex') };
  };
  /** A view's key documents after `transitions`, with `board` and `root` as its keys now. */
  const keyDocs = (board: Key, transitions: KeyTransition[], root: Key = K.root) =>
    new Map<string, unknown>([
      ['/.well-known/did.json', didDocument(did, published([board, ...K.cards, root]), transitions)],
      ['/keys/transitions.json', transitionsDocument(did, transitions)],
    ]);
  /** What a publish signs with: `board` signs, after `transitions`, with `root` as the identity root. */
  const signedBy = (board: Key, transitions: KeyTransition[] = [], root: Key = K.root) => ({
    did,
    boardKey: healthy(board),
    publishedKeys: published([board, ...K.cards, root]),
    ...(transitions.length > 0 && { transitions }),
  });
  return { rotation, revocationBody, revocation, legacy, keyDocs, signedBy };
}

/** A history of key changes a view presents: what it is, its transitions, the board key they end at, and why every verifier refuses it. */
export interface ForgedHistory {
  what: string;
  transitions: KeyTransition[];
  board: Key;
  why: RegExp;
}

/**
 * The three key histories the rules of a key change refuse (issue 36, "Done when"): a revocation
 * the identity root did not sign, a rotation a stranger signed for the retired key, and a chain
 * that skips a key. Each ends at a board key the origin never had.
 */
export function forgedHistories(
  keys: ReturnType<typeof keysOf>,
  changes: ReturnType<typeof keyChanges>,
): ForgedHistory[] {
  const { K, board1, board2, stranger } = keys;
  return [
    {
      what: 'a revocation the root did not sign (the issue-30 form: the new key alone)',
      transitions: [changes.legacy(board1)],
      board: board1,
      why: /signed by its new key only .*which no adoption by the identity-root endorses/,
    },
    {
      what: 'a rotation a stranger signed for the retired key',
      transitions: [changes.rotation(BOARD_KEY, 1, K.board, board1, [stranger, board1])],
      board: board1,
      why: /the retired key's signature does not verify/,
    },
    {
      what: 'a chain that skips a key',
      transitions: [changes.rotation(BOARD_KEY, 1, K.board, board1), changes.rotation(BOARD_KEY, 2, K.board, board2)],
      board: board2,
      why: /retires .* but its key then was/,
    },
  ];
}

/**
 * The origin: the demo corpus published for `http://localhost:<port>` with the keys `K`, served
 * by a real service behind a front on that port (the DID's host). `serve` puts another state of
 * the DID behind the front, `present` the first service with some documents answered instead.
 */
export async function hostOrigin() {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const did = `did:web:localhost%3A${port}`;
  const keys = keysOf(did);
  let firstEntries: readonly string[] = [];
  const changes = keyChanges(did, keys.K, () => firstEntries);
  const data = tempDir();
  const publish = (board: Key, transitions: KeyTransition[] = [], root: Key = keys.K.root) =>
    loadRelease(publishRelease(demoCorpus, data, changes.signedBy(board, transitions, root), { publicUrl: url }).dir);
  const release = publish(keys.K.board);
  firstEntries = release.evidence.log.entries;
  const base = await serveState(release, liveOf(did, keys.K), url);
  let backend = base.url;
  let overrides: ReadonlyMap<string, unknown> = new Map();
  const front = await proxy(
    () => backend,
    () => overrides,
    port,
  );
  return {
    port,
    url,
    did,
    ...keys,
    ...changes,
    forged: forgedHistories(keys, changes),
    /** The data directory the origin publishes into. */
    data,
    /** The first release, signed by `K`. */
    release,
    /** The first release's service (what a faithful mirror copies). */
    base,
    front,
    /** The next release of the demo corpus, logging `transitions`, signed by `board`, with `root` as the identity root. */
    publish,
    /** The origin serves `served` (default: the first release) with `board` and `root` after `transitions`. */
    async serve(board: Key, root: Key, transitions: KeyTransition[], served: LoadedRelease = release) {
      overrides = new Map();
      backend = (await serveState(served, liveOf(did, { ...keys.K, board, root }, transitions), url)).url;
    },
    /** The origin's first service again, with `documents` (path → JSON) answered instead of its own. */
    present(documents: ReadonlyMap<string, unknown> = new Map()) {
      backend = base.url;
      overrides = documents;
    },
  };
}
