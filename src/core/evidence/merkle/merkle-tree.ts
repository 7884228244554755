/**
 * An RFC 6962 / RFC 9162 Merkle tree built once from its leaf hashes, answering the root, any
 * inclusion proof and any consistency proof in O(log n) each without hashing (all levels are
 * stored; an odd last node is promoted unchanged, which is exactly the MTH shape). Its answers
 * equal `rootOf`, `inclusionProof` and `consistencyProof` in rfc6962.ts (property-tested).
 *
 * Building costs n − 1 node hashes and ~64 bytes per leaf. Returned hashes are views into the
 * tree's storage: treat them as read-only and copy before mutating.
 */
import { HASH_SIZE } from './hash.js';
import { hashAt } from './levels.js';
import { StoredTree } from './stored-tree.js';
import { toIndex } from './u64.js';

export class MerkleTree extends StoredTree {
  constructor(leafHashes: readonly Uint8Array[] | Uint8Array) {
    super(leafHashes, 'promote');
  }

  /**
   * The consistency proof from the first `oldSize` leaves to this tree (RFC 9162 §2.1.4.1);
   * empty when oldSize is 0 or size. Throws `RangeError` unless 0 ≤ oldSize ≤ size.
   */
  consistencyProof(oldSize: number): Uint8Array[] {
    toIndex(oldSize, 'oldSize');
    if (oldSize > this.size) throw new RangeError(`old size ${oldSize} is above the tree size ${this.size}`);
    const out: Uint8Array[] = [];
    if (oldSize > 0 && oldSize < this.size) this.#subproof(oldSize, 0, this.size, true, out);
    return out;
  }

  /**
   * `count` hashes of tree level `level` from index `start`, concatenated (a view, no copy): the
   * complete subtrees MTH(D[i·2^level : (i+1)·2^level]), what a C2SP tile holds (tiles.ts).
   * Throws `RangeError` for a hash that is not a complete subtree of this tree (the promoted
   * last node of a level is not one).
   */
  hashes(level: number, start: number, count: number): Uint8Array {
    toIndex(level, 'level');
    toIndex(start, 'start');
    toIndex(count, 'count');
    const complete = Math.floor(this.size / 2 ** level);
    if (start + count > complete)
      throw new RangeError(
        `hashes ${start}..${start + count} of level ${level}: the tree has ${complete} complete subtrees there`,
      );
    if (count === 0) return new Uint8Array(0);
    return new Uint8Array(this.levels.buffers[level]!, start * HASH_SIZE, count * HASH_SIZE);
  }

  /**
   * MTH(D[lo:hi]) for the ranges the RFC recursion visits: lo is a multiple of the smallest
   * power of two 2^L ≥ hi − lo, and hi is lo + 2^L or the tree size. Such a range is exactly the
   * node at level L, index lo / 2^L, of the promote-odd-node tree.
   */
  #range(lo: number, hi: number): Uint8Array {
    let level = 0;
    while (2 ** level < hi - lo) level++;
    return hashAt(this.levels, level, lo / 2 ** level);
  }

  /** SUBPROOF(m, D[lo:hi], b) of RFC 9162 §2.1.4.1, appended to `out`. */
  #subproof(m: number, lo: number, hi: number, b: boolean, out: Uint8Array[]): void {
    if (m === hi - lo) {
      if (!b) out.push(this.#range(lo, hi));
      return;
    }
    let k = 1;
    while (k * 2 < hi - lo) k *= 2;
    if (m <= k) {
      this.#subproof(m, lo, lo + k, b, out);
      out.push(this.#range(lo + k, hi));
    } else {
      this.#subproof(m - k, lo + k, hi, false, out);
      out.push(this.#range(lo, lo + k));
    }
  }
}
