/**
 * The fixture of test/verify/keys-from-host.e2e.test.ts (issue 36): one origin, reused by every
 * case, and the views around it. The origin is a front server on `localhost:<port>` (the DID's
 * host) in front of a real service (`buildApp`) that can be swapped for another state of the
 * same DID (a key changed) or overridden path by path (key documents a test builds), and can be
 * taken down and brought back on the same port. Its keys are fixed seeds, the identity root
 * included, so every key change is signed here with core functions, whatever the key store does.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';
import { buildApp } from '../../src/app.js';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import type { PublishedKey } from '../../src/core/evidence/did.js';
import type { KeyTransition } from '../../src/core/evidence/key-transition.js';
import type { Signer, SignerState } from '../../src/core/evidence/signer.js';
import type { LoadedRelease } from '../../src/release/load.js';
import { ServedState } from '../../src/serve/served-state.js';
import type { SigningLive } from '../../src/serve/signed-board.js';

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
