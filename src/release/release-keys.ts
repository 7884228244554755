/**
 * The keys that signed a release, and whether a service may serve it with the keys it holds.
 *
 * A release records the public keys it was signed with in `evidence/public-keys.json`, a file
 * whose SHA-256 its `release.json` lists (so it cannot change without the release failing to
 * load). Readers check the release's cards, root and checkpoint against the DID document the
 * service serves, which is built from the service's key directory. A replica that ran
 * `gspc keygen` instead of copying the publisher's keys would serve a DID document naming other
 * keys: every card INVALID under `gspc verify` while the service called itself ready (issue 28).
 * So `serve`, `export static` and `pull` refuse keys that are not the release's, and the served
 * board's living stamp is FAILED (and `/readyz` unready) while they differ.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PublishedKey } from '../core/evidence/did.js';
import { GspcError } from '../core/errors.js';
import type { LoadedRelease } from './load.js';
import {
  isKeyChange,
  transitionId,
  type KeyTransition,
  type TransitionRecord,
} from '../core/evidence/key-transition.js';
import { BOARD_KEY } from '../core/evidence/signer.js';

const PUBLIC_KEYS = 'evidence/public-keys.json';
/** Written by `gspc pull` into a replica's data directory: where its releases come from. */
export const REPLICA_MARKER = 'replica-of.json';

/** One key of a release that the service's keys do not give as it was signed. */
export interface KeyMismatch {
  fragment: string;
  /** The release's public key (JWK `x`, base64url). */
  release: string;
  /** The service's public key for the same fragment, or null when it has none. */
  served: string | null;
}

/** The public keys recorded in a release, by fragment (JWK `x`, base64url). */
export function releaseKeys(release: LoadedRelease): Map<string, string> {
  return recordedKeys(release.evidence.files.get(PUBLIC_KEYS));
}

/** The keys of a release's `evidence/public-keys.json` bytes (none when it has no such file). */
export function recordedKeys(bytes: Buffer | undefined): Map<string, string> {
  if (bytes === undefined) return new Map();
  const doc = JSON.parse(bytes.toString('utf8')) as { keys?: { fragment?: unknown; x?: unknown }[] };
  const out = new Map<string, string>();
  for (const k of doc.keys ?? [])
    if (typeof k.fragment === 'string' && typeof k.x === 'string') out.set(k.fragment, k.x);
  return out;
}

/**
 * Every key of the release that `served` (the keys a DID document would publish) does not give.
 * With the key directory's `transitions`, a key the release was signed with before a rotation
 * it does not log is given too (issue 30): the served DID document lists it as retired, and the
 * verifiers check the release under the keys of its log's size, unless a revocation took that
 * key back for a log as long as this release's (it then stays a mismatch).
 */
export function keyMismatches(
  release: LoadedRelease | Map<string, string>,
  served: readonly PublishedKey[],
  transitions: readonly TransitionRecord[] = [],
): KeyMismatch[] {
  const ours = new Map(served.map((k) => [k.fragment as string, Buffer.from(k.publicKey).toString('base64url')]));
  const retired = release instanceof Map ? new Set<string>() : signedBeforeRotation(release, ours, transitions);
  return [...(release instanceof Map ? release : releaseKeys(release))]
    .filter(([fragment, x]) => ours.get(fragment) !== x && !retired.has(`${fragment} ${x}`))
    .map(([fragment, x]) => ({ fragment, release: x, served: ours.get(fragment) ?? null }));
}

/**
 * `<fragment> <x>` for each key of the release that the transitions retired after it: the
 * fragment's chain runs from that key to the served one, and the release's log holds none of the
 * transitions on the way (it was published before them).
 */
function signedBeforeRotation(
  release: LoadedRelease,
  served: ReadonlyMap<string, string>,
  records: readonly TransitionRecord[],
): Set<string> {
  const out = new Set<string>();
  const transitions = records.filter(isKeyChange);
  if (transitions.length === 0) return out;
  const logged = new Set(release.evidence.log.entries);
  const size = release.evidence.log.entries.length;
  for (const [fragment, x] of releaseKeys(release)) {
    const chain = transitions.filter((t) => t.fragment === fragment);
    const from = chain.findIndex((t) => t.old_x === x);
    if (from < 0 || chain.at(-1)!.new_x !== served.get(fragment)) continue;
    if (chain.slice(from).some((t) => logged.has(transitionId(t)))) continue;
    if (!revokedBeyond(transitions, fragment, x, size)) out.add(`${fragment} ${x}`);
  }
  return out;
}

/**
 * Whether a revocation takes back what `x` signed in a release of `size` log entries. Only the
 * board key signs what a release holds (cards, root, checkpoints); the agent-card keys sign only
 * live answers, so revoking one of them leaves every earlier release servable (issue 36).
 */
function revokedBeyond(transitions: readonly KeyTransition[], fragment: string, x: string, size: number): boolean {
  return (
    fragment === BOARD_KEY &&
    transitions.some(
      (t) => t.kind === 'revocation' && t.fragment === fragment && t.revoked_x === x && size > t.trusted_size,
    )
  );
}

/** `board-attestation-1: the release's x=… , this key directory's x=…`, for messages. */
export function describeMismatches(mismatches: readonly KeyMismatch[]): string {
  return mismatches
    .map(
      (m) =>
        `${m.fragment}: the release's x=${m.release}, the key directory's ${m.served === null ? 'none' : `x=${m.served}`}`,
    )
    .join('; ');
}

/** Whether `dataDir` is a replica (its releases were pulled from a publisher). */
export const isReplica = (dataDir: string): boolean => existsSync(join(dataDir, REPLICA_MARKER));

/**
 * Refuses to go on with keys that would make the release's signatures fail, naming both key ids
 * (the release's and the key directory's public keys) and the fix, which differs for a replica
 * (copy the publisher's keys) and for the publisher itself (restore the keys that signed it).
 */
export function requireReleaseKeys(
  release: LoadedRelease | { id: string; keys: Map<string, string> },
  served: readonly PublishedKey[],
  where: { keyDir: string; replica: boolean; transitions?: readonly TransitionRecord[] },
): void {
  const mismatches = keyMismatches('keys' in release ? release.keys : release, served, where.transitions);
  if (mismatches.length === 0) return;
  const changes = (where.transitions ?? []).filter(isKeyChange);
  const revoked = mismatches.flatMap((m) =>
    changes.flatMap((t) =>
      t.kind === 'revocation' && t.fragment === m.fragment && t.fragment === BOARD_KEY && t.revoked_x === m.release
        ? [t]
        : [],
    ),
  );
  if (revoked.length > 0)
    throw new GspcError(
      'release_keys_mismatch',
      `release ${release.id} was signed with ${revoked.map((t) => `${t.fragment}: x=${t.revoked_x}, revoked as compromised since ${t.compromised_since}`).join('; ')}, beyond the ${revoked[0]!.trusted_size} log entries made before then: ` +
        'its signatures read INVALID (revoked). Fix: publish its corpus again (gspc publish), which signs it with the new key; nothing was changed',
      { release: release.id, mismatches },
    );
  // Signed with keys this directory retired (gspc keys rotate): restoring them is not the fix.
  const retired = mismatches.filter((m) => changes.some((t) => t.fragment === m.fragment && t.old_x === m.release));
  if (retired.length === mismatches.length)
    throw new GspcError(
      'release_keys_mismatch',
      `release ${release.id} was signed before its keys were rotated (${retired.map((m) => `${m.fragment}: the retired key x=${m.release}`).join('; ')}): ` +
        'a release signed with a retired key is not served as the current one (its signatures still verify with gspc verify <release dir>). ' +
        'Fix: publish its corpus again (gspc publish), which signs it with the current keys; nothing was changed',
      { release: release.id, mismatches },
    );
  const fix = where.replica
    ? `a replica serves with the publisher's keys: copy the publisher's key directory (its *.key files but identity-root.key, public-keys.json, transitions.json and pending.json, owner-only) into ${where.keyDir}, or point --key-dir / GSPC_KEY_DIR at a copy of it; do not run gspc keygen for a replica`
    : `restore the keys that signed it into ${where.keyDir} (from your backup), or point --key-dir / GSPC_KEY_DIR at them`;
  throw new GspcError(
    'release_keys_mismatch',
    `release ${release.id} was signed with other keys than those in ${where.keyDir} (${describeMismatches(mismatches)}): ` +
      `served with these keys, its DID document would fail every signature of the release. Fix: ${fix}; nothing was changed`,
    { release: release.id, mismatches },
  );
}
