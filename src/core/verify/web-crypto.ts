/**
 * The verifier's primitives over WebCrypto (`crypto.subtle`): what the /gspc-verify page injects
 * into the one card verifier (Chromium, Firefox and Safari have Ed25519 in WebCrypto; Node 20
 * has it too, which is how a test checks this adapter against node:crypto on the shared
 * vectors). The SubtleCrypto object is passed in, so this module touches no global.
 *
 * Each public key is imported once (an import costs about as much as a verify) and kept, as the
 * Node adapter keeps its KeyObjects. A key WebCrypto refuses to import, or a verify that throws,
 * is a signature that does not verify: never VALID, never an exception.
 */
import { bytesToHex, hexToBytes, type VerifyCrypto } from '../crypto/verify-crypto.js';

/** The part of SubtleCrypto this adapter uses (structural, so no DOM types are needed). */
export interface SubtleLike {
  digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer>;
  importKey(
    format: 'raw',
    keyData: Uint8Array,
    algorithm: { name: 'Ed25519' },
    extractable: false,
    usages: ['verify'],
  ): Promise<unknown>;
  verify(algorithm: { name: 'Ed25519' }, key: never, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
}

const MAX_CACHED_KEYS = 256;

export function webVerifyCrypto(subtle: SubtleLike): VerifyCrypto {
  const keys = new Map<string, Promise<unknown>>();
  const keyOf = (raw: Uint8Array): Promise<unknown> => {
    const id = bytesToHex(raw);
    let k = keys.get(id);
    if (!k) {
      if (keys.size >= MAX_CACHED_KEYS) keys.clear();
      k = subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']).catch(() => null);
      keys.set(id, k);
    }
    return k;
  };
  return {
    sha256: async (bytes) => new Uint8Array(await subtle.digest('SHA-256', bytes)),
    ed25519Verify: async (publicKey, message, signature) => {
      if (publicKey.length !== 32 || signature.length !== 64) return false;
      const key = await keyOf(publicKey);
      if (key === null) return false;
      try {
        return await subtle.verify({ name: 'Ed25519' }, key as never, signature, message);
      } catch {
        return false;
      }
    },
  };
}

// RFC 8032 §7.1 TEST 2 (public key, message 0x72, signature; test/vectors/ed25519) and FIPS 180-2's SHA-256("abc").
const TEST2_KEY = '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c';
const TEST2_SIG =
  '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00';
const ABC_SHA256 = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

/**
 * Whether the primitives really work here: SHA-256("abc") is right, RFC 8032 TEST 2 verifies
 * and the same signature with one bit flipped does not. A browser without WebCrypto Ed25519
 * fails this, and the page then says so instead of calling every card INVALID.
 */
export async function primitivesWork(crypto: VerifyCrypto): Promise<boolean> {
  try {
    if (bytesToHex(await crypto.sha256(new TextEncoder().encode('abc'))) !== ABC_SHA256) return false;
    const key = hexToBytes(TEST2_KEY)!;
    const sig = hexToBytes(TEST2_SIG)!;
    if (!(await crypto.ed25519Verify(key, Uint8Array.of(0x72), sig))) return false;
    sig[0] = sig[0]! ^ 1;
    return !(await crypto.ed25519Verify(key, Uint8Array.of(0x72), sig));
  } catch {
    return false;
  }
}
