/**
 * Ed25519 public keys as JSON Web Keys (RFC 8037 §2: `kty` `OKP`, `crv` `Ed25519`, `x` the
 * base64url of the 32-byte encoded key), the form DID documents publish as `publicKeyJwk`.
 */
import { encodeBase64url } from './base64url.js';
import { rawFromJwk as rawFromEd25519Jwk } from './jws-verifier.js';
import { PUBLIC_KEY_LENGTH } from './ed25519.js';

export interface Ed25519PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
}

/** The public JWK of a 32-byte encoded Ed25519 key. Throws `RangeError` on any other length. */
export function publicJwk(raw: Uint8Array): Ed25519PublicJwk {
  if (!(raw instanceof Uint8Array) || raw.length !== PUBLIC_KEY_LENGTH) {
    throw new RangeError(
      `an Ed25519 public key is ${PUBLIC_KEY_LENGTH} bytes, got ${raw instanceof Uint8Array ? raw.length : typeof raw}`,
    );
  }
  return { kty: 'OKP', crv: 'Ed25519', x: encodeBase64url(raw) };
}

/**
 * The 32-byte public key of an Ed25519 public JWK, or `undefined` when `jwk` is anything else:
 * not an object, `kty` not `OKP`, `crv` not `Ed25519`, `x` not the canonical unpadded base64url
 * of 32 bytes, a private part `d` (a key document that leaks its private key is not one to
 * trust), `use` other than `sig`, or `alg` other than `EdDSA`/`Ed25519` (RFC 9864). Never throws.
 */
export function rawFromJwk(jwk: unknown): Buffer | undefined {
  // One rule for the server and the browser verifier (src/core/crypto/jws-verifier.ts).
  const raw = rawFromEd25519Jwk(jwk);
  return raw === undefined ? undefined : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
}
