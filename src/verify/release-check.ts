/**
 * What the steps of `gspc verify` share: one check's outcome, how a step adds one, and what the
 * card step found for the steps after it.
 */
import type { CardFile } from '../core/evidence/card.js';
import type { CardVerdict } from '../core/verify/card-verifier.js';
import type { KeyAnchorCheck } from '../core/verify/key-source.js';

export interface ReleaseCheck {
  check: string;
  ok: boolean;
  detail: string;
}

/** Adds a check; returns `ok`, so a step can stop on a failure it cannot go past. */
export type AddCheck = (check: string, ok: boolean, detail: string) => boolean;

/** What the card checks found, for the checks that follow them. */
export interface ReleaseCards {
  /** The keys the release was signed with: the DID document's, each fragment at the log's size. */
  keys: ReadonlyMap<string, Uint8Array>;
  /** The DID document's keys as served now: what the service signs live (the board attestation, the agent card). */
  didKeys: ReadonlyMap<string, Uint8Array>;
  /** The DID the keys were read for (the DID document's id, or the release's public-keys.json). */
  did: string;
  rootBytes: Buffer;
  root: { merkle_root: string; leaf_count: number; as_of: string; bound_digest: string };
  bundle: { cards: CardFile[] };
  bundleBytes: Buffer;
  invalid: CardVerdict[];
  /** The `key_anchor` check: whether the keys are anchored outside the view (key-source.ts). */
  anchor: KeyAnchorCheck;
  /** Where the keys came from. */
  keysFrom: string;
}
