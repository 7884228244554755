/**
 * Whether a key directory signs a published log (issue 36, defect 6). New keys in its place would
 * fail every earlier checkpoint of that log, so `gspc keygen --force` must refuse there. The data
 * directory named on the command line is not enough to tell: a key directory is copied, named
 * with `--key-dir`, or kept apart from its releases. So the key directory says it itself:
 * `gspc publish` writes `in-use.json` into it (the DID, the release, the log size), and a key
 * directory that holds transitions, a pending change, or sits in a data directory with releases
 * is in use as well.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PENDING_FILE } from './pending-change.js';
import { readPublic, readTransitions, ROOT_FILE, rootOf } from './key-files.js';

export const IN_USE_FILE = 'in-use.json';

/** Records, in the key directory, that it signed `release` (written by every publish that signs). */
export function recordUse(keyDir: string, use: { did: string; release: string; log_size: number }): void {
  if (!existsSync(keyDir)) return;
  writeFileSync(join(keyDir, IN_USE_FILE), `${JSON.stringify(use, null, 2)}\n`, { mode: 0o644 });
}

const hasReleases = (dataDir: string) => {
  const releases = join(dataDir, 'releases');
  return existsSync(releases) && readdirSync(releases).some((f) => f.startsWith('r-'));
};

/** Why the key directory is in use (a published log depends on its keys), or undefined when it is not. */
export function keysInUse(keyDir: string, dataDir: string): string | undefined {
  if (existsSync(join(keyDir, IN_USE_FILE))) return `${keyDir} has signed published releases (${IN_USE_FILE})`;
  let transitions = 0;
  try {
    transitions = readTransitions(keyDir).length;
  } catch {
    transitions = 1; // a transitions file that does not read is still a history
  }
  if (transitions > 0) return `${keyDir} holds key transitions, which published releases log`;
  if (existsSync(join(keyDir, PENDING_FILE))) return `${keyDir} holds a pending key change`;
  // keygen leaves the root's seed beside the keys it makes; a recorded root whose seed is not
  // here was moved away, as the runbook says once the keys are in use (review finding 4d: a
  // replica's copy of the key directory, which has no in-use.json).
  let root: string | undefined;
  try {
    root = rootOf(readPublic(keyDir));
  } catch {
    root = undefined;
  }
  if (root !== undefined && !existsSync(join(keyDir, ROOT_FILE)))
    return `${keyDir} records an identity root (x=${root}) whose seed was moved away from it, as is done once its keys are in use`;
  const parent = dirname(keyDir);
  if (hasReleases(parent)) return `${parent}, the data directory around ${keyDir}, has published releases`;
  if (hasReleases(dataDir)) return `${dataDir} has published releases, whose log the current keys sign`;
  return undefined;
}
