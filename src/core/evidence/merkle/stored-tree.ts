/**
 * A binary hash tree built once from its leaf hashes with every level stored, so the root and
 * any inclusion proof are answered without hashing. The two shapes the service publishes differ
 * only in what happens to an odd last node: `promote` (RFC 6962, the log) or `duplicate` (the
 * specification's public root v1). Returned hashes are views into the tree's storage: treat them
 * as read-only and copy before mutating.
 */
import { EMPTY_ROOT, HASH_SIZE } from './hash.js';
import { buildLevels, hashAt, packLeaves, siblingPath, topOf, type Levels } from './levels.js';
import { toIndex } from './u64.js';

export abstract class StoredTree {
  /** Number of leaves (the n a signature must bind). */
  readonly size: number;
  protected readonly levels: Levels;

  /**
   * Builds the tree over 32-byte leaf hashes (leaf = SHA-256(0x00 ‖ data), see `leafHash`),
   * given as an array or as their concatenation (n × 32 bytes). The input is copied. Throws
   * `TypeError` on a hash that is not 32 bytes.
   */
  protected constructor(leafHashes: readonly Uint8Array[] | Uint8Array, oddNode: 'promote' | 'duplicate') {
    const level0 = packLeaves(leafHashes);
    this.size = level0.length / HASH_SIZE;
    this.levels = buildLevels(level0, oddNode);
  }

  /** The root of all leaves; SHA-256("") for an empty tree. */
  root(): Uint8Array {
    return this.size === 0 ? Buffer.from(EMPTY_ROOT) : topOf(this.levels);
  }

  /** The hash of leaf `index`. Throws `RangeError` unless 0 ≤ index < size. */
  leafHash(index: number): Uint8Array {
    this.checkIndex(index);
    return hashAt(this.levels, 0, index);
  }

  /**
   * The inclusion proof of leaf `index`, bottom-up, sibling first (RFC 9162 §2.1.3.1 for the
   * log; transparency.md §2.4, no element for a lone last node, for root v1). Throws
   * `RangeError` unless 0 ≤ index < size.
   */
  inclusionProof(index: number): Uint8Array[] {
    this.checkIndex(index);
    return siblingPath(this.levels, index);
  }

  protected checkIndex(index: number): void {
    toIndex(index, 'index');
    if (index >= this.size) throw new RangeError(`index ${index} is not below the tree size ${this.size}`);
  }
}
