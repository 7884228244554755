/**
 * C2SP tlog-witness v1.0.0 `add-checkpoint`, the pure part: the request body ("old <size>",
 * up to 63 base64 consistency-proof lines, an empty line, the signed checkpoint) and the
 * witness's decision as an HTTP status, given the state the witness holds for the log. Signing
 * the cosignature (`signCosignature`, with the clock as an argument) and persisting the new
 * state atomically with the check are the caller's.
 */
import { EMPTY_ROOT } from '../merkle/hash.js';
import { verifyConsistency } from '../merkle/rfc6962-verify.js';
import { decodeBase64, encodeBase64 } from './base64.js';
import { parseCheckpoint, type Checkpoint } from './checkpoint.js';
import { openNote, parseNote, type NoteSignature, type NoteVerifier } from './signed-note.js';

/** The spec's cap on consistency proof lines. */
export const MAX_PROOF_LINES = 63;

/** The parts of an add-checkpoint request body. */
export interface AddCheckpointRequest {
  oldSize: number;
  proof: Uint8Array[];
  /** The signed checkpoint note, verbatim. */
  checkpoint: string;
}

/** A parsed request, or why the body is malformed (400). */
export type AddCheckpointParse = { ok: true; request: AddCheckpointRequest } | { ok: false; reason: string };

/** Parses an add-checkpoint request body. A malformed body is a value (the witness answers 400). */
export function parseAddCheckpointRequest(body: string): AddCheckpointParse {
  if (typeof body !== 'string') throw new TypeError('the request body is a string');
  const blank = body.indexOf('\n\n');
  if (blank < 0) return { ok: false, reason: 'no empty line before the checkpoint' };
  const [oldLine, ...proofLines] = body.slice(0, blank).split('\n') as [string, ...string[]];
  const old = /^old (0|[1-9][0-9]*)$/.exec(oldLine);
  if (!old || !Number.isSafeInteger(Number(old[1]))) return { ok: false, reason: 'the first line is not "old <size>"' };
  if (proofLines.length > MAX_PROOF_LINES) return { ok: false, reason: `more than ${MAX_PROOF_LINES} proof lines` };
  const proof: Uint8Array[] = [];
  for (const line of proofLines) {
    const h = decodeBase64(line);
    if (h === undefined || h.length !== 32) return { ok: false, reason: 'a proof line is not a base64 32-byte hash' };
    proof.push(h);
  }
  return { ok: true, request: { oldSize: Number(old[1]), proof, checkpoint: body.slice(blank + 2) } };
}

/** The request body for `request`. Throws `RangeError` on an invalid size or proof. */
export function formatAddCheckpointRequest(request: AddCheckpointRequest): string {
  if (!Number.isSafeInteger(request.oldSize) || request.oldSize < 0)
    throw new RangeError('old size must be a non-negative safe integer');
  if (request.proof.length > MAX_PROOF_LINES || request.proof.some((h) => h.length !== 32))
    throw new RangeError('the proof is at most 63 hashes of 32 bytes');
  return `old ${request.oldSize}\n${request.proof.map((h) => `${encodeBase64(h)}\n`).join('')}\n${request.checkpoint}`;
}

/** What the witness knows about one log: its trusted keys and the latest checkpoint it cosigned. */
export interface WitnessedLog {
  verifiers: readonly NoteVerifier[];
  /** Size and root of the latest cosigned checkpoint; `null` if it never cosigned one (size 0). */
  latest: { size: number; rootHash: Uint8Array } | null;
}

/** The witness's answer: 200 with the checkpoint to cosign, or the status and reason to send. */
export type AddCheckpointDecision =
  | { status: 200; checkpoint: Checkpoint; text: string; sigs: NoteSignature[] }
  | { status: 400 | 403 | 404 | 422; reason: string }
  | { status: 409; reason: string; latestSize: number };

/**
 * Decides an add-checkpoint request (tlog-witness v1.0.0 §add-checkpoint): 400 malformed or
 * old size above the checkpoint size, 404 unknown origin, 403 no trusted signature verifies (or
 * a trusted key's signature fails), 409 old size ≠ latest cosigned size (send `latestSize`
 * as text/x.tlog.size) or same size with another root, 422 the consistency proof fails (also a
 * non-empty proof from size 0, or a size-0 checkpoint whose root is not SHA-256("")). On 200 the
 * caller cosigns `text` and records (size, root) atomically with this check.
 */
export function decideAddCheckpoint(
  body: string,
  logFor: (origin: string) => WitnessedLog | undefined,
): AddCheckpointDecision {
  const req = parseAddCheckpointRequest(body);
  if (!req.ok) return { status: 400, reason: req.reason };
  const note = parseNote(req.request.checkpoint);
  if (!note.ok) return { status: 400, reason: `checkpoint note: ${note.reason}` };
  const parsed = parseCheckpoint(note.text);
  if (!parsed.ok) return { status: 400, reason: `checkpoint: ${parsed.reason}` };
  const cp = parsed.checkpoint;
  const log = logFor(cp.origin);
  if (log === undefined) return { status: 404, reason: `unknown origin ${JSON.stringify(cp.origin)}` };
  const opened = openNote(req.request.checkpoint, log.verifiers);
  if (!opened.ok) return { status: 403, reason: opened.reason };

  const { oldSize, proof } = req.request;
  if (oldSize > cp.size) return { status: 400, reason: `old size ${oldSize} is above the checkpoint size ${cp.size}` };
  const latestSize = log.latest?.size ?? 0;
  if (oldSize !== latestSize)
    return { status: 409, reason: `old size ${oldSize} is not the latest cosigned size ${latestSize}`, latestSize };
  if (oldSize === 0) {
    if (proof.length !== 0) return { status: 422, reason: 'the proof from size 0 must be empty' };
    if (cp.size === 0 && !Buffer.from(cp.rootHash).equals(EMPTY_ROOT))
      return { status: 422, reason: 'an empty tree has root SHA-256("")' };
  } else if (oldSize === cp.size) {
    if (!Buffer.from(cp.rootHash).equals(log.latest!.rootHash))
      return { status: 409, reason: 'same size as the latest cosigned checkpoint, different root', latestSize };
    if (proof.length !== 0) return { status: 422, reason: 'equal sizes need an empty proof' };
  } else {
    const v = verifyConsistency(oldSize, cp.size, proof, log.latest!.rootHash, cp.rootHash);
    if (!v.ok) return { status: 422, reason: `consistency proof: ${v.reason}` };
  }
  return { status: 200, checkpoint: cp, text: opened.text, sigs: opened.sigs };
}

/** Parses a 200 response body: one or more signature lines (the witness's cosignatures). */
export function parseCosignatureResponse(
  body: string,
): { ok: true; signatures: NoteSignature[] } | { ok: false; reason: string } {
  // A response is a note's signature block; parse it behind a placeholder text.
  const parsed = parseNote(`x\n\n${body}`);
  return parsed.ok ? { ok: true, signatures: parsed.signatures } : { ok: false, reason: parsed.reason };
}
