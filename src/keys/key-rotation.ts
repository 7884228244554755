/**
 * `gspc keys rotate` (issues 30 and 36): a new key, and the transition the retired and the new
 * key both sign (decision K1-K3). For a signing key (`board`, `agent-card`) the retired key signs
 * with the new; for the identity root, the old root with the new root (the root's own rotation,
 * as TUF's). The change is staged (pending-change.ts): the next publish logs the transition and
 * signs with the new key, and until then every service serves what it served. The retired seed
 * is not kept in the change: the new seed replaces it when the publish promotes the change.
 */
import { randomBytes } from 'node:crypto';
import { keyPairFromSeed, sign } from '../core/crypto/ed25519.js';
import { GspcError } from '../core/errors.js';
import {
  isKeyChange,
  KEY_TRANSITION_SCHEMA,
  signTransition,
  type RotationTransition,
  type TransitionRecord,
} from '../core/evidence/key-transition.js';
import { ROOT_KEY, type KeyFragment, type Signer, type TransitionFragment } from '../core/evidence/signer.js';
import { readPublic } from './key-files.js';
import { loadKeys } from './key-store.js';
import { nextKeyState, stagePending } from './pending-change.js';

/** The next sequence of `fragment`'s transitions for `did` (1 for its first change). */
export const nextSequence = (transitions: readonly TransitionRecord[], fragment: TransitionFragment, did: string) =>
  transitions.filter((t) => isKeyChange(t) && t.fragment === fragment && t.did === did).length + 1;

function rotation(
  dir: string,
  fragment: TransitionFragment,
  retired: Signer,
  seed: Buffer,
  opts: { did: string; at: string },
): RotationTransition {
  const state = nextKeyState(dir, readPublic);
  const pair = keyPairFromSeed(seed);
  const next = { kid: retired.kid, publicKey: pair.publicKey, sign: (m: Uint8Array) => sign(pair.privateKey, m) };
  const record = signTransition(
    {
      schema: KEY_TRANSITION_SCHEMA,
      did: opts.did,
      fragment,
      sequence: nextSequence(state.transitions, fragment, opts.did),
      kind: 'rotation',
      old_x: Buffer.from(retired.publicKey).toString('base64url'),
      new_x: pair.publicKey.toString('base64url'),
      at: opts.at,
    },
    retired,
    next,
  );
  state.public_keys[fragment] = record.new_x;
  // The root's seed never joins the key directory's change: the caller hands it to the operator.
  if (fragment !== ROOT_KEY) state.seeds[fragment] = seed.toString('base64url');
  stagePending(dir, { did: opts.did, ...state, transitions: [...state.transitions, record] });
  return record;
}

/**
 * Stages a rotation of a signing key. The retired key is the one the next publish would sign
 * with (a change already pending included), and must be healthy: it signs the transition.
 */
export function rotateKey(
  dir: string,
  fragment: KeyFragment,
  opts: { did: string; at: string; seed?: Uint8Array },
): RotationTransition {
  const old = loadKeys(dir, opts.did, { next: true }).state(fragment);
  if (!old.healthy)
    throw new GspcError(
      'keys_unhealthy',
      `${fragment} cannot be rotated: ${old.reason}. A rotation is signed by the key it retires; a key that is lost or leaked is replaced with gspc keys revoke`,
    );
  return rotation(dir, fragment, old.signer, Buffer.from(opts.seed ?? randomBytes(32)), opts);
}

/**
 * Stages a rotation of the identity root, signed by `root` (the root in force, checked by the
 * caller: identity-root.ts rootKeyFor) and the new root. Returns the record and the new seed,
 * which the caller writes where the operator keeps the root.
 */
export function rotateRoot(
  dir: string,
  root: Signer,
  opts: { did: string; at: string; seed?: Uint8Array },
): { record: RotationTransition; seed: Buffer } {
  const seed = Buffer.from(opts.seed ?? randomBytes(32));
  return { record: rotation(dir, ROOT_KEY, root, seed, opts), seed };
}
