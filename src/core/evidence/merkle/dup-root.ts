/**
 * Root v1, the specification's public root: a binary tree over leaf hashes
 * (leaf = SHA-256(0x00 ‖ data)) with node = SHA-256(0x01 ‖ left ‖ right), where an odd node at
 * the end of a level is DUPLICATED (combined with itself). Research transparency.md §2.
 *
 * Duplication makes roots collide across sizes (CVE-2012-2459): dupRoot([a,b,c]) equals
 * dupRoot([a,b,c,c]), with or without the 0x00/0x01 prefixes. For a fixed n the shape is fixed,
 * so binding n removes the collision (§2.3): a signature must cover `boundRootDigest(n, root)`
 * (or n and root together), and a verifier must take n from that signed record, never from the
 * proof, which does not authenticate n (§2.4).
 */
import { createHash } from 'node:crypto';
import { bytesEqual, checkLeafHashes, EMPTY_ROOT, HASH_SIZE, isHash, nodeHash } from './hash.js';
import { DupTree } from './dup-tree.js';
import { toIndex, toU64 } from './u64.js';
import { fail, VERIFIED, type Verdict } from './verdict.js';

/** Domain-separation tag of the bound digest. */
export const BOUND_ROOT_TAG = 'gspc-root/v1\n';

/** One level up: pairs left to right, an odd last node combined with itself. */
function up(level: readonly Uint8Array[]): Buffer[] {
  const next: Buffer[] = [];
  for (let j = 0; j < level.length; j += 2) next.push(nodeHash(level[j]!, level[j + 1] ?? level[j]!));
  return next;
}

/**
 * The root v1 over `leafHashes` (32 bytes each). One leaf: its hash. No leaves: SHA-256("")
 * (our choice, as RFC 6962 does; §2.4 proofs need n ≥ 1). Throws `TypeError` on a bad hash.
 */
export function dupRoot(leafHashes: readonly Uint8Array[]): Buffer {
  checkLeafHashes(leafHashes);
  if (leafHashes.length === 0) return Buffer.from(EMPTY_ROOT);
  let level: readonly Uint8Array[] = leafHashes;
  while (level.length > 1) level = up(level);
  return Buffer.from(level[0]!);
}

/**
 * The inclusion proof of leaf `index` (research §2.4 generation): bottom-up, at each level the
 * sibling p^1 if it exists; a lone last node emits nothing (its sibling is itself), which keeps
 * proofs non-malleable. From a built `DupTree` this is O(log n); from an array it rebuilds the
 * tree, O(n) hashes. Throws `RangeError` unless 0 ≤ index < n.
 */
export function dupInclusionProof(source: readonly Uint8Array[] | DupTree, index: number): Uint8Array[] {
  if (source instanceof DupTree) return source.inclusionProof(index);
  checkLeafHashes(source);
  toIndex(index, 'index');
  if (index >= source.length) throw new RangeError(`index ${index} is not below the leaf count ${source.length}`);
  const proof: Uint8Array[] = [];
  let level: readonly Uint8Array[] = source;
  let p = index;
  while (level.length > 1) {
    const sibling = p % 2 === 0 ? p + 1 : p - 1;
    if (sibling < level.length) proof.push(Buffer.from(level[sibling]!));
    level = up(level);
    p = Math.floor(p / 2);
  }
  return proof;
}

/**
 * Recomputes the root from (leafHash, index, n, proof) exactly as research §2.4 verifies, or
 * gives the reason it cannot: n ≥ 1, 0 ≤ index < n, every element 32 bytes, and the proof
 * consumed exactly.
 */
function walk(
  leafHash: Uint8Array,
  index: number | bigint,
  n: number | bigint,
  proof: readonly Uint8Array[],
): { ok: true; root: Uint8Array } | { ok: false; reason: string } {
  const i = toU64(index, 'index');
  const count = toU64(n, 'n');
  if (!(leafHash instanceof Uint8Array)) throw new TypeError('leafHash must be a Uint8Array');
  if (!Array.isArray(proof)) throw new TypeError('proof must be an array of hashes');
  if (!isHash(leafHash)) return { ok: false, reason: 'leaf hash is not 32 bytes' };
  if (count < 1n) return { ok: false, reason: 'a root v1 proof needs n ≥ 1' };
  if (i >= count) return { ok: false, reason: `leaf index ${i} is not below n = ${count}` };
  for (let k = 0; k < proof.length; k++) {
    if (!(proof[k] instanceof Uint8Array)) throw new TypeError(`proof[${k}] must be a Uint8Array`);
    if (!isHash(proof[k])) return { ok: false, reason: `proof[${k}] is not 32 bytes` };
  }
  let w = count;
  let p = i;
  let r: Uint8Array = leafHash;
  let j = 0;
  while (w > 1n) {
    if ((p & 1n) === 1n) {
      if (j >= proof.length) return { ok: false, reason: 'proof is shorter than the path for this index and n' };
      r = nodeHash(proof[j++]!, r);
    } else if (p + 1n < w) {
      if (j >= proof.length) return { ok: false, reason: 'proof is shorter than the path for this index and n' };
      r = nodeHash(r, proof[j++]!);
    } else {
      // The duplicated lone node: combined with itself, consuming no proof element.
      r = nodeHash(r, r);
    }
    p >>= 1n;
    w = (w + 1n) >> 1n;
  }
  if (j !== proof.length) return { ok: false, reason: 'proof is longer than the path for this index and n' };
  return { ok: true, root: r };
}

/**
 * Verifies a root v1 inclusion proof against a bare root, exactly per research §2.4. The same
 * proof may also verify for n ± 1 against the same root: n must come from the signed record.
 * Prefer `verifyBoundDupInclusion`, which checks n through the bound digest. Throws
 * `RangeError` when index or n is not a u64, `TypeError` on non-byte arguments.
 */
export function verifyDupInclusion(
  leafHash: Uint8Array,
  index: number | bigint,
  n: number | bigint,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): Verdict {
  if (!(root instanceof Uint8Array)) throw new TypeError('root must be a Uint8Array');
  const w = walk(leafHash, index, n, proof);
  if (!w.ok) return fail(w.reason);
  return bytesEqual(w.root, root) ? VERIFIED : fail('the computed root does not match the expected root');
}

function u64be(n: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n);
  return out;
}

/**
 * The value a root v1 signature must cover (hash-level binding, research §2.3 b):
 * SHA-256("gspc-root/v1\n" ‖ u64be(n) ‖ root). Throws `RangeError` when n is not a u64 or the
 * root is not 32 bytes.
 */
export function boundRootDigest(n: number | bigint, root: Uint8Array): Buffer {
  const count = toU64(n, 'n');
  if (!(root instanceof Uint8Array) || root.length !== HASH_SIZE) throw new RangeError('root must be 32 bytes');
  return createHash('sha256').update(BOUND_ROOT_TAG, 'utf8').update(u64be(count)).update(root).digest();
}

/**
 * Verifies a root v1 inclusion proof against the signed bound digest: recomputes the root for
 * the claimed n and requires boundRootDigest(n, root) = `boundDigest`. A proof replayed with
 * n ± 1 fails here even when it reproduces the same bare root. Throws as `verifyDupInclusion`.
 */
export function verifyBoundDupInclusion(
  leafHash: Uint8Array,
  index: number | bigint,
  n: number | bigint,
  proof: readonly Uint8Array[],
  boundDigest: Uint8Array,
): Verdict {
  if (!(boundDigest instanceof Uint8Array)) throw new TypeError('boundDigest must be a Uint8Array');
  const w = walk(leafHash, index, n, proof);
  if (!w.ok) return fail(w.reason);
  return bytesEqual(boundRootDigest(n, w.root), boundDigest)
    ? VERIFIED
    : fail('the bound digest of (n, computed root) does not match');
}
