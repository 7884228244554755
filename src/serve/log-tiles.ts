/**
 * The card log as C2SP tlog-tiles (issue 42, docs/formats.md "Log tiles"): hash tiles at
 * `/log/tile/<L>/<N>[.p/<W>]` and entry bundles at `/log/tile/entries/<N>[.p/<W>]`, beside
 * `/log/checkpoint`. Which tiles exist is a function of the log's size and its earlier
 * checkpoints' sizes (`publishedTiles`); each is prepared on its first read, from a tree built
 * once per release (a hash tile is a view of its stored hashes, no hashing), and kept: a request
 * copies bytes, it never walks the log.
 *
 * Full tiles never change, so they are cached for a year as `immutable` (TT3); a partial tile's
 * bytes never change either, but it is dropped once its tile fills, so it gets the release
 * documents' 300 seconds.
 */
import { logLeaves } from '../core/evidence/card-log.js';
import { MerkleTree } from '../core/evidence/merkle/merkle-tree.js';
import {
  entryBundle,
  entryBundlePath,
  hashTilePath,
  parseTilePath,
  publishedTiles,
  TILE_WIDTH,
  type Tile,
  tileBytes,
} from '../core/evidence/merkle/tiles.js';
import type { LoadedRelease } from '../release/load.js';
import { CACHE_CONTROL, prepare, type Prepared } from './prepared-bytes.js';

/** The URL prefix of the tiles: the log's prefix (`/log`, its origin's path) and `tile/`. */
export const LOG_PREFIX = '/log/';
/** What a full tile or bundle is served with: it never changes. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
const OCTETS = 'application/octet-stream';

export interface LogTiles {
  /** Every tile and bundle path the log publishes (`/log/tile/…`), hash tiles first. */
  paths(): string[];
  /** The prepared tile or bundle at `path`, or undefined when the log publishes none there. */
  read(path: string): Prepared | undefined;
}

type Log = LoadedRelease['evidence']['log'];
const cache = new WeakMap<Log, LogTiles>();
const trees = new WeakMap<Log, MerkleTree>();

/**
 * The RFC 6962 tree of a release's log, built once per loaded release on first use and shared by
 * the tiles and the log's proofs (prepared-log.ts): 64 bytes a leaf, 2.4 s at 1,000,000 entries.
 */
export function logTree(log: Log): MerkleTree {
  let tree = trees.get(log);
  if (tree === undefined) {
    tree = new MerkleTree(logLeaves(log.entries));
    trees.set(log, tree);
  }
  return tree;
}

/** The tiles of a release's log, made once per loaded release (a key or witness swap keeps them). */
export function logTiles(release: LoadedRelease): LogTiles {
  const log = release.evidence.log;
  let tiles = cache.get(log);
  if (tiles === undefined) {
    tiles = makeTiles(
      log,
      log.history.map((h) => h.tree_size),
    );
    cache.set(log, tiles);
  }
  return tiles;
}

const key = (kind: 'hash' | 'entries', t: Tile) => `${kind} ${t.level} ${t.index} ${t.width}`;

function makeTiles(log: Log, earlierSizes: readonly number[]): LogTiles {
  const { entries } = log;
  const published = publishedTiles(entries.length, earlierSizes);
  const exists = new Set([
    ...published.map((t) => key('hash', t)),
    ...published.filter((t) => t.level === 0).map((t) => key('entries', t)),
  ]);
  const prepared = new Map<string, Prepared>();
  const serve = (bytes: Uint8Array, t: Tile): Prepared => {
    const p = prepare(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), OCTETS);
    return { ...p, headers: { ...p.headers, 'cache-control': t.width === TILE_WIDTH ? IMMUTABLE : CACHE_CONTROL } };
  };
  return {
    paths: () => [
      ...published.map((t) => `${LOG_PREFIX}${hashTilePath(t)}`),
      ...published.filter((t) => t.level === 0).map((t) => `${LOG_PREFIX}${entryBundlePath(t)}`),
    ],
    read(path) {
      if (!path.startsWith(LOG_PREFIX)) return undefined;
      const address = parseTilePath(path.slice(LOG_PREFIX.length));
      if (address === undefined || !exists.has(key(address.kind, address.tile))) return undefined;
      let p = prepared.get(path);
      if (p === undefined) {
        const t = address.tile;
        if (address.kind === 'hash') {
          p = serve(tileBytes(logTree(log), t), t);
        } else {
          const from = t.index * TILE_WIDTH;
          const raw = entries.slice(from, from + t.width).map((h) => Buffer.from(h, 'hex'));
          p = serve(entryBundle(raw), t);
        }
        prepared.set(path, p);
      }
      return p;
    },
  };
}
