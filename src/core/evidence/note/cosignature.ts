/**
 * C2SP tlog-cosignature v1.0.1, Ed25519 `cosignature/v1` (signature type 0x04): a note
 * signature line on a checkpoint whose bytes are key ID ‖ u64be(timestamp) ‖ Ed25519 signature
 * (76 bytes), signed over "cosignature/v1\ntime <timestamp>\n" followed by the checkpoint text.
 * The timestamp is an argument (src/core reads no clock). A cosignature states that, as of
 * that time, this was the largest consistent tree head the cosigner saw for the origin.
 */
import { publicKeyObject, sign, verify } from '../../crypto/ed25519.js';
import { decodeBase64 } from './base64.js';
import {
  isValidKeyName,
  keyId,
  noteSignature,
  SIG_TYPE_COSIGNATURE_V1,
  signerKeys,
  type NoteSignature,
  type NoteSigner,
  type NoteVerifier,
} from './signed-note.js';

/** The spec's cap: timestamps MUST NOT exceed 2^63 − 1 (v1.0.1). */
const TIMESTAMP_MAX = (1n << 63n) - 1n;
const TIMESTAMPED_SIGNATURE_SIZE = 8 + 64;

/**
 * How far past the verifier's clock a cosignature's timestamp may be and still count (decision
 * W5): 300 s, the clock difference tolerated between a witness and the reader. The spec lets
 * verifiers reject timestamps in the future ("verifiers MAY reject cosignatures with timestamps
 * in the future"); a cosignature dated later than this states a time that has not come, so it is
 * refused when recorded (`gspc witness`) and does not count toward a reader's quorum.
 */
export const COSIGNATURE_MAX_FUTURE_SECONDS = 300;

/**
 * The exact message a cosigner signs: "cosignature/v1\n", "time <timestamp>\n", then the whole
 * checkpoint note text (all lines including extensions and the final newline, no signatures).
 * Throws `RangeError` unless the timestamp is a non-negative safe integer.
 */
export function cosignatureMessage(checkpointText: string, timestamp: number): Buffer {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0)
    throw new RangeError(`timestamp must be a non-negative safe integer, got ${timestamp}`);
  if (typeof checkpointText !== 'string' || !checkpointText.endsWith('\n'))
    throw new TypeError('a checkpoint text ends with a newline');
  return Buffer.from(`cosignature/v1\ntime ${timestamp}\n${checkpointText}`, 'utf8');
}

/**
 * Cosigns `checkpointText` at `timestamp` (POSIX seconds) with an Ed25519 key; the key ID uses
 * type 0x04, so it differs from the same key's note-signature ID. Format the result with
 * `formatSignatureLine` or append it to the checkpoint's signatures. Throws on a bad key or name.
 */
export function signCosignature(checkpointText: string, signer: NoteSigner, timestamp: number): NoteSignature {
  if (!isValidKeyName(signer.name)) throw new TypeError(`invalid key name ${JSON.stringify(signer.name)}`);
  const message = cosignatureMessage(checkpointText, timestamp);
  const { privateKey, publicKey } = signerKeys(signer);
  const body = Buffer.alloc(TIMESTAMPED_SIGNATURE_SIZE);
  body.writeBigUInt64BE(BigInt(timestamp), 0);
  body.set(sign(privateKey, message), 8);
  return noteSignature(signer.name, keyId(signer.name, SIG_TYPE_COSIGNATURE_V1, publicKey), body);
}

/** The parts of a cosignature/v1 signature, or why it is not one. */
export type DecodedCosignature =
  | { ok: true; keyId: number; timestamp: number; signature: Buffer }
  | { ok: false; reason: string };

/**
 * Splits a cosignature/v1 signature (the base64 of a signature line, or a parsed
 * `NoteSignature`) into key ID, timestamp and Ed25519 signature, without verifying it. Fails
 * unless it is 76 bytes with a timestamp ≤ 2^63 − 1; timestamps above 2^53 − 1 (year 285 million)
 * are also refused, so that `timestamp` is an exact number.
 */
export function decodeCosignature(sig: string | NoteSignature): DecodedCosignature {
  const raw = typeof sig === 'string' ? decodeBase64(sig) : decodeBase64(sig.base64);
  if (raw === undefined) return { ok: false, reason: 'not base64' };
  if (raw.length !== 4 + TIMESTAMPED_SIGNATURE_SIZE)
    return { ok: false, reason: `a cosignature/v1 is 76 bytes, got ${raw.length}` };
  const ts = raw.readBigUInt64BE(4);
  if (ts > TIMESTAMP_MAX) return { ok: false, reason: `timestamp ${ts} exceeds 2^63 − 1` };
  if (ts > BigInt(Number.MAX_SAFE_INTEGER))
    return { ok: false, reason: `timestamp ${ts} exceeds 2^53 − 1 (not supported)` };
  return { ok: true, keyId: raw.readUInt32BE(0), timestamp: Number(ts), signature: Buffer.from(raw.subarray(12)) };
}

/**
 * A `NoteVerifier` for cosignature/v1 signatures by `name` (32-byte Ed25519 public key, key ID
 * type 0x04). Use it with `openNote` on a cosigned checkpoint; read each verified signature's
 * timestamp with `decodeCosignature`.
 */
export function cosignatureVerifier(name: string, publicKey: Uint8Array): NoteVerifier {
  if (!isValidKeyName(name)) throw new TypeError(`invalid key name ${JSON.stringify(name)}`);
  const key = publicKeyObject(publicKey);
  return {
    name,
    keyId: keyId(name, SIG_TYPE_COSIGNATURE_V1, publicKey),
    verify(text, signature) {
      if (signature.length !== TIMESTAMPED_SIGNATURE_SIZE) return false;
      const ts = Buffer.from(signature.buffer, signature.byteOffset, 8).readBigUInt64BE(0);
      if (ts > TIMESTAMP_MAX) return false;
      const message = Buffer.concat([Buffer.from(`cosignature/v1\ntime ${ts}\n`, 'utf8'), text]);
      return verify(key, message, signature.subarray(8));
    },
  };
}

/** A verified cosignature's timestamp, or why it does not verify. */
export type CosignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: string };

/**
 * Verifies one cosignature on `checkpointText` against a trusted cosigner key: the name and
 * type-0x04 key ID must match, the Ed25519 signature must verify, and, when `notAfter` is given,
 * the timestamp must not be later (the spec lets verifiers refuse timestamps in the future).
 */
export function verifyCosignature(
  checkpointText: string,
  sig: NoteSignature,
  cosigner: { name: string; publicKey: Uint8Array },
  notAfter?: number,
): CosignatureCheck {
  const decoded = decodeCosignature(sig);
  if (!decoded.ok) return decoded;
  const verifier = cosignatureVerifier(cosigner.name, cosigner.publicKey);
  if (sig.name !== verifier.name || decoded.keyId !== verifier.keyId)
    return { ok: false, reason: 'not a cosignature by this cosigner (name or key ID differs)' };
  if (!verifier.verify(Buffer.from(checkpointText, 'utf8'), sig.signature))
    return { ok: false, reason: 'invalid cosignature' };
  if (notAfter !== undefined && decoded.timestamp > notAfter)
    return { ok: false, reason: `timestamp ${decoded.timestamp} is after ${notAfter}` };
  return { ok: true, timestamp: decoded.timestamp };
}
