/**
 * The signing context of a command: the DID, the loaded keys with their health, and the inputs
 * a publish signs with. Built once from the configuration: the key files in `keyDir`, or, with
 * `token` (GSPC_SIGNER=pkcs11), the keys a PKCS#11 token holds (pkcs11-keys.ts).
 *
 * `next`: the keys with the key directory's pending change applied (pending-change.ts), which is
 * what `gspc publish` signs with. A service holds both (`keyStates`) and serves each release
 * with the keys it was published with (`signingFor`, release-keys-follow.ts).
 */
import { didForHost } from '../core/evidence/did.js';
import { BOARD_KEY } from '../core/evidence/signer.js';
import type { EvidenceInputs } from '../release/evidence.js';
import type { LoadedRelease } from '../release/load.js';
import { loadKeys, type LoadedKeys } from './key-store.js';
import { loadTokenKeys, type TokenConfig } from './pkcs11-keys.js';
import { readPending } from './pending-change.js';
import { followsRelease, recordedOf } from './release-keys-follow.js';

export interface SigningContext {
  did: string;
  keys: LoadedKeys;
  inputs: Omit<EvidenceInputs, 'previous'>;
}

export function signingContext(
  keyDir: string,
  didHost: string,
  token?: TokenConfig,
  opts: { next?: boolean } = {},
): SigningContext {
  const did = didForHost(didHost);
  const keys = token === undefined ? loadKeys(keyDir, did, opts) : loadTokenKeys(token, did, keyDir, opts);
  const inputs = { did, boardKey: keys.state(BOARD_KEY), publishedKeys: keys.published };
  return { did, keys, inputs: keys.transitions.length > 0 ? { ...inputs, transitions: keys.transitions } : inputs };
}

/** The key directory's own keys, and, while a change is pending, the keys with it applied. */
export interface KeyStates {
  committed: SigningContext;
  pending?: SigningContext;
  /**
   * Why pending.json could not be read for want of a resource (descriptors, memory): it says
   * nothing of the file, so a health check keeps the states it holds and reads again (issue 38).
   */
  pendingUnread?: string;
}

/** An error that is a resource running out (EMFILE, ENFILE, ENOMEM, EAGAIN), not the file. */
function resourceShortage(e: unknown): string | undefined {
  const text = `${(e as NodeJS.ErrnoException)?.code ?? ''} ${(e as Error)?.message ?? ''}`;
  return /\b(EMFILE|ENFILE|ENOMEM|EAGAIN)\b/.exec(text)?.[1];
}

export function keyStates(keyDir: string, didHost: string, token?: TokenConfig): KeyStates {
  const committed = signingContext(keyDir, didHost, token);
  try {
    if (readPending(keyDir) === undefined) return { committed };
    return { committed, pending: signingContext(keyDir, didHost, token, { next: true }) };
  } catch (e) {
    const shortage = resourceShortage(e);
    if (shortage !== undefined) return { committed, pendingUnread: `(${shortage}) ${(e as Error).message}` };
    // A pending.json that does not read serves nothing: the release that would need it is
    // refused (its keys are not these) and the one served stays; gspc keys status says why.
    return { committed };
  }
}

/**
 * The keys `release` is served with: the pending change's exactly when the release was published
 * with it (it records its keys and logs its transitions), else the key directory's own. So a
 * staged rotation or revocation changes nothing served until the release that logs it is.
 */
export function signingFor(states: KeyStates, release: LoadedRelease): SigningContext {
  const { pending } = states;
  return pending !== undefined && followsRelease(pending.keys, recordedOf(release)) ? pending : states.committed;
}
