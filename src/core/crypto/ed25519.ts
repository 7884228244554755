/**
 * Ed25519 (RFC 8032, pure, no context) over `node:crypto`. node:crypto is OpenSSL, which accepts
 * exactly what Go and BoringSSL accept (all 151 Wycheproof cases and the ed25519-speccheck row
 * `VVVVXXXXXXXV`); noble's default ZIP-215 rules accept more, so verifiers could disagree.
 *
 * Keys come in as bytes and become `KeyObject`s here; this module never generates a key (core has
 * no randomness), and Ed25519 signing is deterministic, so the same key and message always give
 * the same signature.
 */
import { createPrivateKey, createPublicKey, KeyObject, sign as nodeSign, verify as nodeVerify } from 'node:crypto';

/** DER prefix of a PKCS#8 Ed25519 private key (RFC 8410 §7); the 32-byte seed follows. */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** DER prefix of an SPKI Ed25519 public key (RFC 8410 §4); the 32-byte key follows. */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export const SEED_LENGTH = 32;
export const PUBLIC_KEY_LENGTH = 32;
export const SIGNATURE_LENGTH = 64;

export interface Ed25519KeyPair {
  /** A copy of the 32-byte seed (the RFC 8032 private key). */
  seed: Buffer;
  /** The 32-byte encoded public key (RFC 8032 §5.1.5). */
  publicKey: Buffer;
  privateKey: KeyObject;
  publicKeyObject: KeyObject;
}

/**
 * The key pair of a 32-byte seed (RFC 8032 §5.1.5). Throws `RangeError` when the seed is not
 * 32 bytes: a wrong-length seed is a broken key file or a programming error, never user input.
 */
export function keyPairFromSeed(seed: Uint8Array): Ed25519KeyPair {
  if (!(seed instanceof Uint8Array) || seed.length !== SEED_LENGTH) {
    throw new RangeError(
      `an Ed25519 seed is ${SEED_LENGTH} bytes, got ${seed instanceof Uint8Array ? seed.length : typeof seed}`,
    );
  }
  const copy = Buffer.from(seed);
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, copy]), format: 'der', type: 'pkcs8' });
  const publicKeyObject = createPublicKey(privateKey);
  return { seed: copy, publicKey: rawPublicKey(publicKeyObject), privateKey, publicKeyObject };
}

/**
 * A public `KeyObject` for a 32-byte encoded Ed25519 public key. Throws `RangeError` on any other
 * length. The point is not decoded here: an invalid encoding simply never verifies.
 */
export function publicKeyObject(raw: Uint8Array): KeyObject {
  if (!(raw instanceof Uint8Array) || raw.length !== PUBLIC_KEY_LENGTH) {
    throw new RangeError(
      `an Ed25519 public key is ${PUBLIC_KEY_LENGTH} bytes, got ${raw instanceof Uint8Array ? raw.length : typeof raw}`,
    );
  }
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

/**
 * The 32-byte encoded public key of an Ed25519 `KeyObject` (public, or private: its public half).
 * Throws `TypeError` when the key is not Ed25519.
 */
export function rawPublicKey(key: KeyObject): Buffer {
  if (key.asymmetricKeyType !== 'ed25519')
    throw new TypeError(`not an Ed25519 key: ${String(key.asymmetricKeyType ?? key.type)}`);
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const der = pub.export({ format: 'der', type: 'spki' });
  return Buffer.from(der.subarray(SPKI_PREFIX.length));
}

/** The 64-byte signature R‖S of `message`. Throws `TypeError` unless `privateKey` is an Ed25519 private key. */
export function sign(privateKey: KeyObject, message: Uint8Array): Buffer {
  if (privateKey.type !== 'private' || privateKey.asymmetricKeyType !== 'ed25519') {
    throw new TypeError('sign needs an Ed25519 private KeyObject');
  }
  // Ed25519 fixes its own hash, so the digest argument must be null.
  return nodeSign(null, message, privateKey);
}

/**
 * Whether `signature` is a valid Ed25519 signature of `message` under `publicKey` (32 raw bytes or
 * an Ed25519 `KeyObject`). Never throws: a key or signature of the wrong length or type, a key
 * that is not a point, or anything OpenSSL rejects gives `false`.
 */
export function verify(publicKey: Uint8Array | KeyObject, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    if (!(message instanceof Uint8Array) || !(signature instanceof Uint8Array) || signature.length !== SIGNATURE_LENGTH)
      return false;
    let key: KeyObject;
    if (publicKey instanceof KeyObject) {
      if (publicKey.asymmetricKeyType !== 'ed25519') return false;
      key = publicKey;
    } else {
      if (!(publicKey instanceof Uint8Array) || publicKey.length !== PUBLIC_KEY_LENGTH) return false;
      key = publicKeyObject(publicKey);
    }
    return nodeVerify(null, message, key, signature);
  } catch {
    return false;
  }
}
