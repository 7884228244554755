/**
 * Proofs from tiles (c2sp.org/tlog-tiles): which tiles a root, an inclusion proof or a
 * consistency proof of an RFC 6962 tree needs, and the proof computed from them. A client reads
 * O(log n) tiles instead of the whole log.
 *
 * Every hash a proof holds is MTH(D[lo:hi]) of a range the RFC 9162 recursion visits: lo is a
 * multiple of the smallest power of two ≥ hi − lo, and hi is lo + 2^k or the tree size. Such a
 * range is a run of complete subtrees, largest first (the binary digits of hi − lo), and its
 * MTH folds them from the right. A complete subtree (tree level k, index i) is computed from the
 * tile at level floor(k / 8): it is the root of 2^(k mod 8) adjacent hashes of that tile.
 *
 * Nothing here authenticates a tile: a proof computed from tiles is checked like any other,
 * against a signed root (`verifyInclusion`, `verifyConsistency`, or the root itself), and a
 * tampered tile makes that check fail.
 */
import { HASH_SIZE, nodeHash } from './hash.js';
import { type Tile, TILE_HEIGHT, TILE_WIDTH, hashTilePath, tileWidth } from './tiles.js';
import { toIndex } from './u64.js';

/** The complete subtree MTH(D[index·2^level : (index+1)·2^level]). */
export interface Subtree {
  level: number;
  index: number;
}

/** A half-open leaf range [lo, hi) whose MTH a proof holds. */
export type Range = readonly [lo: number, hi: number];

/** The largest power of two strictly below n (n ≥ 2). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The complete subtrees of [lo, hi), left to right, largest first. Throws `RangeError` unless
 * the range is one the RFC recursion visits (lo aligned to each part).
 */
export function rangeSubtrees(lo: number, hi: number): Subtree[] {
  toIndex(lo, 'lo');
  toIndex(hi, 'hi');
  if (hi <= lo) throw new RangeError(`empty range [${lo}, ${hi})`);
  const out: Subtree[] = [];
  let p = lo;
  let rest = hi - lo;
  for (let level = Math.floor(Math.log2(rest)) + 1; level >= 0; level--) {
    const size = 2 ** level;
    if (size > rest) continue;
    if (p % size !== 0) throw new RangeError(`[${lo}, ${hi}) is not a range of an RFC 6962 proof`);
    out.push({ level, index: p / size });
    p += size;
    rest -= size;
  }
  return out;
}

/** The ranges of PATH(index, D[0:size]) (RFC 9162 §2.1.3.1), bottom-up. */
export function inclusionRanges(index: number, size: number): Range[] {
  toIndex(index, 'index');
  toIndex(size, 'size');
  if (index >= size) throw new RangeError(`index ${index} is not below the tree size ${size}`);
  const out: Range[] = [];
  const path = (m: number, lo: number, hi: number): void => {
    if (hi - lo === 1) return;
    const k = split(hi - lo);
    if (m < k) {
      path(m, lo, lo + k);
      out.push([lo + k, hi]);
    } else {
      path(m - k, lo + k, hi);
      out.push([lo, lo + k]);
    }
  };
  path(index, 0, size);
  return out;
}

/** The ranges of PROOF(oldSize, D[0:size]) (RFC 9162 §2.1.4.1); none when oldSize is 0 or size. */
export function consistencyRanges(oldSize: number, size: number): Range[] {
  toIndex(oldSize, 'oldSize');
  toIndex(size, 'size');
  if (oldSize > size) throw new RangeError(`old size ${oldSize} is above the tree size ${size}`);
  const out: Range[] = [];
  const sub = (m: number, lo: number, hi: number, b: boolean): void => {
    if (m === hi - lo) {
      if (!b) out.push([lo, hi]);
      return;
    }
    const k = split(hi - lo);
    if (m <= k) {
      sub(m, lo, lo + k, b);
      out.push([lo + k, hi]);
    } else {
      sub(m - k, lo + k, hi, false);
      out.push([lo, lo + k]);
    }
  };
  if (oldSize > 0 && oldSize < size) sub(oldSize, 0, size, true);
  return out;
}

/**
 * The tile of a tree of `size` (its width as that size makes it) from which subtree `s` is
 * computed. Throws `RangeError` when `s` is not a complete subtree of that tree.
 */
export function tileOfSubtree(size: number, s: Subtree): Tile {
  const level = Math.floor(s.level / TILE_HEIGHT);
  const span = 2 ** (s.level - TILE_HEIGHT * level);
  const first = s.index * span;
  const index = Math.floor(first / TILE_WIDTH);
  const width = tileWidth(size, level, index);
  if (first + span - index * TILE_WIDTH > width)
    throw new RangeError(`subtree (${s.level}, ${s.index}) is not complete in a tree of size ${size}`);
  return { level, index, width };
}

/** Every tile the hashes of `ranges` need, each once, in the order first needed. */
export function tilesForRanges(size: number, ranges: readonly Range[]): Tile[] {
  const out = new Map<string, Tile>();
  for (const [lo, hi] of ranges)
    for (const s of rangeSubtrees(lo, hi)) {
      const t = tileOfSubtree(size, s);
      const key = hashTilePath(t);
      if (!out.has(key)) out.set(key, t);
    }
  return [...out.values()];
}

/** The tiles the root of a tree of `size` needs (its right edge: at most one partial tile per level, and full tiles). */
export const rootTiles = (size: number): Tile[] => (size === 0 ? [] : tilesForRanges(size, [[0, size]]));

/** The tiles an inclusion proof of `index` in a tree of `size` needs, the leaf's own level-0 tile included. */
export const inclusionTiles = (index: number, size: number): Tile[] =>
  tilesForRanges(size, [[index, index + 1], ...inclusionRanges(index, size)]);

/** The tiles a consistency proof from `oldSize` to `size` needs. */
export const consistencyTiles = (oldSize: number, size: number): Tile[] =>
  tilesForRanges(size, consistencyRanges(oldSize, size));

/** Subtree `s` computed from the bytes of its tile `t` (as `tileOfSubtree` names it). */
export function hashFromTile(t: Tile, bytes: Uint8Array, s: Subtree): Uint8Array {
  if (bytes.length !== t.width * HASH_SIZE)
    throw new RangeError(`tile ${hashTilePath(t)} must be ${t.width * HASH_SIZE} bytes, got ${bytes.length}`);
  const span = 2 ** (s.level - TILE_HEIGHT * t.level);
  const from = s.index * span - t.index * TILE_WIDTH;
  if (from < 0 || from + span > t.width)
    throw new RangeError(`subtree (${s.level}, ${s.index}) is not in tile ${hashTilePath(t)}`);
  let level: Uint8Array[] = [];
  for (let i = 0; i < span; i++) level.push(bytes.subarray((from + i) * HASH_SIZE, (from + i + 1) * HASH_SIZE));
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(nodeHash(level[i]!, level[i + 1]!));
    level = next;
  }
  return level[0]!;
}

/** Reads the hash of a complete subtree (from tiles, a stored tree, …). */
export type HashReader = (s: Subtree) => Uint8Array;

/**
 * A reader over the tiles of a tree of `size`: `tile(t)` gives the bytes fetched for `t`
 * (undefined when they were not). Throws `RangeError` when a hash's tile is missing or the
 * wrong length.
 */
export function tileHashReader(size: number, tile: (t: Tile) => Uint8Array | undefined): HashReader {
  return (s) => {
    const t = tileOfSubtree(size, s);
    const bytes = tile(t);
    if (bytes === undefined) throw new RangeError(`tile ${hashTilePath(t)} was not read`);
    return hashFromTile(t, bytes, s);
  };
}

/** MTH(D[lo:hi]) of a proof range, from its complete subtrees folded from the right. */
export function rangeHash(read: HashReader, lo: number, hi: number): Uint8Array {
  const parts = rangeSubtrees(lo, hi).map(read);
  let h = parts[parts.length - 1]!;
  for (let i = parts.length - 2; i >= 0; i--) h = nodeHash(parts[i]!, h);
  return h;
}

/** The root of a tree of `size` ≥ 1. */
export const treeHashFrom = (read: HashReader, size: number): Uint8Array => rangeHash(read, 0, size);

/** The inclusion proof of `index` in a tree of `size`, bottom-up. */
export const inclusionProofFrom = (read: HashReader, index: number, size: number): Uint8Array[] =>
  inclusionRanges(index, size).map(([lo, hi]) => rangeHash(read, lo, hi));

/** The consistency proof from `oldSize` to `size`. */
export const consistencyProofFrom = (read: HashReader, oldSize: number, size: number): Uint8Array[] =>
  consistencyRanges(oldSize, size).map(([lo, hi]) => rangeHash(read, lo, hi));
