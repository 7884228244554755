/**
 * Witness evidence recorded by the operator (`gspc witness`), kept per root in the data
 * directory: `witness/<root sha256>/<kind>.json` plus the evidence file itself. Mutable state
 * lives here, never inside an immutable release. Transparency-log cosignatures for the same
 * checkpoint are merged, so witnesses can be recorded one at a time.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import {
  checkWitnessEvidence,
  WITNESS_KINDS,
  type WitnessEvidence,
  type WitnessKind,
  type WitnessSubject,
} from '../core/evidence/witness.js';
import { GspcError } from '../core/errors.js';

export function readWitnesses(dataDir: string, rootSha256: string): WitnessEvidence[] {
  const dir = join(dataDir, 'witness', rootSha256);
  return WITNESS_KINDS.filter((k) => existsSync(join(dir, `${k}.json`))).map(
    (k) => JSON.parse(readFileSync(join(dir, `${k}.json`), 'utf8')) as WitnessEvidence,
  );
}

export function recordWitness(
  dataDir: string,
  kind: WitnessKind,
  evidence: Buffer,
  subject: Omit<WitnessSubject, 'kept'>,
): WitnessEvidence {
  const kept = readWitnesses(dataDir, subject.rootSha256).find((w) => w.kind === kind);
  const checked = checkWitnessEvidence(kind, evidence, { ...subject, ...(kept && { kept }) });
  if (!checked.ok) throw new GspcError('witness_invalid', `witness evidence refused: ${checked.reason}`);
  // For a log witness the evidence kept is the merged, verified cosignature lines.
  const stored = checked.log ? Buffer.from(checked.log.cosignatures.map((l) => `${l}\n`).join('')) : evidence;
  const dir = join(dataDir, 'witness', subject.rootSha256);
  mkdirSync(dir, { recursive: true });
  const entry: WitnessEvidence = {
    kind,
    state: checked.state,
    evidence_sha256: createHash('sha256').update(stored).digest('hex'),
    evidence_bytes: stored.length,
    note: checked.note,
    ...(checked.log && { log: checked.log }),
  };
  writeAtomically(join(dir, `${kind}.evidence`), stored);
  writeAtomically(join(dir, `${kind}.json`), Buffer.from(`${JSON.stringify(entry, null, 2)}\n`));
  return entry;
}

/** A reader (a serving process) sees the old file or the new one, never a half-written one. */
function writeAtomically(path: string, bytes: Buffer): void {
  const tmp = `${path}.tmp-${randomBytes(6).toString('hex')}`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, path);
}
