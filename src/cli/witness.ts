/** `gspc witness --kind … --evidence …`: records operator-supplied witness evidence for the current root. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WITNESS_KINDS, type WitnessKind } from '../core/evidence/witness.js';
import { GspcError } from '../core/errors.js';
import { currentReleaseDir } from '../release/data-dir.js';
import { recordWitness } from '../release/witness-store.js';

export function runWitness(dataDir: string, kind: string, evidencePath: string): string {
  if (!(WITNESS_KINDS as readonly string[]).includes(kind)) throw new GspcError('witness_invalid', `unknown witness kind '${kind}' (one of ${WITNESS_KINDS.join(', ')})`);
  const dir = currentReleaseDir(dataDir);
  if (dir === undefined) throw new GspcError('release_not_found', `nothing is published in ${dataDir}`);
  const rootSha = createHash('sha256').update(readFileSync(join(dir, 'evidence', 'root.json'))).digest('hex');
  const entry = recordWitness(dataDir, rootSha, kind as WitnessKind, readFileSync(evidencePath));
  return `${kind}: ${entry.state} for root ${rootSha} (a running gspc serve picks it up on its next check or on SIGHUP)`;
}
