/**
 * Verifier keys ("vkeys", c2sp.org/signed-note §Verifier keys) `<name>+<hex key ID>+<base64(type
 * ‖ public key)>`, and Go's signer-key form `PRIVATE+KEY+<name>+<hex key ID>+<base64(0x01 ‖
 * seed)>` (golang.org/x/mod/sumdb/note). Only Ed25519 types are supported: 0x01 note keys and
 * 0x04 cosignature/v1 keys; ECDSA (0x02) and RFC 6962 (0x05) keys parse as "unsupported".
 */
import { keyPairFromSeed } from '../../crypto/ed25519.js';
import { decodeBase64, encodeBase64 } from './base64.js';
import { cosignatureVerifier } from './cosignature.js';
import {
  ed25519NoteVerifier,
  isValidKeyName,
  keyId,
  keyIdHex,
  SIG_TYPE_COSIGNATURE_V1,
  SIG_TYPE_ED25519,
  signerKeys,
  type NoteSigner,
  type NoteVerifier,
} from './signed-note.js';

/** The Ed25519 signature types this module handles: note signatures and cosignature/v1. */
export type Ed25519SigType = typeof SIG_TYPE_ED25519 | typeof SIG_TYPE_COSIGNATURE_V1;

/** A parsed Ed25519 vkey. */
export interface VerifierKey {
  name: string;
  keyId: number;
  type: Ed25519SigType;
  /** The 32-byte Ed25519 public key. */
  publicKey: Buffer;
}

/** `unsupported` marks keys of a known type other than Ed25519 (0x02 ECDSA, 0x05 RFC 6962). */
export type VerifierKeyResult = { ok: true; key: VerifierKey } | { ok: false; reason: string; unsupported?: true };

/** Splits at the first '+', as Go's `chop` does (the base64 part may itself contain '+'). */
function chop(s: string): [string, string] {
  const at = s.indexOf('+');
  return at < 0 ? [s, ''] : [s.slice(0, at), s.slice(at + 1)];
}

/**
 * Parses a vkey. Fails (as a value) on a bad name, a key ID that is not 8 hex digits, bad
 * base64, a key ID that is not SHA-256(name ‖ 0x0A ‖ type ‖ key)[:4], an unknown type, or an
 * Ed25519 key that is not 32 bytes; known but unsupported types set `unsupported`.
 */
export function parseVerifierKey(vkey: string): VerifierKeyResult {
  if (typeof vkey !== 'string') throw new TypeError('a vkey is a string');
  const [name, rest] = chop(vkey);
  const [idHex, keyB64] = chop(rest);
  const material = decodeBase64(keyB64);
  if (!isValidKeyName(name) || !/^[0-9a-fA-F]{8}$/.test(idHex) || material === undefined || material.length === 0) {
    return { ok: false, reason: 'malformed verifier key' };
  }
  const type = material[0]!;
  if (type === 0x02 || type === 0x05)
    return { ok: false, reason: `unsupported key type 0x0${type} (only Ed25519 0x01 and 0x04)`, unsupported: true };
  if (type !== SIG_TYPE_ED25519 && type !== SIG_TYPE_COSIGNATURE_V1)
    return { ok: false, reason: `unknown key type 0x${type.toString(16).padStart(2, '0')}` };
  const publicKey = material.subarray(1);
  if (keyId(name, type, publicKey) !== Number.parseInt(idHex, 16))
    return { ok: false, reason: 'key ID does not match the name and key' };
  if (publicKey.length !== 32) return { ok: false, reason: 'an Ed25519 public key is 32 bytes' };
  return { ok: true, key: { name, keyId: Number.parseInt(idHex, 16), type, publicKey: Buffer.from(publicKey) } };
}

/** The vkey of an Ed25519 key. Throws `TypeError` on an invalid name or a key not 32 bytes. */
export function formatVerifierKey(
  name: string,
  publicKey: Uint8Array,
  type: Ed25519SigType = SIG_TYPE_ED25519,
): string {
  if (!isValidKeyName(name)) throw new TypeError(`invalid key name ${JSON.stringify(name)}`);
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32)
    throw new TypeError('an Ed25519 public key is 32 bytes');
  return `${name}+${keyIdHex(keyId(name, type, publicKey))}+${encodeBase64(Buffer.concat([Buffer.from([type]), publicKey]))}`;
}

/** The vkey a signer publishes: type 0x01 for note signatures, 0x04 for cosignature/v1. */
export function verifierKeyOf(signer: NoteSigner, type: Ed25519SigType = SIG_TYPE_ED25519): string {
  return formatVerifierKey(signer.name, signerKeys(signer).publicKey, type);
}

/** The note verifier for a parsed key: type 0x01 checks note signatures, 0x04 cosignature/v1. */
export function verifierFromKey(key: VerifierKey): NoteVerifier {
  return key.type === SIG_TYPE_ED25519
    ? ed25519NoteVerifier(key.name, key.publicKey)
    : cosignatureVerifier(key.name, key.publicKey);
}

/** A parsed signer key: the signer (its `privateKey` is the 32-byte seed), its key ID and public key. */
export type SignerKeyResult =
  | { ok: true; signer: NoteSigner & { privateKey: Buffer }; keyId: number; publicKey: Buffer }
  | { ok: false; reason: string };

/** Parses Go's `PRIVATE+KEY+name+id+base64(0x01 ‖ seed)`, checking the ID against the derived public key. */
export function parseSignerKey(skey: string): SignerKeyResult {
  if (typeof skey !== 'string') throw new TypeError('a signer key is a string');
  const [p, afterPrivate] = chop(skey);
  const [k, body] = chop(afterPrivate);
  const [name, rest] = chop(body);
  const [idHex, keyB64] = chop(rest);
  const material = decodeBase64(keyB64);
  if (
    p !== 'PRIVATE' ||
    k !== 'KEY' ||
    !isValidKeyName(name) ||
    !/^[0-9a-fA-F]{8}$/.test(idHex) ||
    material === undefined
  ) {
    return { ok: false, reason: 'malformed signer key' };
  }
  if (material.length !== 33 || material[0] !== SIG_TYPE_ED25519)
    return { ok: false, reason: 'not an Ed25519 signer key' };
  const seed = Buffer.from(material.subarray(1));
  const { publicKey } = keyPairFromSeed(seed);
  const id = keyId(name, SIG_TYPE_ED25519, publicKey);
  if (id !== Number.parseInt(idHex, 16)) return { ok: false, reason: 'key ID does not match the key' };
  return { ok: true, signer: { name, privateKey: seed }, keyId: id, publicKey };
}
