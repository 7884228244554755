/**
 * The card log a new release continues: the largest one any release in the data directory
 * published, not necessarily the current release's. Serving an older release (`serve
 * --release`, a rolled-back `current`) must never make the next publish fork the log: the log
 * must never sign two inconsistent checkpoints (C2SP tlog-checkpoint). A release published for
 * another origin starts a log of its own (its origin is another host).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LogHistoryEntry, PreviousLog } from '../core/evidence/card-log.js';
import { EVIDENCE_DIR } from './evidence.js';
import { currentReleaseDir } from './data-dir.js';
import { releaseDirDid } from './release-origin.js';

/** Only releases signed for `did` count: a log's origin is the DID's host (see release-origin.ts). */
export function previousLog(dataDir: string, did: string): PreviousLog | undefined {
  const releases = join(dataDir, 'releases');
  if (!existsSync(releases)) return undefined;
  const current = currentReleaseDir(dataDir);
  let best: { dir: string; size: number } | undefined;
  for (const name of readdirSync(releases).sort()) {
    if (name.startsWith('.')) continue;
    const dir = join(releases, name);
    const historyFile = join(dir, EVIDENCE_DIR, 'log-history.json');
    if (!existsSync(historyFile) || releaseDirDid(dir) !== did) continue;
    const size = (JSON.parse(readFileSync(historyFile, 'utf8')) as { tree_size: number }).tree_size;
    if (!best || size > best.size || (size === best.size && dir === current)) best = { dir, size };
  }
  if (!best) return undefined;
  const read = <T>(file: string) => JSON.parse(readFileSync(join(best.dir, EVIDENCE_DIR, file), 'utf8')) as T;
  const checkpointFile = join(best.dir, EVIDENCE_DIR, 'log-checkpoint');
  return {
    entries: read<{ entries: string[] }>('log-entries.json').entries,
    history: read<{ checkpoints: LogHistoryEntry[] }>('log-history.json').checkpoints,
    ...(existsSync(checkpointFile) && { checkpoint: readFileSync(checkpointFile, 'utf8') }),
  };
}
