/**
 * The hashing both Merkle tree shapes share: SHA-256 with RFC 6962 §2.1 / RFC 9162 §2.1.1
 * domain separation (leaf = H(0x00 ‖ data), node = H(0x01 ‖ left ‖ right)).
 */
import * as crypto from 'node:crypto';

/** Bytes in a SHA-256 hash. */
export const HASH_SIZE = 32;

/** The RFC 6962 leaf prefix. */
export const LEAF_PREFIX = 0x00;
/** The RFC 6962 interior-node prefix. */
export const NODE_PREFIX = 0x01;

// `crypto.hash` (one-shot, Node ≥ 20.12) is about 1.5× faster than createHash for 64-byte
// inputs, and tree building is nothing but such calls; older Node 20 releases fall back.
const oneShot: ((data: Uint8Array) => Buffer) | undefined =
  typeof crypto.hash === 'function' ? (data) => crypto.hash('sha256', data, 'buffer') : undefined;

/** SHA-256 of `data`. */
export const sha256: (data: Uint8Array) => Buffer =
  oneShot ?? ((data) => crypto.createHash('sha256').update(data).digest());

/** MTH({}) = SHA-256 of the empty string (RFC 9162 §2.1.1): the root of an empty tree. */
export const EMPTY_ROOT: Buffer = sha256(new Uint8Array(0));

// One reusable input buffer: hashing is synchronous, so no two calls can interleave, and
// copying into it is cheaper than allocating a concatenation per hash.
const SCRATCH_SIZE = 1 + 2 * HASH_SIZE;
const scratch = new Uint8Array(SCRATCH_SIZE);

/** RFC 6962 leaf hash: SHA-256(0x00 ‖ data). */
export function leafHash(data: Uint8Array): Buffer {
  if (!(data instanceof Uint8Array)) throw new TypeError('leaf data must be a Uint8Array');
  if (data.length >= SCRATCH_SIZE)
    return crypto
      .createHash('sha256')
      .update(new Uint8Array([LEAF_PREFIX]))
      .update(data)
      .digest();
  scratch[0] = LEAF_PREFIX;
  scratch.set(data, 1);
  return sha256(scratch.subarray(0, 1 + data.length));
}

/**
 * RFC 6962 interior node hash: SHA-256(0x01 ‖ left ‖ right). The children are normally 32-byte
 * hashes; any length is hashed as given (the RFC 6962 hasher vectors use 4-byte children).
 */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  if (!(left instanceof Uint8Array) || !(right instanceof Uint8Array))
    throw new TypeError('node children must be Uint8Arrays');
  if (left.length !== HASH_SIZE || right.length !== HASH_SIZE) {
    return crypto
      .createHash('sha256')
      .update(new Uint8Array([NODE_PREFIX]))
      .update(left)
      .update(right)
      .digest();
  }
  scratch[0] = NODE_PREFIX;
  scratch.set(left, 1);
  scratch.set(right, 1 + HASH_SIZE);
  return sha256(scratch);
}

/**
 * Node hash of the two adjacent hashes `level[offset .. offset+64)`: the hot loop of tree
 * building, where siblings already sit side by side in one buffer.
 */
export function pairHash(level: Uint8Array, offset: number): Buffer {
  scratch[0] = NODE_PREFIX;
  scratch.set(level.subarray(offset, offset + 2 * HASH_SIZE), 1);
  return sha256(scratch);
}

/** Byte equality of two arrays (public data, so no constant-time requirement). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether `h` is a Uint8Array of exactly 32 bytes. */
export function isHash(h: unknown): h is Uint8Array {
  return h instanceof Uint8Array && h.length === HASH_SIZE;
}

/** Throws `TypeError` unless `leafHashes` is an array of 32-byte Uint8Arrays. */
export function checkLeafHashes(leafHashes: readonly Uint8Array[]): void {
  if (!Array.isArray(leafHashes)) throw new TypeError('leaf hashes must be an array of 32-byte hashes');
  for (let i = 0; i < leafHashes.length; i++) {
    if (!isHash(leafHashes[i])) throw new TypeError(`leaf hash ${i} is not a 32-byte Uint8Array`);
  }
}
