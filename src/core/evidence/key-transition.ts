/**
 * A key transition (issue 30): the record that one of the service's keys was replaced, signed by
 * the key it retires and by the key that replaces it, as TUF rotates its root (each new root is
 * signed by the old keys and the new ones, and a client walks the versions in order). The record
 * is appended to the card log as a leaf (its id, like a card's), so the log proves at which size
 * the board key changed: a checkpoint of a size past that leaf is signed by the new key, every
 * earlier one by the old (docs/formats.md, "Key transitions").
 *
 * The key's id in the DID document does not change (`#board-attestation-1` stays the board
 * signer, as the specification names it); the retired key is listed beside it
 * (`#board-attestation-1~1`, …) with the transition that retired it (did.ts).
 */
import { createHash } from 'node:crypto';
import { canonicalBytesStrict as canonicalBytes } from '../crypto/canonical-json.js';
import type { KeyFragment, Signer } from './signer.js';

import { KEY_TRANSITION_SCHEMA, KEY_TRANSITIONS_SCHEMA } from './key-transition-schema.js';

export { KEY_TRANSITION_SCHEMA, KEY_TRANSITIONS_SCHEMA };

/** What both keys sign: the RFC 8785 bytes of this object. */
export interface KeyTransitionBody {
  schema: typeof KEY_TRANSITION_SCHEMA;
  /** The DID whose key changes. */
  did: string;
  /** The verification method's fragment, the same before and after (`board-attestation-1`). */
  fragment: KeyFragment;
  /** 1 for the fragment's first transition, then 2, 3, …: the walk has no gap. */
  sequence: number;
  kind: 'rotation';
  /** The retired and the new public key (JWK `x`, base64url). */
  old_x: string;
  new_x: string;
  /** When the operator rotated (ISO 8601 UTC): the retired key signs nothing after it. */
  at: string;
}

export interface RotationTransition extends KeyTransitionBody {
  /** Ed25519 by the retired key over the body's RFC 8785 bytes (hex). */
  sig_old: string;
  /** Ed25519 by the new key over the same bytes (hex). */
  sig_new: string;
}

/**
 * `gspc keys revoke`: a rotation away from the fragment's current key that also says a key of
 * the fragment (the current one or a retired one) was compromised from an instant on. Signed by
 * the new key only: whoever stole the revoked key could sign as well, so its signature would
 * prove nothing, and a lost key cannot sign at all. What authorises the new key is the DID
 * document the domain serves, which every verifier already reads (decision K6).
 */
export interface RevocationBody extends Omit<KeyTransitionBody, 'kind'> {
  kind: 'revocation';
  /** The compromised key (JWK `x`): `old_x` or a key the fragment had before it. */
  revoked_x: string;
  /** From this instant (ISO 8601 UTC) on, anything the revoked key signed is in doubt. */
  compromised_since: string;
  /**
   * The size of the largest checkpoint of the log made before `compromised_since` (0 when none):
   * what the revoked key signed stays valid only if its content is one of the first
   * `trusted_size` entries of the log, or is a checkpoint no larger than it.
   */
  trusted_size: number;
}

export interface RevocationTransition extends RevocationBody {
  /** Ed25519 by the new key over the body's RFC 8785 bytes (hex). */
  sig_new: string;
}

export type KeyTransition = RotationTransition | RevocationTransition;

/** `/keys/transitions.json`: every transition of the DID's keys, in the order they happened. */
export interface KeyTransitionsDocument {
  schema: typeof KEY_TRANSITIONS_SCHEMA;
  did: string;
  transitions: KeyTransition[];
}

export const transitionPreimage = (body: KeyTransitionBody | RevocationBody): Buffer => canonicalBytes(body);

/** Signs a transition with the key it retires and the key that replaces it. */
export function signTransition(body: KeyTransitionBody, retired: Signer, next: Signer): RotationTransition {
  const bytes = transitionPreimage(body);
  return { ...body, sig_old: retired.sign(bytes).toString('hex'), sig_new: next.sign(bytes).toString('hex') };
}

/** Signs a revocation with the key that replaces the fragment's current one. */
export function signRevocation(body: RevocationBody, next: Signer): RevocationTransition {
  return { ...body, sig_new: next.sign(canonicalBytes(body)).toString('hex') };
}

/** The transition's id and log entry: SHA-256 of the RFC 8785 bytes of the whole record, signatures included. */
export function transitionId(t: KeyTransition): string {
  return createHash('sha256').update(canonicalBytes(t)).digest('hex');
}

export function transitionsDocument(did: string, transitions: readonly KeyTransition[]): KeyTransitionsDocument {
  return { schema: KEY_TRANSITIONS_SCHEMA, did, transitions: [...transitions] };
}
