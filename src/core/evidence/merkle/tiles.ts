/**
 * C2SP tlog-tiles (c2sp.org/tlog-tiles, read at C2SP/C2SP 5ba5ee8): where each tile of an
 * RFC 6962 tree lives, what it holds, and the entry bundles beside it. Pure coordinates and
 * bytes; serving and fetching are elsewhere.
 *
 * - A tile at level L, index N holds the hashes MTH(D[(N·256+i)·256^L : (N·256+i+1)·256^L]),
 *   i = 0..W−1: the complete subtrees of height 8L, 256 to a full tile (8,192 bytes).
 * - For a tree of size s, level L has floor(s / 256^(L+1)) full tiles and, when
 *   w = floor(s / 256^L) mod 256 is not 0, one partial tile of width w (never an empty one).
 * - Paths: `tile/<L>/<N>[.p/<W>]` and `tile/entries/<N>[.p/<W>]`, N written as 3-digit
 *   elements, all but the last prefixed `x` (1234067 → `x001/x234/067`). Go's tlog writes
 *   `tile/8/L/N` (the height); C2SP has none, the height is always 8.
 * - An entry bundle is the entries of a level-0 tile, each a big-endian uint16 length and the
 *   entry's bytes; entry i hashes (SHA-256(0x00 ‖ entry)) to hash i of the level-0 tile.
 *
 * Sizes and indices are numbers (safe integers): a tree held in memory has fewer than 2^31 leaves.
 */
import { toIndex } from './u64.js';

/** Tree levels per tile: a tile is a subtree of height 8. */
export const TILE_HEIGHT = 8;
/** Hashes in a full tile (and entries in a full bundle). */
export const TILE_WIDTH = 256;
/** The largest entry a bundle can hold (its length is a uint16). */
export const MAX_ENTRY_BYTES = 0xffff;

/** A tile: level L (0 = leaf hashes), index N within the level, width W (1..256; 256 = full). */
export interface Tile {
  level: number;
  index: number;
  width: number;
}

/** A parsed tile path: a hash tile, or the entry bundle of the level-0 tile with that index and width. */
export interface TileAddress {
  kind: 'hash' | 'entries';
  tile: Tile;
}

const pow256 = (level: number) => 2 ** (TILE_HEIGHT * level);

/** Number of hashes at tile level `level` of a tree of `size`: floor(size / 256^level). */
export function hashesAtLevel(size: number, level: number): number {
  return Math.floor(toIndex(size, 'size') / pow256(level));
}

/**
 * The width of tile (level, index) in a tree of `size`: 256 when full, 1..255 when it is the
 * partial right edge, 0 when the tree has no such tile.
 */
export function tileWidth(size: number, level: number, index: number): number {
  const n = hashesAtLevel(size, level);
  return Math.max(0, Math.min(TILE_WIDTH, n - index * TILE_WIDTH));
}

/** Every hash tile of a tree of `size`, level by level, left to right (none for an empty tree). */
export function treeTiles(size: number): Tile[] {
  const out: Tile[] = [];
  for (let level = 0; hashesAtLevel(size, level) > 0; level++) {
    const n = hashesAtLevel(size, level);
    for (let index = 0; index * TILE_WIDTH < n; index++)
      out.push({ level, index, width: tileWidth(size, level, index) });
  }
  return out;
}

/**
 * The hash tiles a log of `size` publishes: every tile of that size, and the partial tiles of
 * its earlier checkpoints (`earlierSizes`) whose tile has not filled since. The spec requires
 * the partial tiles of every size a checkpoint was made for, and allows dropping one once its
 * full tile is served; a partial tile is a prefix of the wider one, so it costs no hashing.
 * Sorted by level, index, then width.
 */
export function publishedTiles(size: number, earlierSizes: readonly number[]): Tile[] {
  const out = new Map<string, Tile>();
  for (const t of treeTiles(size)) out.set(`${t.level}/${t.index}/${t.width}`, t);
  for (const s of earlierSizes) {
    if (s > size) throw new RangeError(`an earlier checkpoint's size ${s} is above the log's size ${size}`);
    for (const t of treeTiles(s))
      if (t.width < TILE_WIDTH && tileWidth(size, t.level, t.index) < TILE_WIDTH)
        out.set(`${t.level}/${t.index}/${t.width}`, t);
  }
  return [...out.values()].sort((a, b) => a.level - b.level || a.index - b.index || a.width - b.width);
}

/** Every entry bundle of a tree of `size` (the level-0 tiles, as bundles). */
export function treeBundles(size: number): Tile[] {
  return treeTiles(size).filter((t) => t.level === 0);
}

/** N as the spec writes it: 3-digit elements, all but the last prefixed `x`. */
export function tileIndexPath(index: number): string {
  toIndex(index, 'tile index');
  let n = index;
  let path = String(n % 1000).padStart(3, '0');
  n = Math.floor(n / 1000);
  while (n > 0) {
    path = `x${String(n % 1000).padStart(3, '0')}/${path}`;
    n = Math.floor(n / 1000);
  }
  return path;
}

const widthSuffix = (t: Tile) => (t.width === TILE_WIDTH ? '' : `.p/${t.width}`);

function checkTile(t: Tile): void {
  toIndex(t.level, 'tile level');
  toIndex(t.index, 'tile index');
  if (t.level > 63) throw new RangeError(`tile level ${t.level} is above 63`);
  if (!Number.isInteger(t.width) || t.width < 1 || t.width > TILE_WIDTH)
    throw new RangeError(`tile width must be 1..${TILE_WIDTH}, got ${t.width}`);
}

/** `tile/<L>/<N>[.p/<W>]`, relative to the log's prefix. */
export function hashTilePath(t: Tile): string {
  checkTile(t);
  return `tile/${t.level}/${tileIndexPath(t.index)}${widthSuffix(t)}`;
}

/** `tile/entries/<N>[.p/<W>]` of level-0 tile `t`, relative to the log's prefix. */
export function entryBundlePath(t: Tile): string {
  checkTile(t);
  if (t.level !== 0) throw new RangeError('entry bundles exist only at level 0');
  return `tile/entries/${tileIndexPath(t.index)}${widthSuffix(t)}`;
}

const TILE_PATH = /^tile\/(entries|0|[1-9][0-9]?)\/((?:x[0-9]{3}\/)*[0-9]{3})(?:\.p\/([1-9][0-9]{0,2}))?$/;

/**
 * The tile a path (relative to the log's prefix) names, or undefined unless it is written
 * exactly as the spec writes it: no leading zeros, N in its one canonical encoding
 * (`x000/001` is not 1), L ≤ 63, W 1..255.
 */
export function parseTilePath(path: string): TileAddress | undefined {
  const m = TILE_PATH.exec(path);
  if (!m) return undefined;
  const level = m[1] === 'entries' ? 0 : Number(m[1]);
  if (level > 63) return undefined;
  const elements = m[2]!.split('/');
  if (elements.length > 6) return undefined; // 10^18 and up: not a safe integer
  const index = elements.reduce((n, e) => n * 1000 + Number(e.replace('x', '')), 0);
  // Six elements reach 10^18 − 1, past 2^53 − 1: such an index has lost precision (and
  // tileIndexPath would throw, a 500 for a request path), so it names no tile.
  if (!Number.isSafeInteger(index)) return undefined;
  const width = m[3] === undefined ? TILE_WIDTH : Number(m[3]);
  if ((m[3] !== undefined && width >= TILE_WIDTH) || tileIndexPath(index) !== m[2]) return undefined;
  return { kind: m[1] === 'entries' ? 'entries' : 'hash', tile: { level, index, width } };
}

/** The stored hashes a tile holds: `count` consecutive complete subtrees of tree level `treeLevel` from `start`. */
export function tileHashRange(t: Tile): { treeLevel: number; start: number; count: number } {
  checkTile(t);
  return { treeLevel: TILE_HEIGHT * t.level, start: t.index * TILE_WIDTH, count: t.width };
}

/** Anything that holds a tree's complete-subtree hashes (MerkleTree does). */
export interface StoredHashes {
  /** `count` hashes of tree level `level` from index `start`, concatenated (32 bytes each). */
  hashes(level: number, start: number, count: number): Uint8Array;
}

/** The bytes of hash tile `t`, from a tree that stores its hashes. */
export function tileBytes(tree: StoredHashes, t: Tile): Uint8Array {
  const { treeLevel, start, count } = tileHashRange(t);
  return tree.hashes(treeLevel, start, count);
}

/** An entry bundle: each entry as a big-endian uint16 length and its bytes. Throws `RangeError` on an entry over 65,535 bytes. */
export function entryBundle(entries: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const e of entries) {
    if (e.length > MAX_ENTRY_BYTES)
      throw new RangeError(`an entry of ${e.length} bytes does not fit a bundle (at most ${MAX_ENTRY_BYTES})`);
    total += 2 + e.length;
  }
  const out = new Uint8Array(total);
  let o = 0;
  for (const e of entries) {
    out[o] = e.length >>> 8;
    out[o + 1] = e.length & 0xff;
    out.set(e, o + 2);
    o += 2 + e.length;
  }
  return out;
}

/** The entries of a bundle. Throws `RangeError` when a length runs past the end. */
export function parseEntryBundle(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let o = 0;
  while (o < bytes.length) {
    if (o + 2 > bytes.length) throw new RangeError(`entry bundle: a length prefix is cut at byte ${o}`);
    const n = (bytes[o]! << 8) | bytes[o + 1]!;
    if (o + 2 + n > bytes.length) throw new RangeError(`entry bundle: entry at byte ${o} runs past the end`);
    out.push(bytes.subarray(o + 2, o + 2 + n));
    o += 2 + n;
  }
  return out;
}
