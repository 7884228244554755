/** The Node implementation of the verifier's primitives (node:crypto, strict Ed25519). */
import { createHash } from 'node:crypto';
import { verify } from '../core/crypto/ed25519.js';
import type { VerifyCrypto } from '../core/verify/verify-crypto.js';

export const nodeVerifyCrypto: VerifyCrypto = {
  sha256: async (bytes) => createHash('sha256').update(bytes).digest(),
  ed25519Verify: async (pub, msg, sig) => verify(pub, msg, sig),
};
