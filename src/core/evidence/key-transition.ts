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
import type { ROOT_KEY, Signer, TransitionFragment } from './signer.js';

import { KEY_TRANSITION_SCHEMA, KEY_TRANSITIONS_SCHEMA } from './key-transition-schema.js';

export { KEY_TRANSITION_SCHEMA, KEY_TRANSITIONS_SCHEMA };

/** What both keys sign: the RFC 8785 bytes of this object. */
export interface KeyTransitionBody {
  schema: typeof KEY_TRANSITION_SCHEMA;
  /** The DID whose key changes. */
  did: string;
  /**
   * The verification method's fragment, the same before and after (`board-attestation-1`);
   * `identity-root` for a rotation of the identity root (issue 36), signed by the old root and the new.
   */
  fragment: TransitionFragment;
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
 * the identity root (issue 36), the key that authorises key changes and never serves: whoever
 * stole the revoked key could sign as well, so its signature would prove nothing, and a copy of
 * the public files cannot sign as the root. The new key signs too, to show it is held.
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
  /**
   * The RFC 6962 root hash (hex) of the log's first `trusted_size` entries (issue 36): the
   * revocation binds the trusted log itself, not only its length, so a log of that size or less
   * signed by the revoked key that is not a prefix of this one (the thief's fork) is refused.
   */
  trusted_root: string;
  /** The identity root that authorises it (JWK `x`): the root in force at this point of the transitions. */
  root_x: string;
}

export interface RevocationTransition extends RevocationBody {
  /** Ed25519 by the identity root over the body's RFC 8785 bytes (hex). */
  sig_root: string;
  /** Ed25519 by the new key over the same bytes (hex). */
  sig_new: string;
}

/**
 * A revocation as issue 30 wrote it, signed by the new key only. Verifiers accept one only when a
 * later adoption record, signed by the identity root, endorses it (`gspc keys migrate`). It has
 * no `trusted_root`: it binds only a count, and a log signed by its revoked key is checked
 * against the trusted log only where the DID's host's log is at hand (decision K16).
 */
export interface LegacyRevocationTransition extends Omit<RevocationBody, 'root_x' | 'trusted_root'> {
  sig_new: string;
}

/**
 * `gspc keys migrate` (issue 36): a key directory made before the identity root existed adopts
 * one, and the root endorses, by id, the revocations that were signed by their new key only.
 * It changes no key.
 */
export interface AdoptionBody {
  schema: typeof KEY_TRANSITION_SCHEMA;
  did: string;
  fragment: typeof ROOT_KEY;
  kind: 'adoption';
  /** The identity root that adopts the history (JWK `x`). */
  root_x: string;
  /** The ids of the earlier transitions it endorses (those signed without a root). */
  endorses: string[];
  at: string;
}

export interface AdoptionRecord extends AdoptionBody {
  /** Ed25519 by the identity root over the body's RFC 8785 bytes (hex). */
  sig_root: string;
}

/** A transition that replaces a fragment's key. */
export type KeyTransition = RotationTransition | RevocationTransition | LegacyRevocationTransition;
/** Any record of `/keys/transitions.json`: a key change, or an adoption (which changes no key). */
export type TransitionRecord = KeyTransition | AdoptionRecord;

export const isKeyChange = (t: TransitionRecord): t is KeyTransition => t.kind !== 'adoption';

/** `/keys/transitions.json`: every transition of the DID's keys, in the order they happened. */
export interface KeyTransitionsDocument {
  schema: typeof KEY_TRANSITIONS_SCHEMA;
  did: string;
  transitions: TransitionRecord[];
}

export const transitionPreimage = (body: KeyTransitionBody | RevocationBody | AdoptionBody): Buffer =>
  canonicalBytes(body);

/** Signs a transition with the key it retires and the key that replaces it. */
export function signTransition(body: KeyTransitionBody, retired: Signer, next: Signer): RotationTransition {
  const bytes = transitionPreimage(body);
  return { ...body, sig_old: retired.sign(bytes).toString('hex'), sig_new: next.sign(bytes).toString('hex') };
}

/** Signs a revocation with the identity root (`body.root_x`) and the key that replaces the fragment's current one. */
export function signRevocation(body: RevocationBody, root: Signer, next: Signer): RevocationTransition {
  const bytes = canonicalBytes(body);
  return { ...body, sig_root: root.sign(bytes).toString('hex'), sig_new: next.sign(bytes).toString('hex') };
}

/** Signs an adoption record with the identity root (`body.root_x`). */
export function signAdoption(body: AdoptionBody, root: Signer): AdoptionRecord {
  return { ...body, sig_root: root.sign(canonicalBytes(body)).toString('hex') };
}

/** The transition's id and log entry: SHA-256 of the RFC 8785 bytes of the whole record, signatures included. */
export function transitionId(t: TransitionRecord): string {
  return createHash('sha256').update(canonicalBytes(t)).digest('hex');
}

export function transitionsDocument(did: string, transitions: readonly TransitionRecord[]): KeyTransitionsDocument {
  return { schema: KEY_TRANSITIONS_SCHEMA, did, transitions: [...transitions] };
}
