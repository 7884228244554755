/**
 * A log's growth checked from its old right edge and its new leaves (issue 42, item 3, decision
 * MT2): the complete subtrees of a tree of `oldSize` (its "peaks", at most log2 n of them, read
 * from tiles) fold to the old root; the same peaks with the new leaves appended (as a Merkle
 * mountain range merges equal heights) fold to the new root. Both holding proves, under
 * SHA-256's collision resistance, that the old tree is a prefix of the new one (what an RFC 9162
 * consistency proof proves) and that the new leaves are exactly the ones appended, in one
 * computation over O(log n) hashes and the new leaves. Pure.
 */
import { nodeHash } from './hash.js';
import { rangeSubtrees, type Subtree } from './tile-proofs.js';

/** The complete subtrees of [0, size), largest first: the peaks whose hashes a growth check needs. */
export const peaksOf = (size: number): Subtree[] => (size === 0 ? [] : rangeSubtrees(0, size));

/** The RFC 6962 root of the tree whose peaks (largest first) are `hashes`: folded from the right. */
export function foldPeaks(hashes: readonly Uint8Array[]): Uint8Array | undefined {
  if (hashes.length === 0) return undefined;
  let h = hashes[hashes.length - 1]!;
  for (let i = hashes.length - 2; i >= 0; i--) h = nodeHash(hashes[i]!, h);
  return h;
}

/**
 * The peaks of the tree of `oldSize + leafHashes.length` leaves, from the peaks of the first
 * `oldSize` (`peaks`, largest first, as `peaksOf(oldSize)` lists them) and the leaf hashes
 * appended after them.
 */
export function extendPeaks(
  oldSize: number,
  peaks: readonly Uint8Array[],
  leafHashes: readonly Uint8Array[],
): Uint8Array[] {
  const levels = peaksOf(oldSize).map((s) => s.level);
  if (levels.length !== peaks.length)
    throw new RangeError(`a tree of ${oldSize} has ${levels.length} peaks, not ${peaks.length}`);
  const stack = peaks.map((h, i) => ({ h, level: levels[i]! }));
  for (const leaf of leafHashes) {
    let top = { h: leaf, level: 0 };
    while (stack.length > 0 && stack[stack.length - 1]!.level === top.level) {
      const left = stack.pop()!;
      top = { h: nodeHash(left.h, top.h), level: top.level + 1 };
    }
    stack.push(top);
  }
  return stack.map((p) => p.h);
}
