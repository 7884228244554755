/**
 * Every level of a binary hash tree, each stored as one contiguous buffer of 32-byte hashes
 * (level 0 = leaf hashes, last level = root). Both tree shapes used here pair nodes left to
 * right and differ only at an odd last node: RFC 6962 promotes it unchanged, root v1 hashes it
 * with itself. Level widths are the same in both: w(k+1) = ceil(w(k) / 2).
 *
 * Contiguous storage keeps 1,000,000 leaves at ~64 MB for all levels, puts siblings side by
 * side (a node hash reads one 64-byte span), and lets proofs be views instead of copies.
 */
import { HASH_SIZE, isHash, NODE_PREFIX, pairHash, sha256 } from './hash.js';

/** What happens to an odd last node: RFC 6962 promotes it, root v1 duplicates it. */
export type OddNodeRule = 'promote' | 'duplicate';

/** Leaf hashes packed into one buffer (a copy). Throws `TypeError` on a non-32-byte hash. */
export function packLeaves(leafHashes: readonly Uint8Array[] | Uint8Array): Uint8Array {
  if (leafHashes instanceof Uint8Array) {
    if (leafHashes.length % HASH_SIZE !== 0)
      throw new TypeError(
        `concatenated leaf hashes must be a multiple of ${HASH_SIZE} bytes, got ${leafHashes.length}`,
      );
    // Not .slice(): on a Buffer that is a view, and the tree must own its storage.
    return new Uint8Array(leafHashes);
  }
  if (!Array.isArray(leafHashes))
    throw new TypeError('leaf hashes must be an array of 32-byte hashes or their concatenation');
  const out = new Uint8Array(leafHashes.length * HASH_SIZE);
  for (let i = 0; i < leafHashes.length; i++) {
    const h = leafHashes[i];
    if (!isHash(h)) throw new TypeError(`leaf hash ${i} is not a 32-byte Uint8Array`);
    out.set(h, i * HASH_SIZE);
  }
  return out;
}

/** Every level of a tree; level k is `bytes[k]`, `widths[k]` hashes wide, at offset 0 of `buffers[k]`. */
export interface Levels {
  readonly bytes: readonly Uint8Array[];
  readonly buffers: readonly ArrayBufferLike[];
  readonly widths: readonly number[];
}

/**
 * All levels from `level0` (kept as level 0, not copied; it must start at offset 0 of its
 * buffer, as `packLeaves` output does) up to the root, built with `rule`.
 */
export function buildLevels(level0: Uint8Array, rule: OddNodeRule): Levels {
  if (level0.byteOffset !== 0) throw new RangeError('level 0 must start at offset 0 of its buffer');
  const bytes = [level0];
  let cur = level0;
  let width = level0.length / HASH_SIZE;
  // Positions use 32-bit bit operations below; a typed array cannot hold 2^31 hashes anyway.
  if (width > 2 ** 31 - 1) throw new RangeError(`too many leaves for one tree: ${width}`);
  const dup = new Uint8Array(1 + 2 * HASH_SIZE);
  dup[0] = NODE_PREFIX;
  while (width > 1) {
    const pairs = width >>> 1;
    const next = new Uint8Array(((width + 1) >>> 1) * HASH_SIZE);
    for (let j = 0; j < pairs; j++) next.set(pairHash(cur, 2 * j * HASH_SIZE), j * HASH_SIZE);
    if (width % 2 === 1) {
      const last = cur.subarray((width - 1) * HASH_SIZE, width * HASH_SIZE);
      if (rule === 'promote') {
        next.set(last, pairs * HASH_SIZE);
      } else {
        dup.set(last, 1);
        dup.set(last, 1 + HASH_SIZE);
        next.set(sha256(dup), pairs * HASH_SIZE);
      }
    }
    bytes.push(next);
    cur = next;
    width = (width + 1) >>> 1;
  }
  return { bytes, buffers: bytes.map((b) => b.buffer), widths: bytes.map((b) => b.length / HASH_SIZE) };
}

/** A read-only-by-contract view of hash `index` of level `k` (no copy). */
export function hashAt(levels: Levels, k: number, index: number): Uint8Array {
  return new Uint8Array(levels.buffers[k]!, index * HASH_SIZE, HASH_SIZE);
}

/** The root view; the tree must have at least one leaf. */
export function topOf(levels: Levels): Uint8Array {
  return hashAt(levels, levels.buffers.length - 1, 0);
}

/**
 * The bottom-up sibling path of leaf `index`: at each level below the root, the sibling of the
 * node on the path if it exists. A lone last node has none (promoted in RFC 6962, combined with
 * itself in root v1), so it contributes nothing; that is both RFC 9162 PATH and research §2.4.
 */
export function siblingPath(levels: Levels, index: number): Uint8Array[] {
  // The hot path of "a proof for every leaf": cached buffers and bit operations make it ~3×
  // faster than reading `.buffer` and dividing per level.
  const { buffers, widths } = levels;
  const depth = buffers.length - 1;
  const out: Uint8Array[] = [];
  let p = index;
  for (let k = 0; k < depth; k++) {
    const sibling = p ^ 1;
    if (sibling < widths[k]!) out.push(new Uint8Array(buffers[k]!, sibling * HASH_SIZE, HASH_SIZE));
    p >>>= 1;
  }
  return out;
}
