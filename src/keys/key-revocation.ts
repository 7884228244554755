/**
 * `gspc keys revoke` (issues 30 and 36): the day a key leaks. A new key replaces the fragment's
 * current one, and a revocation record, signed by the identity root and the new key (decisions
 * K6, K8), says which key of the fragment was compromised and from when, and how much of the log
 * was made before then. The change is staged (pending-change.ts); the next publish logs it like a
 * rotation, and until then the services serve what they served (the leaked key included: publish
 * at once).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { keyPairFromSeed, sign } from '../core/crypto/ed25519.js';
import { GspcError } from '../core/errors.js';
import {
  isKeyChange,
  KEY_TRANSITION_SCHEMA,
  signRevocation,
  type KeyTransition,
  type RevocationTransition,
} from '../core/evidence/key-transition.js';
import { ALL_KEYS, type KeyFragment, type Signer } from '../core/evidence/signer.js';
import { readPublic } from './key-files.js';
import { nextSequence } from './key-rotation.js';
import { nextKeyState, PENDING_FILE, stagePending } from './pending-change.js';

/** A key an operator names: a fragment's current key (`board-attestation-1`) or a retired one (`board-attestation-1~1`). */
export interface KeyRef {
  fragment: KeyFragment;
  /** The retired key `~<sequence>`: the one the fragment's transition of that sequence retired. */
  sequence?: number;
}

/** Parses `board-attestation-1`, `board-attestation-1~2` or a DID URL ending in either. */
export function parseKeyRef(kid: string): KeyRef {
  const m = /^(?:did:web:[^#]+#)?([a-z0-9-]+)(?:~([1-9][0-9]*))?$/.exec(kid);
  const fragment = m?.[1] as KeyFragment | undefined;
  if (!m || !ALL_KEYS.includes(fragment!))
    throw new GspcError(
      'config_invalid',
      `'${kid}' names none of this service's keys: give ${ALL_KEYS.join(', ')}, or a retired one as <fragment>~<n> (the DID document lists them); nothing was written`,
    );
  return { fragment: fragment!, ...(m[2] !== undefined && { sequence: Number(m[2]) }) };
}

/**
 * Stages a revocation: a new key for the fragment, and the record the identity root in force
 * (`root`, checked by the caller against the key state: identity-root.ts rootKeyFor) and the new
 * key sign. Built on the key state the next publish signs with (a pending change included).
 */
export function revokeKey(
  dir: string,
  ref: KeyRef,
  opts: {
    did: string;
    at: string;
    compromisedSince: string;
    trustedSize: number;
    /** The RFC 6962 root (hex) of the log's first `trustedSize` entries. */
    trustedRoot: string;
    root: { signer: Signer; x: string };
    seed?: Uint8Array;
  },
): RevocationTransition {
  const state = nextKeyState(dir, readPublic);
  const chain = state.transitions.filter(
    (t): t is KeyTransition => isKeyChange(t) && t.fragment === ref.fragment && t.did === opts.did,
  );
  const current = state.public_keys[ref.fragment];
  if (current === undefined)
    throw new GspcError(
      'keys_unhealthy',
      `${dir} records no public key for ${ref.fragment} (run gspc keygen); nothing was written`,
    );
  let revoked = current;
  if (ref.sequence !== undefined) {
    const t = chain.find((c) => c.sequence === ref.sequence);
    if (t === undefined)
      throw new GspcError(
        'config_invalid',
        `${ref.fragment}~${ref.sequence}: ${ref.fragment} has ${chain.length === 0 ? 'no retired key' : `retired keys ~1 to ~${chain.length}`}; nothing was written`,
      );
    revoked = t.old_x;
  }
  // A second revocation before the publish would revoke the key the first one staged, which was
  // never published nor leaked (review finding 4b): the leaked key is the published one.
  const published = readPublic(dir)[ref.fragment];
  if (revoked !== published && existsSync(join(dir, PENDING_FILE)) && revoked === current)
    throw new GspcError(
      'config_invalid',
      `${ref.fragment} has a pending change (${PENDING_FILE}): its key x=${current} was staged by gspc keys and never published, so it cannot have leaked. Publish first (gspc publish), then revoke again if needed, or delete ${join(dir, PENDING_FILE)} to start over; nothing was written`,
    );
  if (Date.parse(opts.compromisedSince) > Date.parse(opts.at))
    throw new GspcError(
      'config_invalid',
      `--compromised-since ${opts.compromisedSince} is later than now (${opts.at}); nothing was written`,
    );
  const seed = Buffer.from(opts.seed ?? randomBytes(32));
  const pair = keyPairFromSeed(seed);
  const record = signRevocation(
    {
      schema: KEY_TRANSITION_SCHEMA,
      did: opts.did,
      fragment: ref.fragment,
      sequence: nextSequence(state.transitions, ref.fragment, opts.did),
      kind: 'revocation',
      old_x: current,
      new_x: pair.publicKey.toString('base64url'),
      at: opts.at,
      revoked_x: revoked,
      compromised_since: opts.compromisedSince,
      trusted_size: opts.trustedSize,
      trusted_root: opts.trustedRoot,
      root_x: opts.root.x,
    },
    opts.root.signer,
    {
      kid: `${opts.did}#${ref.fragment}`,
      publicKey: pair.publicKey,
      sign: (m: Uint8Array) => sign(pair.privateKey, m),
    },
  );
  state.public_keys[ref.fragment] = record.new_x;
  state.seeds[ref.fragment] = seed.toString('base64url');
  stagePending(dir, { did: opts.did, ...state, transitions: [...state.transitions, record] });
  return record;
}
