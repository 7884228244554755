/**
 * RFC 6962 §2.1 / RFC 9162 §2.1 Merkle Tree Hash and proof generation, as the RFC's recursive
 * definitions (MTH, PATH, PROOF/SUBPROOF) over a list of leaf hashes. These are the reference
 * the fast `MerkleTree` is tested against; each call costs O(n) hashes, so for many proofs over
 * one tree build a `MerkleTree` once instead.
 *
 * The tree splits n leaves at k, the largest power of two below n; equivalently, an odd last
 * node of a level is promoted unchanged, never duplicated, so sizes cannot collide.
 */
import { checkLeafHashes, EMPTY_ROOT, nodeHash } from './hash.js';
import { toIndex } from './u64.js';

export { leafHash } from './hash.js';

/** k: the largest power of two strictly below n (n ≥ 2). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[lo:hi]) for hi > lo. */
function mth(h: readonly Uint8Array[], lo: number, hi: number): Buffer {
  if (hi - lo === 1) return Buffer.from(h[lo]!);
  const k = split(hi - lo);
  return nodeHash(mth(h, lo, lo + k), mth(h, lo + k, hi));
}

/** MTH(D[n]) of the given leaf hashes; SHA-256("") for none (RFC 9162 §2.1.1). */
export function rootOf(leafHashes: readonly Uint8Array[]): Buffer {
  checkLeafHashes(leafHashes);
  return leafHashes.length === 0 ? Buffer.from(EMPTY_ROOT) : mth(leafHashes, 0, leafHashes.length);
}

/** PATH(m, D[lo:hi]), appended to `out` bottom-up. */
function path(h: readonly Uint8Array[], m: number, lo: number, hi: number, out: Buffer[]): void {
  if (hi - lo === 1) return;
  const k = split(hi - lo);
  if (m < k) {
    path(h, m, lo, lo + k, out);
    out.push(mth(h, lo + k, hi));
  } else {
    path(h, m - k, lo + k, hi, out);
    out.push(mth(h, lo, lo + k));
  }
}

/**
 * The audit path PATH(index, D[n]) (RFC 9162 §2.1.3.1): the hashes from the leaf's sibling up
 * to the root's child. Throws `RangeError` unless 0 ≤ index < leafHashes.length.
 */
export function inclusionProof(leafHashes: readonly Uint8Array[], index: number): Buffer[] {
  checkLeafHashes(leafHashes);
  toIndex(index, 'index');
  if (index >= leafHashes.length)
    throw new RangeError(`index ${index} is not below the tree size ${leafHashes.length}`);
  const out: Buffer[] = [];
  path(leafHashes, index, 0, leafHashes.length, out);
  return out;
}

/** SUBPROOF(m, D[lo:hi], b), appended to `out`. */
function subproof(h: readonly Uint8Array[], m: number, lo: number, hi: number, b: boolean, out: Buffer[]): void {
  if (m === hi - lo) {
    if (!b) out.push(mth(h, lo, hi));
    return;
  }
  const k = split(hi - lo);
  if (m <= k) {
    subproof(h, m, lo, lo + k, b, out);
    out.push(mth(h, lo + k, hi));
  } else {
    subproof(h, m - k, lo + k, hi, false, out);
    out.push(mth(h, lo, lo + k));
  }
}

/**
 * The consistency proof PROOF(oldSize, D[n]) from the first `oldSize` leaves to all of them
 * (RFC 9162 §2.1.4.1). Empty when oldSize = n, and when oldSize = 0 (the empty proof C2SP
 * tlog-witness expects for a first submission). Throws `RangeError` unless 0 ≤ oldSize ≤ n.
 */
export function consistencyProof(leafHashes: readonly Uint8Array[], oldSize: number): Buffer[] {
  checkLeafHashes(leafHashes);
  toIndex(oldSize, 'oldSize');
  const n = leafHashes.length;
  if (oldSize > n) throw new RangeError(`old size ${oldSize} is above the tree size ${n}`);
  const out: Buffer[] = [];
  if (oldSize > 0 && oldSize < n) subproof(leafHashes, oldSize, 0, n, true, out);
  return out;
}
