/**
 * `gspc witness`: records witness evidence for the current root. `--evidence` takes a file the
 * operator obtained (an OpenTimestamps proof, or cosignature lines); `--submit` sends the log
 * checkpoint to a tlog-witness itself (C2SP add-checkpoint, the operator's own witness URL) and
 * records the cosignature it answers with.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { logLeaves } from '../core/evidence/card-log.js';
import { MerkleTree } from '../core/evidence/merkle/merkle-tree.js';
import { WITNESS_KINDS, type WitnessKind } from '../core/evidence/witness.js';
import { GspcError } from '../core/errors.js';
import { currentReleaseDir } from '../release/data-dir.js';
import { EVIDENCE_DIR } from '../release/evidence.js';
import { recordWitness } from '../release/witness-store.js';
import { submitCheckpoint } from '../verify/witness-submit.js';

export interface WitnessOptions {
  kind: string;
  evidence?: string;
  submit?: string;
  witnessKeys: string[];
  /** POSIX seconds. */
  now: number;
}

export async function runWitness(dataDir: string, o: WitnessOptions): Promise<string> {
  if (!(WITNESS_KINDS as readonly string[]).includes(o.kind))
    throw new GspcError('witness_invalid', `unknown witness kind '${o.kind}' (one of ${WITNESS_KINDS.join(', ')})`);
  if ((o.evidence === undefined) === (o.submit === undefined))
    throw new GspcError('witness_invalid', 'give exactly one of --evidence <file> and --submit <witness-url>');
  const dir = currentReleaseDir(dataDir);
  if (dir === undefined) throw new GspcError('release_not_found', `nothing is published in ${dataDir}`);
  const rootSha256 = createHash('sha256')
    .update(readFileSync(join(dir, EVIDENCE_DIR, 'root.json')))
    .digest('hex');
  const checkpointFile = join(dir, EVIDENCE_DIR, 'log-checkpoint');
  const logCheckpoint = existsSync(checkpointFile) ? readFileSync(checkpointFile, 'utf8') : undefined;
  let evidence: Buffer;
  if (o.submit !== undefined) {
    if (o.kind !== 'transparency-log')
      throw new GspcError(
        'witness_invalid',
        '--submit sends the log checkpoint to a transparency-log witness; use --kind transparency-log',
      );
    if (logCheckpoint === undefined)
      throw new GspcError('witness_invalid', 'the current release has no signed log checkpoint to submit');
    const entries = (
      JSON.parse(readFileSync(join(dir, EVIDENCE_DIR, 'log-entries.json'), 'utf8')) as { entries: string[] }
    ).entries;
    evidence = await submitCheckpoint(o.submit, logCheckpoint, new MerkleTree(logLeaves(entries)));
  } else {
    evidence = readFileSync(o.evidence!);
  }
  const entry = recordWitness(dataDir, o.kind as WitnessKind, evidence, {
    rootSha256,
    ...(logCheckpoint !== undefined && { logCheckpoint }),
    witnessKeys: o.witnessKeys,
    now: o.now,
  });
  return `${o.kind}: ${entry.state} for root ${rootSha256}${entry.log ? ` (cosigned by ${entry.log.cosigners.map((c) => c.name).join(', ')})` : ''}; a running gspc serve picks it up on its next check or on SIGHUP`;
}
