/**
 * The Node implementation of the verifier's primitives (node:crypto, strict Ed25519).
 * Public keys arrive as raw bytes; building a KeyObject costs about as much as a verify, so
 * each key's KeyObject is built once and kept (a service has a handful of keys).
 */
import type { KeyObject } from 'node:crypto';
import { publicKeyObject, verify } from '../core/crypto/ed25519.js';
import { sha256 } from '../core/evidence/merkle/hash.js';
import type { VerifyCrypto } from '../core/crypto/verify-crypto.js';

const MAX_CACHED_KEYS = 256;
const keyObjects = new Map<string, KeyObject>();

function keyObjectOf(raw: Uint8Array): KeyObject | undefined {
  if (raw.length !== 32) return undefined;
  const id = Buffer.from(raw).toString('hex');
  let k = keyObjects.get(id);
  if (!k) {
    if (keyObjects.size >= MAX_CACHED_KEYS) keyObjects.clear();
    k = publicKeyObject(raw);
    keyObjects.set(id, k);
  }
  return k;
}

export const nodeVerifyCrypto: VerifyCrypto = {
  sha256: async (bytes) => sha256(bytes),
  ed25519Verify: async (pub, msg, sig) => {
    const key = keyObjectOf(pub);
    return key !== undefined && verify(key, msg, sig);
  },
};
