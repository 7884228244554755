/**
 * Witness evidence recorded by the operator (`gspc witness`), kept per root in the data
 * directory: `witness/<root sha256>/<kind>.json` plus the evidence file itself. Mutable state
 * lives here, never inside an immutable release.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { checkWitnessEvidence, WITNESS_KINDS, type WitnessEvidence, type WitnessKind } from '../core/evidence/witness.js';
import { GspcError } from '../core/errors.js';

export function readWitnesses(dataDir: string, rootSha256: string): WitnessEvidence[] {
  const dir = join(dataDir, 'witness', rootSha256);
  return WITNESS_KINDS.filter((k) => existsSync(join(dir, `${k}.json`))).map((k) => JSON.parse(readFileSync(join(dir, `${k}.json`), 'utf8')) as WitnessEvidence);
}

export function recordWitness(dataDir: string, rootSha256: string, kind: WitnessKind, evidence: Buffer): WitnessEvidence {
  const checked = checkWitnessEvidence(kind, evidence, rootSha256);
  if (!checked.ok) throw new GspcError('witness_invalid', `witness evidence refused: ${checked.reason}`);
  const dir = join(dataDir, 'witness', rootSha256);
  mkdirSync(dir, { recursive: true });
  const entry: WitnessEvidence = { kind, state: checked.state, evidence_sha256: createHash('sha256').update(evidence).digest('hex'), evidence_bytes: evidence.length, note: checked.note };
  writeFileSync(join(dir, `${kind}.evidence`), evidence);
  writeFileSync(join(dir, `${kind}.json`), `${JSON.stringify(entry, null, 2)}\n`);
  return entry;
}
