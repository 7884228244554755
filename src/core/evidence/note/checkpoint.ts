/**
 * C2SP tlog-checkpoint v1.0.0 note text: origin line, tree size (ASCII decimal, no leading
 * zeroes), base64 root hash, then optional non-empty extension lines, each line ending in a
 * newline. This parser is the strict C2SP reading: the root is an RFC 6962 SHA-256 hash
 * (32 bytes) unless `hashSize: null` asks for transparency-dev/formats' leniency, and empty
 * extension lines are refused (formats accepts them; the spec says they MUST be non-empty).
 */
import { decodeBase64, encodeBase64 } from './base64.js';
import { openNote, type NoteSignature, type NoteVerifier, type OpenedNote } from './signed-note.js';

/** The fields of a checkpoint note text. */
export interface Checkpoint {
  origin: string;
  /** Tree size; sizes above 2^53 − 1 are refused so that this is exact. */
  size: number;
  rootHash: Uint8Array;
  /** Extension lines, without newlines (NOT RECOMMENDED by the spec; opaque here). */
  extensions: string[];
}

/** Parse and format options. */
export interface CheckpointOptions {
  /** The origin the caller expects; any other origin is refused. */
  origin?: string;
  /** Root hash length in bytes: 32 by default; `null` accepts any non-empty length. */
  hashSize?: number | null;
}

/** A parsed checkpoint, or the first rule it breaks. */
export type CheckpointResult = { ok: true; checkpoint: Checkpoint } | { ok: false; reason: string };

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** Parses a checkpoint note text (no signatures). Every violation is a value, never a throw. */
export function parseCheckpoint(text: string, options: CheckpointOptions = {}): CheckpointResult {
  if (typeof text !== 'string') throw new TypeError('a checkpoint text is a string');
  const hashSize = options.hashSize === undefined ? 32 : options.hashSize;
  if (!text.endsWith('\n')) return { ok: false, reason: 'the checkpoint text does not end with a newline' };
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) return { ok: false, reason: 'a checkpoint has at least three lines' };
  const [origin, sizeLine, rootLine, ...extensions] = lines as [string, string, string, ...string[]];
  if (origin === '') return { ok: false, reason: 'the origin line is empty' };
  if (options.origin !== undefined && origin !== options.origin)
    return {
      ok: false,
      reason: `origin ${JSON.stringify(origin)} is not the expected ${JSON.stringify(options.origin)}`,
    };
  if (!DECIMAL.test(sizeLine)) return { ok: false, reason: 'the tree size is not a decimal without leading zeroes' };
  const size = Number(sizeLine);
  if (!Number.isSafeInteger(size)) return { ok: false, reason: `tree size ${sizeLine} exceeds 2^53 − 1` };
  const rootHash = decodeBase64(rootLine);
  if (rootHash === undefined || rootHash.length === 0) return { ok: false, reason: 'the root hash is not base64' };
  if (hashSize !== null && rootHash.length !== hashSize)
    return { ok: false, reason: `the root hash is ${rootHash.length} bytes, not ${hashSize}` };
  if (extensions.some((l) => l === '')) return { ok: false, reason: 'an extension line is empty' };
  return { ok: true, checkpoint: { origin, size, rootHash, extensions } };
}

/**
 * The checkpoint note text. Throws `TypeError`/`RangeError` on fields that would not parse back
 * (an empty origin or one with a newline, a size that is not a safe non-negative integer, a root
 * of the wrong length, an empty extension line or one with a newline).
 */
export function formatCheckpoint(checkpoint: Checkpoint, options: Pick<CheckpointOptions, 'hashSize'> = {}): string {
  const { origin, size, rootHash, extensions } = checkpoint;
  const hashSize = options.hashSize === undefined ? 32 : options.hashSize;
  if (typeof origin !== 'string' || origin === '' || origin.includes('\n'))
    throw new TypeError('the origin is a non-empty line');
  if (!Number.isSafeInteger(size) || size < 0)
    throw new RangeError(`tree size must be a non-negative safe integer, got ${size}`);
  if (
    !(rootHash instanceof Uint8Array) ||
    rootHash.length === 0 ||
    (hashSize !== null && rootHash.length !== hashSize)
  ) {
    throw new RangeError(`the root hash must be ${hashSize ?? 'a non-empty number of'} bytes`);
  }
  for (const l of extensions)
    if (typeof l !== 'string' || l === '' || l.includes('\n'))
      throw new TypeError('extension lines are non-empty lines');
  return [origin, String(size), encodeBase64(rootHash), ...extensions].map((l) => `${l}\n`).join('');
}

/** A verified and parsed checkpoint, or why not (with the note failure when it is the note's). */
export type OpenedCheckpoint =
  | { ok: true; checkpoint: Checkpoint; text: string; sigs: NoteSignature[]; unverifiedSigs: NoteSignature[] }
  | { ok: false; reason: string; note?: Extract<OpenedNote, { ok: false }> };

/** Opens a signed checkpoint note with the trusted `verifiers`, then parses its text. */
export function openCheckpoint(
  note: string | Uint8Array,
  verifiers: readonly NoteVerifier[],
  options: CheckpointOptions = {},
): OpenedCheckpoint {
  const opened = openNote(note, verifiers);
  if (!opened.ok) return { ok: false, reason: opened.reason, note: opened };
  const parsed = parseCheckpoint(opened.text, options);
  if (!parsed.ok) return parsed;
  return {
    ok: true,
    checkpoint: parsed.checkpoint,
    text: opened.text,
    sigs: opened.sigs,
    unverifiedSigs: opened.unverifiedSigs,
  };
}
