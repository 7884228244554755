/**
 * C2SP signed-note v1.0.0 (c2sp.org/signed-note): a UTF-8 text ending in a newline, a blank
 * line, then signature lines "— <key name> <base64(4-byte key ID ‖ signature)>\n". Open
 * semantics follow the spec and golang.org/x/mod/sumdb/note `Open` (what Go logs and
 * witnesses run): unknown keys are ignored, a known key's bad signature rejects the note, and at
 * least one known key must verify. Ed25519 note signatures (type 0x01) sign the text bytes.
 */
import { createHash, type KeyObject } from 'node:crypto';
import { keyPairFromSeed, publicKeyObject, rawPublicKey, sign, verify } from '../../crypto/ed25519.js';
import { decodeBase64, encodeBase64 } from './base64.js';

/** Signature type bytes of the signed-note registry used here. */
export const SIG_TYPE_ED25519 = 0x01;
export const SIG_TYPE_COSIGNATURE_V1 = 0x04;
/** Go's `note.Open` limit; the spec requires accepting at least 16. */
export const MAX_SIGNATURES = 100;

const SIG_PREFIX = '\u2014 ';
const CONTROL = /[\x00-\x09\x0b-\x1f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// ignoreBOM keeps a leading U+FEFF in the text: stripping it would change the signed bytes.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** One signature line. `signature` is the decoded bytes after the 4-byte key ID. */
export interface NoteSignature {
  name: string;
  keyId: number;
  /** base64(key ID ‖ signature), as on the line. */
  base64: string;
  signature: Uint8Array;
}

/** A trusted key: signatures whose (name, key ID) match are checked with `verify`. */
export interface NoteVerifier {
  readonly name: string;
  readonly keyId: number;
  /** Whether `signature` (after the key ID) is valid for the note `text` bytes. */
  verify(text: Uint8Array, signature: Uint8Array): boolean;
}

/** An Ed25519 signing key: a private KeyObject or a 32-byte RFC 8032 seed. */
export interface NoteSigner {
  name: string;
  privateKey: KeyObject | Uint8Array;
}

/** A note split into text and signatures (nothing verified), or why it is malformed. */
export type ParsedNote = { ok: true; text: string; signatures: NoteSignature[] } | { ok: false; reason: string };

/** A verified note, or the Go-compatible failure kind and reason. */
export type OpenedNote =
  | { ok: true; text: string; sigs: NoteSignature[]; unverifiedSigs: NoteSignature[] }
  | {
      ok: false;
      kind: 'malformed' | 'no-verifiable-signatures' | 'invalid-signature' | 'ambiguous-key';
      reason: string;
      unverifiedSigs?: NoteSignature[];
    };

/** Key names are non-empty, without Unicode spaces or '+' (signed-note §Format). */
export function isValidKeyName(name: string): boolean {
  return typeof name === 'string' && name !== '' && !/[\p{White_Space}+]/u.test(name) && !LONE_SURROGATE.test(name);
}

/** The recommended key ID: SHA-256(name ‖ 0x0A ‖ type ‖ public key)[:4] as a big-endian uint32. */
export function keyId(name: string, type: number, publicKey: Uint8Array): number {
  const h = createHash('sha256')
    .update(name, 'utf8')
    .update(new Uint8Array([0x0a, type]))
    .update(publicKey)
    .digest();
  return h.readUInt32BE(0);
}

/** Key ID as 8 lowercase hex digits (the vkey and `name+id` form). */
export const keyIdHex = (id: number): string => id.toString(16).padStart(8, '0');

/** Why `text` cannot be a note text, or undefined if it can. */
function textProblem(text: string): string | undefined {
  if (LONE_SURROGATE.test(text)) return 'not valid UTF-8';
  if (CONTROL.test(text)) return 'contains a control character other than newline';
  return undefined;
}

/**
 * Splits a note into text and signature lines, without verifying anything. Malformed (as a
 * value): invalid UTF-8, a control character, no blank line, no signature, a missing final
 * newline, a line that is not "— name base64", an invalid key name, fewer than 5 decoded bytes,
 * or more than 100 signatures. The text is everything up to the LAST blank line.
 */
export function parseNote(note: string | Uint8Array): ParsedNote {
  let s: string;
  if (note instanceof Uint8Array) {
    try {
      s = utf8.decode(note);
    } catch {
      return { ok: false, reason: 'not valid UTF-8' };
    }
  } else if (typeof note === 'string') {
    s = note;
  } else {
    throw new TypeError('a note is a string or UTF-8 bytes');
  }
  const problem = textProblem(s);
  if (problem) return { ok: false, reason: `note ${problem}` };
  const split = s.lastIndexOf('\n\n');
  if (split < 0) return { ok: false, reason: 'no blank line before the signatures' };
  const text = s.slice(0, split + 1);
  const block = s.slice(split + 2);
  if (block === '' || !block.endsWith('\n'))
    return { ok: false, reason: 'the signature block is empty or lacks its final newline' };
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) return { ok: false, reason: `more than ${MAX_SIGNATURES} signatures` };
  const signatures: NoteSignature[] = [];
  for (const line of lines) {
    if (!line.startsWith(SIG_PREFIX)) return { ok: false, reason: 'a signature line does not start with "— "' };
    const rest = line.slice(SIG_PREFIX.length);
    const space = rest.indexOf(' ');
    const name = space < 0 ? rest : rest.slice(0, space);
    const b64 = space < 0 ? '' : rest.slice(space + 1);
    const raw = decodeBase64(b64);
    if (!isValidKeyName(name) || b64 === '' || raw === undefined || raw.length < 5) {
      return { ok: false, reason: `malformed signature line for ${JSON.stringify(name)}` };
    }
    signatures.push({ name, keyId: raw.readUInt32BE(0), base64: b64, signature: raw.subarray(4) });
  }
  return { ok: true, text, signatures };
}

/**
 * Parses `note` and verifies it with the trusted `verifiers`. Succeeds with the verified
 * signatures (`sigs`) and the ones from unknown keys (`unverifiedSigs`), in note order.
 * Fails (as a value) when the note is malformed, a known key's signature does not verify, two
 * trusted verifiers share the (name, key ID) of a signature, or no known key signed it.
 * Repeated signatures by one key count once; identical unknown lines are listed once.
 */
export function openNote(note: string | Uint8Array, verifiers: readonly NoteVerifier[]): OpenedNote {
  const parsed = parseNote(note);
  if (!parsed.ok) return { ok: false, kind: 'malformed', reason: parsed.reason };
  const known = new Map<string, NoteVerifier[]>();
  for (const v of verifiers) {
    const k = `${v.name}+${keyIdHex(v.keyId)}`;
    known.set(k, [...(known.get(k) ?? []), v]);
  }
  const textBytes = Buffer.from(parsed.text, 'utf8');
  const sigs: NoteSignature[] = [];
  const unverifiedSigs: NoteSignature[] = [];
  const seen = new Set<string>();
  const seenUnknown = new Set<string>();
  for (const sig of parsed.signatures) {
    const k = `${sig.name}+${keyIdHex(sig.keyId)}`;
    const candidates = known.get(k);
    if (candidates === undefined) {
      const line = `${sig.name} ${sig.base64}`;
      if (!seenUnknown.has(line)) unverifiedSigs.push(sig);
      seenUnknown.add(line);
      continue;
    }
    // Go's VerifierList refuses a lookup that matches two keys rather than guess.
    if (candidates.length > 1) return { ok: false, kind: 'ambiguous-key', reason: `ambiguous key ${k}` };
    if (seen.has(k)) continue;
    seen.add(k);
    if (!candidates[0]!.verify(textBytes, sig.signature))
      return { ok: false, kind: 'invalid-signature', reason: `invalid signature for key ${k}` };
    sigs.push(sig);
  }
  if (sigs.length === 0)
    return { ok: false, kind: 'no-verifiable-signatures', reason: 'note has no verifiable signatures', unverifiedSigs };
  return { ok: true, text: parsed.text, sigs, unverifiedSigs };
}

/** The signature line "— name base64\n". */
export function formatSignatureLine(sig: Pick<NoteSignature, 'name' | 'base64'>): string {
  return `${SIG_PREFIX}${sig.name} ${sig.base64}\n`;
}

/**
 * The note: `text`, a blank line, one line per signature. Throws `TypeError` when the text
 * cannot be a note text (no final newline, a control character, a lone surrogate), a name is
 * invalid, or there is no signature: such a note would not open, so making it is a bug.
 */
export function formatNote(text: string, signatures: readonly Pick<NoteSignature, 'name' | 'base64'>[]): string {
  if (typeof text !== 'string' || !text.endsWith('\n')) throw new TypeError('a note text ends with a newline');
  const problem = textProblem(text);
  if (problem) throw new TypeError(`note text ${problem}`);
  if (signatures.length === 0) throw new TypeError('a note needs at least one signature');
  for (const s of signatures) {
    if (!isValidKeyName(s.name)) throw new TypeError(`invalid key name ${JSON.stringify(s.name)}`);
    if (decodeBase64(s.base64) === undefined) throw new TypeError(`signature of ${s.name} is not base64`);
  }
  return `${text}\n${signatures.map(formatSignatureLine).join('')}`;
}

/** The private KeyObject and raw public key of a signer. */
export function signerKeys(signer: NoteSigner): { privateKey: KeyObject; publicKey: Buffer } {
  if (signer.privateKey instanceof Uint8Array) {
    const pair = keyPairFromSeed(signer.privateKey);
    return { privateKey: pair.privateKey, publicKey: pair.publicKey };
  }
  return { privateKey: signer.privateKey, publicKey: rawPublicKey(signer.privateKey) };
}

/** A signature line built from a key ID and signature bytes. */
export function noteSignature(name: string, id: number, signature: Uint8Array): NoteSignature {
  const raw = Buffer.alloc(4 + signature.length);
  raw.writeUInt32BE(id, 0);
  raw.set(signature, 4);
  return { name, keyId: id, base64: encodeBase64(raw), signature: raw.subarray(4) };
}

/**
 * Signs `text` with each Ed25519 signer (type 0x01, deterministic) and returns the note: the
 * `keep` signatures not replaced by a signer with the same name and key ID first, then the new
 * ones (the order of Go's `note.Sign`, so adding a signature reproduces Go's bytes). Throws
 * `TypeError` as `formatNote`, or for a bad key.
 */
export function signNote(
  text: string,
  signers: NoteSigner | readonly NoteSigner[],
  keep: readonly NoteSignature[] = [],
): string {
  const list: readonly NoteSigner[] = Array.isArray(signers) ? signers : [signers as NoteSigner];
  const textBytes = Buffer.from(text, 'utf8');
  const fresh = list.map((s) => {
    if (!isValidKeyName(s.name)) throw new TypeError(`invalid key name ${JSON.stringify(s.name)}`);
    const { privateKey, publicKey } = signerKeys(s);
    return noteSignature(s.name, keyId(s.name, SIG_TYPE_ED25519, publicKey), sign(privateKey, textBytes));
  });
  for (const s of keep) {
    const raw = decodeBase64(s.base64);
    // The key ID is read from the line when opening, so a mismatch would change who signed.
    if (raw === undefined || raw.length < 5 || raw.readUInt32BE(0) !== s.keyId)
      throw new TypeError(`kept signature of ${s.name} does not carry its key ID`);
  }
  const replaced = new Set(fresh.map((s) => `${s.name}+${s.keyId}`));
  return formatNote(text, [...keep.filter((s) => !replaced.has(`${s.name}+${s.keyId}`)), ...fresh]);
}

/** A verifier for Ed25519 note signatures (type 0x01) by `name` with a 32-byte public key. */
export function ed25519NoteVerifier(name: string, publicKey: Uint8Array): NoteVerifier {
  if (!isValidKeyName(name)) throw new TypeError(`invalid key name ${JSON.stringify(name)}`);
  // One KeyObject per verifier: building it per call costs ~40 % of verify throughput (research §8).
  const key = publicKeyObject(publicKey);
  return {
    name,
    keyId: keyId(name, SIG_TYPE_ED25519, publicKey),
    verify: (text, signature) => verify(key, text, signature),
  };
}
