/**
 * Compact JWS (RFC 7515 §7.1) signed with Ed25519 under JOSE algorithm `EdDSA` (RFC 8037 §3.1),
 * the format of offer and receipt signatures (specification, "Authentication" 4).
 *
 * Signing is synchronous and uses node:crypto directly: a compact JWS is
 * `base64url(header).base64url(payload).base64url(Ed25519(first two parts as ASCII))`, and a
 * synchronous signer is easier to fail closed around than a promise. Both the protected header
 * and the payload are RFC 8785 canonical JSON, so the same header, payload and key always give
 * the same string. Verification uses jose's `compactVerify` with the algorithm pinned to `EdDSA`.
 */
import { compactVerify, errors } from 'jose';
import type { KeyObject } from 'node:crypto';
import { encodeBase64url } from './base64url.js';
import { parseCompact } from './jws-verifier.js';
import { canonicalBytesStrict } from './canonical-json.js';
import { publicKeyObject, sign, SIGNATURE_LENGTH } from './ed25519.js';

/** The one JOSE algorithm this service signs and accepts. */
export const JWS_ALG = 'EdDSA';

/** Reason given when the signature is checked under a key and fails (specification, "Errors"). */
export const SIGNATURE_DOES_NOT_VERIFY = 'signature does not verify under the resolved key';

/**
 * The key a JWS is signed with: an Ed25519 private `KeyObject`, or any signer whose `sign`
 * returns a 64-byte Ed25519 signature (such as `Signer` in core/evidence). `kid` is the DID URL
 * of the verification method that holds the public key.
 */
export type JwsSigningKey =
  | { kid: string; privateKey: KeyObject }
  | { kid: string; sign(message: Uint8Array): Uint8Array };

/** A JWS protected header. `alg` is checked by the verifier, not by the type. */
export interface JwsHeader {
  alg: string;
  kid?: string;
  typ?: string;
  [name: string]: unknown;
}

/** Header parameters a caller may not set: the signer owns `alg` and `kid`, and `crit`/`b64` change how the JWS is read. */
const RESERVED_HEADER = ['alg', 'kid', 'crit', 'b64'] as const;

/**
 * Signs `payload` (any plain JSON value, serialised with RFC 8785) as a compact JWS with the
 * protected header `{alg: 'EdDSA', kid, ...extraHeader}` (also RFC 8785). Throws `TypeError`
 * when the payload or header is not plain JSON, the kid is empty, `extraHeader` sets a
 * reserved parameter (`alg`, `kid`, `crit`, `b64`), or the signer returns other than 64 bytes.
 */
export function signCompactJws(
  payload: unknown,
  key: JwsSigningKey,
  extraHeader?: Readonly<Record<string, unknown>>,
): string {
  if (typeof key.kid !== 'string' || key.kid === '') throw new TypeError('a JWS signing key needs a non-empty kid');
  for (const name of RESERVED_HEADER) {
    if (extraHeader !== undefined && Object.hasOwn(extraHeader, name))
      throw new TypeError(`the JWS header parameter '${name}' cannot be set by the caller`);
  }
  const header: JwsHeader = { ...extraHeader, alg: JWS_ALG, kid: key.kid };
  const signingInput = `${encodeBase64url(canonicalBytesStrict(header))}.${encodeBase64url(canonicalBytesStrict(payload))}`;
  const message = Buffer.from(signingInput, 'ascii');
  const signature = 'privateKey' in key ? sign(key.privateKey, message) : key.sign(message);
  if (signature.length !== SIGNATURE_LENGTH)
    throw new TypeError(`an Ed25519 signature is ${SIGNATURE_LENGTH} bytes, the signer returned ${signature.length}`);
  return `${signingInput}.${encodeBase64url(signature)}`;
}

/** The parts of a compact JWS that passed the structural checks of {@link parseCompactJws}. */
export interface ParsedCompactJws {
  header: JwsHeader;
  /** The decoded payload bytes (not yet interpreted). */
  payload: Buffer;
  /** The decoded signature bytes (exactly 64). */
  signature: Buffer;
}

export type JwsParseResult = { ok: true; jws: ParsedCompactJws } | { ok: false; reason: string };

/**
 * Structural checks of a compact JWS, without any key (src/core/crypto/jws-verifier.ts
 * `parseCompact`, the one parser, which the browser verifier runs too), as Buffers. It does not
 * check `alg`'s value, the payload's form or the signature.
 */
export function parseCompactJws(jws: unknown): JwsParseResult {
  const p = parseCompact(jws);
  if (!p.ok) return p;
  const buf = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  return { ok: true, jws: { header: p.header, payload: buf(p.payload), signature: buf(p.signature) } };
}

export type JwsSignatureCheck = { ok: true; header: JwsHeader; payload: Uint8Array } | { ok: false; reason: string };

/**
 * Checks a compact JWS's signature under an Ed25519 public key (32 raw bytes or a `KeyObject`)
 * with jose's `compactVerify`, accepting only `alg` `EdDSA`. A JWS that does not verify, or
 * that jose rejects, is `{ok: false, reason}`; a raw key of the wrong length is a programming
 * error and throws `RangeError`. Errors that are not jose's (an environment without WebCrypto
 * Ed25519) are rethrown: they say nothing about the JWS, so they must not read as INVALID.
 */
export async function verifyJwsSignature(jws: string, publicKey: Uint8Array | KeyObject): Promise<JwsSignatureCheck> {
  // A raw Uint8Array means an HMAC secret to jose, so raw keys are wrapped as KeyObjects first.
  const key = publicKey instanceof Uint8Array ? publicKeyObject(publicKey) : publicKey;
  try {
    const { protectedHeader, payload } = await compactVerify(jws, key, { algorithms: [JWS_ALG] });
    return { ok: true, header: protectedHeader as JwsHeader, payload };
  } catch (e) {
    if (e instanceof errors.JWSSignatureVerificationFailed) return { ok: false, reason: SIGNATURE_DOES_NOT_VERIFY };
    if (e instanceof errors.JOSEError) return { ok: false, reason: `the JWS is rejected (${e.code}): ${e.message}` };
    throw e;
  }
}
