/**
 * C2SP tlog-proof@v1 (c2sp.org/tlog-proof), read strictly and browser-safe: the header line, an
 * optional `extra` line, the index, the inclusion path, an empty line and one checkpoint note
 * with nothing after it. Parsing checks the form only; tlog-proof.ts checks what it claims.
 */
import { bytesToHex } from '../crypto/verify-crypto.js';

export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';
/** A proof is a few kB; this bound (100 post-quantum signatures fit) refuses anything else unread. */
export const TLOG_PROOF_MAX_BYTES = 1 << 20;
const MAX_SIGNATURES = 100;

export interface NoteSignatureLine {
  name: string;
  /** The 4-byte key ID, as 8 hex digits. */
  keyId: string;
  /** The bytes after the key ID. */
  signature: Uint8Array;
}

export interface ParsedTlogProof {
  /** The `extra` line's bytes (unauthenticated: never trusted), or null when absent. */
  extra: Uint8Array | null;
  index: number;
  path: Uint8Array[];
  /** The checkpoint note verbatim, and its parts. */
  checkpoint: string;
  text: string;
  origin: string;
  size: number;
  root: Uint8Array;
  signatures: NoteSignatureLine[];
}

export type TlogProofParse = { ok: true; proof: ParsedTlogProof } | { ok: false; reason: string };

const STD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^(0|[1-9][0-9]*)$/;
const CONTROL = /[\x00-\x09\x0b-\x1f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const utf8Fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Padded standard base64 in its one canonical spelling, or undefined. */
function base64(text: string): Uint8Array | undefined {
  if (!STD_BASE64.test(text)) return undefined;
  const bin = atob(text);
  if (btoa(bin) !== text) return undefined;
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

const validKeyName = (name: string) => name !== '' && !/[\p{White_Space}+]/u.test(name);

/**
 * Parses a proof strictly: the header line, an optional non-empty `extra` line, `index` in
 * decimal with no leading zero (up to 2^53 − 1), at most 63 path lines of canonical base64
 * 32-byte hashes, an empty line, then one checkpoint note and nothing after it: the note text
 * (origin, size, 32-byte root, non-empty extension lines), a blank line, 1 to 100 signature lines
 * "— <name> <base64(key ID ‖ signature)>", the last ending the input. No control character but
 * newline, valid UTF-8 only.
 */
export function parseTlogProof(input: string | Uint8Array): TlogProofParse {
  const fail = (reason: string): TlogProofParse => ({ ok: false, reason });
  let s: string;
  if (typeof input === 'string') {
    if (LONE_SURROGATE.test(input)) return fail('not valid UTF-8');
    s = input;
  } else {
    if (input.length > TLOG_PROOF_MAX_BYTES) return fail(`longer than ${TLOG_PROOF_MAX_BYTES} bytes`);
    try {
      s = utf8Fatal.decode(input);
    } catch {
      return fail('not valid UTF-8');
    }
  }
  if (s.length > TLOG_PROOF_MAX_BYTES) return fail(`longer than ${TLOG_PROOF_MAX_BYTES} bytes`);
  if (CONTROL.test(s)) return fail('a control character other than newline');
  let at = 0;
  const next = (): string | undefined => {
    const nl = s.indexOf('\n', at);
    if (nl < 0) return undefined;
    const line = s.slice(at, nl);
    at = nl + 1;
    return line;
  };
  if (next() !== TLOG_PROOF_HEADER) return fail(`the first line is not ${TLOG_PROOF_HEADER}`);
  let line = next();
  let extra: Uint8Array | null = null;
  if (line?.startsWith('extra ')) {
    const bytes = base64(line.slice('extra '.length));
    if (bytes === undefined || bytes.length === 0) return fail('the extra line is not non-empty base64');
    extra = bytes;
    line = next();
  }
  const index = /^index (0|[1-9][0-9]*)$/.exec(line ?? '');
  if (!index) return fail('the index line is not "index <decimal>"');
  if (!Number.isSafeInteger(Number(index[1]))) return fail('an index above 2^53 − 1 is not supported');
  const path: Uint8Array[] = [];
  for (;;) {
    line = next();
    if (line === undefined) return fail('no empty line between the inclusion path and the checkpoint');
    if (line === '') break;
    if (path.length === 63) return fail('more than 63 inclusion path lines');
    const h = base64(line);
    if (h === undefined || h.length !== 32) return fail(`path line ${path.length + 1} is not a base64 32-byte hash`);
    path.push(h);
  }
  const checkpoint = s.slice(at);
  const note = parseCheckpointNote(checkpoint);
  if (typeof note === 'string') return fail(note);
  return { ok: true, proof: { extra, index: Number(index[1]), path, checkpoint, ...note } };
}

/** The checkpoint note's parts, or why it is not one (a string). */
function parseCheckpointNote(note: string) {
  const split = note.lastIndexOf('\n\n');
  if (split < 0) return 'the checkpoint has no blank line before its signatures';
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (block === '' || !block.endsWith('\n'))
    return 'the checkpoint must end with its last signature line and a newline (nothing after it)';
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) return `more than ${MAX_SIGNATURES} signatures`;
  const signatures: NoteSignatureLine[] = [];
  for (const l of lines) {
    const m = /^\u2014 ([^ ]+) ([^ ]+)$/.exec(l);
    const raw = m ? base64(m[2]!) : undefined;
    if (!m || !validKeyName(m[1]!) || raw === undefined || raw.length < 5)
      return 'a signature line is not "— <key name> <base64 key ID and signature>"';
    signatures.push({ name: m[1]!, keyId: bytesToHex(raw.subarray(0, 4)), signature: raw.subarray(4) });
  }
  const [origin, sizeLine, rootLine, ...extensions] = text.slice(0, -1).split('\n');
  if (!origin || sizeLine === undefined || rootLine === undefined)
    return 'the checkpoint text is not origin, size and root lines';
  if (!DECIMAL.test(sizeLine) || !Number.isSafeInteger(Number(sizeLine)))
    return 'the checkpoint size is not a decimal up to 2^53 − 1';
  const root = base64(rootLine);
  if (root === undefined || root.length !== 32) return 'the checkpoint root is not a base64 32-byte hash';
  if (extensions.some((e) => e === '')) return 'the checkpoint has an empty line in its text';
  return { text, origin, size: Number(sizeLine), root, signatures };
}
