/**
 * RFC 9162 §2.1.3.2 (inclusion) and §2.1.4.2 (consistency) proof verification, written from the
 * RFC text, plus the edge policies of transparency-dev/merkle `proof/verify.go` that its test
 * vectors (test/vectors/merkle) encode. Sizes and indices are u64 (number or bigint).
 */
import { bytesEqual, isHash, nodeHash } from './hash.js';
import { toU64 } from './u64.js';
import { fail, VERIFIED, type Verdict } from './verdict.js';

function checkBytes(value: unknown, name: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) throw new TypeError(`${name} must be a Uint8Array`);
}

function checkProof(proof: readonly Uint8Array[]): Verdict {
  if (!Array.isArray(proof)) throw new TypeError('proof must be an array of hashes');
  for (let i = 0; i < proof.length; i++) {
    checkBytes(proof[i], `proof[${i}]`);
    if (!isHash(proof[i])) return fail(`proof[${i}] is not 32 bytes`);
  }
  return VERIFIED;
}

/**
 * Verifies that `leafHash` is leaf `index` of the tree of `treeSize` leaves with root `root`,
 * by the audit path `proof` (leaf's sibling first). RFC 9162 §2.1.3.2.
 *
 * Fails (as a value) when index ≥ treeSize, the leaf hash or a proof element is not 32 bytes,
 * the proof is too long or too short for (index, treeSize), or the computed root differs.
 * The proof does not authenticate `treeSize` (research §2.4): take it from a signed checkpoint.
 * Throws `RangeError` when index or treeSize is not a u64, `TypeError` on non-byte arguments.
 */
export function verifyInclusion(
  leafHash: Uint8Array,
  index: number | bigint,
  treeSize: number | bigint,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): Verdict {
  const leafIndex = toU64(index, 'index');
  const size = toU64(treeSize, 'treeSize');
  checkBytes(leafHash, 'leafHash');
  checkBytes(root, 'root');
  const shape = checkProof(proof);
  if (!shape.ok) return shape;
  // verify.go checks this too: otherwise an empty leaf hash "verifies" against an empty root.
  if (!isHash(leafHash)) return fail('leaf hash is not 32 bytes');
  if (leafIndex >= size) return fail(`leaf index ${leafIndex} is not below the tree size ${size}`);

  let fn = leafIndex;
  let sn = size - 1n;
  let r: Uint8Array = leafHash;
  for (const p of proof) {
    if (sn === 0n) return fail('proof is longer than the path for this index and size');
    if ((fn & 1n) === 1n || fn === sn) {
      r = nodeHash(p, r);
      // A right-edge node with no right sibling: skip the levels where it is carried up unchanged.
      while ((fn & 1n) === 0n && fn !== 0n) {
        fn >>= 1n;
        sn >>= 1n;
      }
    } else {
      r = nodeHash(r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  if (sn !== 0n) return fail('proof is shorter than the path for this index and size');
  if (!bytesEqual(r, root)) return fail('the computed root does not match the expected root');
  return VERIFIED;
}

const isPowerOfTwo = (x: bigint) => x > 0n && (x & (x - 1n)) === 0n;

/**
 * Verifies that the tree of `oldSize` leaves with root `oldRoot` is a prefix of the tree of
 * `newSize` leaves with root `newRoot`, by the consistency proof `proof`. RFC 9162 §2.1.4.2
 * for 0 < oldSize < newSize, with the verify.go policies for the other cases:
 * - newSize < oldSize fails;
 * - oldSize = 0 fails ("a proof from the empty tree is meaningless"; C2SP tlog-witness accepts
 *   old size 0 with an empty proof, which belongs in the witness layer, not here);
 * - oldSize = newSize needs an empty proof and equal roots (root length is not checked);
 * - an empty proof for oldSize < newSize fails.
 * Throws `RangeError` when a size is not a u64, `TypeError` on non-byte arguments.
 */
export function verifyConsistency(
  oldSize: number | bigint,
  newSize: number | bigint,
  proof: readonly Uint8Array[],
  oldRoot: Uint8Array,
  newRoot: Uint8Array,
): Verdict {
  const first = toU64(oldSize, 'oldSize');
  const second = toU64(newSize, 'newSize');
  checkBytes(oldRoot, 'oldRoot');
  checkBytes(newRoot, 'newRoot');
  const shape = checkProof(proof);
  if (!shape.ok) return shape;
  if (second < first) return fail(`new size ${second} is smaller than old size ${first}`);
  if (first === 0n) return fail('a consistency proof from the empty tree is meaningless');
  if (first === second) {
    if (proof.length !== 0) return fail('equal sizes need an empty proof');
    return bytesEqual(oldRoot, newRoot) ? VERIFIED : fail('equal sizes with different roots');
  }
  // Step 1.
  if (proof.length === 0) return fail('an empty proof cannot show growth');
  if (!isHash(oldRoot) || !isHash(newRoot)) return fail('a root is not 32 bytes');

  // Step 2: when the old tree is a complete subtree, its root is the proof's implicit first node.
  const path = isPowerOfTwo(first) ? [oldRoot, ...proof] : proof;
  // Steps 3–4.
  let fn = first - 1n;
  let sn = second - 1n;
  while ((fn & 1n) === 1n) {
    fn >>= 1n;
    sn >>= 1n;
  }
  // Step 5.
  let fr: Uint8Array = path[0]!;
  let sr: Uint8Array = path[0]!;
  // Step 6.
  for (let i = 1; i < path.length; i++) {
    const c = path[i]!;
    if (sn === 0n) return fail('proof is longer than needed for these sizes');
    if ((fn & 1n) === 1n || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while ((fn & 1n) === 0n && fn !== 0n) {
        fn >>= 1n;
        sn >>= 1n;
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  // Step 7.
  if (sn !== 0n) return fail('proof is shorter than needed for these sizes');
  if (!bytesEqual(fr, oldRoot)) return fail('the proof does not reproduce the old root');
  if (!bytesEqual(sr, newRoot)) return fail('the proof does not reproduce the new root');
  return VERIFIED;
}
