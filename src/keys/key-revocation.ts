/**
 * `gspc keys revoke` (issue 30): the day a key leaks. A new key replaces the fragment's current
 * one, and a revocation record, signed by the new key alone (decision K6), says which key of the
 * fragment was compromised and from when, and how much of the log was made before then. The
 * record joins the key directory's transitions, and the next publish logs it like a rotation.
 */
import { randomBytes } from 'node:crypto';
import { keyPairFromSeed, sign } from '../core/crypto/ed25519.js';
import { GspcError } from '../core/errors.js';
import { KEY_TRANSITION_SCHEMA, signRevocation, type RevocationTransition } from '../core/evidence/key-transition.js';
import { ALL_KEYS, type KeyFragment } from '../core/evidence/signer.js';
import { commitTransition, readPublic, readTransitions } from './key-store.js';

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

export function revokeKey(
  dir: string,
  ref: KeyRef,
  opts: { did: string; at: string; compromisedSince: string; trustedSize: number; seed?: Uint8Array },
): RevocationTransition {
  const transitions = readTransitions(dir);
  const chain = transitions.filter((t) => t.fragment === ref.fragment && t.did === opts.did);
  const current = readPublic(dir)[ref.fragment];
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
      sequence: chain.length + 1,
      kind: 'revocation',
      old_x: current,
      new_x: pair.publicKey.toString('base64url'),
      at: opts.at,
      revoked_x: revoked,
      compromised_since: opts.compromisedSince,
      trusted_size: opts.trustedSize,
    },
    {
      kid: `${opts.did}#${ref.fragment}`,
      publicKey: pair.publicKey,
      sign: (m: Uint8Array) => sign(pair.privateKey, m),
    },
  );
  commitTransition(dir, opts.did, ref.fragment, seed, [...transitions, record]);
  return record;
}
