/**
 * The root v1 tree (`dupRoot`) built once, answering the root and every inclusion proof in
 * O(log n) without hashing: all levels are stored, with an odd last node combined with itself
 * (0x01 ‖ x ‖ x) as the specification's public root requires. Its answers equal `dupRoot` and
 * `dupInclusionProof` over the same leaves (property-tested).
 *
 * Building costs n − 1 node hashes (plus one per odd level) and ~64 bytes per leaf. Returned
 * hashes are views into the tree's storage: treat them as read-only and copy before mutating.
 */
import { EMPTY_ROOT, HASH_SIZE } from './hash.js';
import { buildLevels, hashAt, packLeaves, siblingPath, topOf, type Levels } from './levels.js';
import { toIndex } from './u64.js';

export class DupTree {
  /** Number of leaves (the n that `boundRootDigest` must bind). */
  readonly size: number;
  readonly #levels: Levels;

  /**
   * Builds the tree over 32-byte leaf hashes (leaf = SHA-256(0x00 ‖ data), see `leafHash`),
   * given as an array or as their concatenation (n × 32 bytes). The input is copied. Throws
   * `TypeError` on a hash that is not 32 bytes.
   */
  constructor(leafHashes: readonly Uint8Array[] | Uint8Array) {
    const level0 = packLeaves(leafHashes);
    this.size = level0.length / HASH_SIZE;
    this.#levels = buildLevels(level0, 'duplicate');
  }

  /** The root v1 of all leaves (`dupRoot`); SHA-256("") for no leaves. */
  root(): Uint8Array {
    return this.size === 0 ? Buffer.from(EMPTY_ROOT) : topOf(this.#levels);
  }

  /** The hash of leaf `index`. Throws `RangeError` unless 0 ≤ index < size. */
  leafHash(index: number): Uint8Array {
    this.#checkIndex(index);
    return hashAt(this.#levels, 0, index);
  }

  /**
   * The research §2.4 proof of leaf `index`: bottom-up siblings, none for a lone last node.
   * Verify with `verifyDupInclusion(leafHash, index, size, proof, root)`, or against the signed
   * bound digest with `verifyBoundDupInclusion`. Throws `RangeError` unless 0 ≤ index < size.
   */
  inclusionProof(index: number): Uint8Array[] {
    this.#checkIndex(index);
    return siblingPath(this.#levels, index);
  }

  #checkIndex(index: number): void {
    toIndex(index, 'index');
    if (index >= this.size) throw new RangeError(`index ${index} is not below the tree size ${this.size}`);
  }
}
