/**
 * WITNESSED evidence for the `transparency-log` witness: cosignature/v1 lines (a tlog-witness
 * add-checkpoint 200 response) over the release's signed log checkpoint, each verified against
 * a witness key the operator names. A witness cosigns the log's consistency, not the board's
 * content: the record says which checkpoint was cosigned, by whom and when, and that the
 * checkpoint's tree holds every leaf of the public root (checked at publish and by gspc verify).
 */
import { parseCheckpoint } from './note/checkpoint.js';
import { verifyCosignature } from './note/cosignature.js';
import {
  formatSignatureLine,
  keyIdHex,
  parseNote,
  SIG_TYPE_COSIGNATURE_V1,
  type NoteSignature,
} from './note/signed-note.js';
import { parseVerifierKey, type VerifierKey } from './note/verifier-key.js';
import { parseCosignatureResponse } from './note/witness.js';

export interface LogCosigner {
  name: string;
  vkey: string;
  /** POSIX seconds the witness put in its cosignature. */
  timestamp: number;
}

export interface LogWitnessing {
  /** The checkpoint cosigned: origin, size and base64 root, as in its note text. */
  checkpoint: { origin: string; tree_size: number; root_hash: string };
  /** Verified cosignature lines, verbatim, in vkey order. */
  cosignatures: string[];
  cosigners: LogCosigner[];
}

export type LogWitnessResult = { ok: true; witnessing: LogWitnessing } | { ok: false; reason: string };

/**
 * Verifies cosignature lines over `checkpointNote` (the log's signed note) for every witness key
 * in `vkeys`; lines kept from an earlier recording of the same checkpoint are re-verified and
 * merged. Refuses a key that is not cosignature/v1 (type 0x04), a key with no valid line, and a
 * timestamp after `notAfter` (POSIX seconds; the caller's clock).
 */
export function checkLogCosignatures(
  evidence: string,
  checkpointNote: string,
  vkeys: readonly string[],
  notAfter: number,
  kept?: LogWitnessing,
): LogWitnessResult {
  const note = parseNote(checkpointNote);
  if (!note.ok) return { ok: false, reason: `the log checkpoint is not a signed note: ${note.reason}` };
  const cp = parseCheckpoint(note.text);
  if (!cp.ok) return { ok: false, reason: `the log checkpoint: ${cp.reason}` };
  const response = parseCosignatureResponse(evidence.endsWith('\n') ? evidence : `${evidence}\n`);
  if (!response.ok) return { ok: false, reason: `the evidence is not cosignature lines: ${response.reason}` };
  const checkpoint = {
    origin: cp.checkpoint.origin,
    tree_size: cp.checkpoint.size,
    root_hash: note.text.split('\n')[2]!,
  };
  const sameCheckpoint =
    kept !== undefined &&
    kept.checkpoint.tree_size === checkpoint.tree_size &&
    kept.checkpoint.root_hash === checkpoint.root_hash &&
    kept.checkpoint.origin === checkpoint.origin;
  const keyed: { key: VerifierKey; vkey: string }[] = [];
  for (const vkey of new Set([...vkeys, ...(sameCheckpoint ? kept.cosigners.map((c) => c.vkey) : [])])) {
    const parsed = parseVerifierKey(vkey);
    if (!parsed.ok) return { ok: false, reason: `witness key ${JSON.stringify(vkey)}: ${parsed.reason}` };
    if (parsed.key.type !== SIG_TYPE_COSIGNATURE_V1)
      return { ok: false, reason: `witness key ${parsed.key.name} is not a cosignature/v1 key (type 0x04)` };
    keyed.push({ key: parsed.key, vkey });
  }
  if (keyed.length === 0) return { ok: false, reason: 'name at least one witness key (--witness-key <vkey>)' };
  const keptLines =
    sameCheckpoint && kept.cosignatures.length > 0
      ? parseCosignatureResponse(kept.cosignatures.map((l) => `${l}\n`).join(''))
      : undefined;
  const candidates: NoteSignature[] = [...response.signatures, ...(keptLines?.ok ? keptLines.signatures : [])];
  const cosignatures: string[] = [];
  const cosigners: LogCosigner[] = [];
  for (const { key, vkey } of keyed) {
    const mine = candidates.filter((s) => s.name === key.name && s.keyId === key.keyId);
    if (mine.length === 0)
      return { ok: false, reason: `no cosignature by ${key.name}+${keyIdHex(key.keyId)} in the evidence` };
    // The newest valid cosignature of each witness is kept.
    let best: { sig: NoteSignature; timestamp: number } | undefined;
    let failure = '';
    for (const sig of mine) {
      const v = verifyCosignature(note.text, sig, key, notAfter);
      if (v.ok) {
        if (!best || v.timestamp > best.timestamp) best = { sig, timestamp: v.timestamp };
      } else failure = v.reason;
    }
    if (!best)
      return {
        ok: false,
        reason: `the cosignature by ${key.name} does not verify over checkpoint ${checkpoint.tree_size} ${checkpoint.root_hash}: ${failure}`,
      };
    cosignatures.push(formatSignatureLine(best.sig).trimEnd());
    cosigners.push({ name: key.name, vkey, timestamp: best.timestamp });
  }
  return { ok: true, witnessing: { checkpoint, cosignatures, cosigners } };
}

/** The served checkpoint: the log's own signed note followed by the recorded cosignature lines. */
export function cosignedCheckpoint(checkpointNote: string, witnessing: LogWitnessing | undefined): string {
  if (!witnessing || witnessing.cosignatures.length === 0) return checkpointNote;
  const have = new Set(checkpointNote.split('\n'));
  return (
    checkpointNote +
    witnessing.cosignatures
      .filter((l) => !have.has(l))
      .map((l) => `${l}\n`)
      .join('')
  );
}
