/**
 * When each checkpoint of the card log was made, as this data directory knows it: a checkpoint
 * was made when the first release that carries it was written (the release.json's modification
 * time). `gspc keys revoke` reads it to find the largest checkpoint made before a compromise
 * (decision K6). A release directory copied without its times (a restore without `cp -p`) looks
 * newer than it is, which trusts less of the log, never more; a clock set back would trust more,
 * which is why the command prints the table it decided from.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { logLeaves } from '../core/evidence/card-log.js';
import { MerkleTree } from '../core/evidence/merkle/merkle-tree.js';
import { parseCheckpoint } from '../core/evidence/note/checkpoint.js';
import { parseNote } from '../core/evidence/note/signed-note.js';
import { loadBaseRelease } from './base-release.js';
import { EVIDENCE_DIR } from './evidence.js';

export interface CheckpointTime {
  tree_size: number;
  /** The earliest release.json time of a release carrying this checkpoint; undefined when none on disk does. */
  made?: Date;
}

/** Every checkpoint the base release's log has (its history and its own), oldest first, with when it was made. */
export function checkpointTimes(dataDir: string, did: string): CheckpointTime[] {
  const base = loadBaseRelease(dataDir, did);
  if (base === undefined) return [];
  const { history, checkpoint, entries } = base.evidence.log;
  const notes = [...history.map((h) => h.checkpoint), ...(checkpoint === undefined ? [] : [checkpoint])];
  const sizes = [...history.map((h) => h.tree_size), ...(checkpoint === undefined ? [] : [entries.length])];
  const made = new Map<string, Date>();
  const releases = join(dataDir, 'releases');
  for (const name of existsSync(releases) ? readdirSync(releases) : []) {
    if (name.startsWith('.')) continue;
    const dir = join(releases, name);
    let note: string;
    let at: Date;
    try {
      note = readFileSync(join(dir, EVIDENCE_DIR, 'log-checkpoint'), 'utf8');
      at = statSync(join(dir, 'release.json')).mtime;
    } catch {
      continue;
    }
    const seen = made.get(note);
    if (seen === undefined || at < seen) made.set(note, at);
  }
  return notes.map((note, i) => {
    const opened = parseNote(note);
    const size = opened.ok ? parseCheckpoint(opened.text) : undefined;
    const tree_size = size?.ok ? size.checkpoint.size : sizes[i]!;
    const at = made.get(note);
    return { tree_size, ...(at && { made: at }) };
  });
}

/** The largest checkpoint size made strictly before `instant` (0 when none was). */
export function trustedSizeAt(times: readonly CheckpointTime[], instant: Date): number {
  let size = 0;
  for (const t of times) if (t.made !== undefined && t.made < instant && t.tree_size > size) size = t.tree_size;
  return size;
}

/**
 * The RFC 6962 root (hex) of the base release's first `size` log entries: what a revocation
 * trusting `size` entries binds (`trusted_root`, issue 36). SHA-256 of nothing for 0.
 */
export function trustedRootAt(dataDir: string, did: string, size: number): string {
  const entries = loadBaseRelease(dataDir, did)?.evidence.log.entries ?? [];
  if (size > entries.length) throw new Error(`the log has ${entries.length} entries, fewer than ${size}`);
  if (size === 0) return createHash('sha256').digest('hex');
  return Buffer.from(new MerkleTree(logLeaves(entries.slice(0, size))).root()).toString('hex');
}
