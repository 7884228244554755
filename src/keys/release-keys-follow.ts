/**
 * Which keys a release is served with (issue 36, decision K9): the key directory's own, or, when
 * a change is pending, the staged keys for exactly the release that logs that change. A service
 * therefore keeps serving what it served while `gspc keys rotate` or `revoke` waits for its
 * publish, and switches to the new keys together with the release that records them; a replica
 * given a copy of the key directory (pending change included) does the same when it pulls that
 * release. `settlePending` makes the staged change the key directory's own once the data
 * directory's current release logs it (after a publish, or to finish one that was interrupted).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transitionId } from '../core/evidence/key-transition.js';
import { currentReleaseDir } from '../release/data-dir.js';
import type { LoadedRelease } from '../release/load.js';
import { recordedKeys, releaseKeys } from '../release/release-keys.js';
import { releaseDid } from '../release/release-origin.js';
import { loadKeys, type LoadedKeys } from './key-store.js';
import { promotePending, readPending } from './pending-change.js';
import { loadTokenKeys, type TokenConfig } from './pkcs11-keys.js';

/** What a release records of its keys: the DID, its public keys by fragment, and its log's entries. */
export interface RecordedRelease {
  did: string;
  keys: ReadonlyMap<string, string>;
  entries: readonly string[];
}

export const recordedOf = (release: LoadedRelease): RecordedRelease => ({
  did: releaseDid(release),
  keys: releaseKeys(release),
  entries: release.evidence.log.entries,
});

/** The same, read from a release directory's evidence files (undefined when they do not read). */
export function recordedOfDir(dir: string): RecordedRelease | undefined {
  try {
    const keysBytes = readFileSync(join(dir, 'evidence', 'public-keys.json'));
    const did = (JSON.parse(keysBytes.toString('utf8')) as { did?: unknown }).did;
    const log = JSON.parse(readFileSync(join(dir, 'evidence', 'log-entries.json'), 'utf8')) as { entries?: unknown };
    if (typeof did !== 'string' || !Array.isArray(log.entries)) return undefined;
    return { did, keys: recordedKeys(keysBytes), entries: log.entries as string[] };
  } catch {
    return undefined;
  }
}

/**
 * Whether `keys` are exactly the keys `release` was signed with and published beside: the same
 * public key for every fragment (the identity root's included), and every transition logged.
 * A staged change makes a new key (or adds the root) and a transition no earlier release holds,
 * so only the release published with it matches.
 */
export function followsRelease(keys: Pick<LoadedKeys, 'published' | 'transitions'>, release: RecordedRelease): boolean {
  const ours = new Map(
    keys.published.map((k) => [k.fragment as string, Buffer.from(k.publicKey).toString('base64url')]),
  );
  if (ours.size !== release.keys.size) return false;
  for (const [fragment, x] of release.keys) if (ours.get(fragment) !== x) return false;
  const logged = new Set(release.entries);
  return keys.transitions.every((t) => logged.has(transitionId(t)));
}

/**
 * Promotes the pending change when the data directory's current release was published with it
 * (with `token`, the signing keys are the token's). Returns whether it did.
 */
export function settlePending(keyDir: string, dataDir: string, token?: TokenConfig): boolean {
  const pending = readPending(keyDir);
  const current = currentReleaseDir(dataDir);
  if (pending === undefined || current === undefined) return false;
  const recorded = recordedOfDir(current);
  if (recorded === undefined) return false;
  const next =
    token === undefined
      ? loadKeys(keyDir, recorded.did, { next: true })
      : loadTokenKeys(token, recorded.did, keyDir, { next: true });
  if (!followsRelease(next, recorded)) return false;
  return promotePending(keyDir);
}
