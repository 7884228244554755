/**
 * The paid data feed of `eunomia_data` (`svc.eunomia-data/0.2`, specification "Metered
 * products": "a signed feed of enforcement and measurement artefacts already on the public
 * root"). Four blocks in the preview's stream shape `{value, unreadable}`: `signals` and
 * `first_fine_watch` come from a regulation feed this service does not publish yet, so their
 * value is null with the reason (a null is an unread value, never an empty one); `root` and
 * `card_index` are read from the release. Sealed like a card. docs/formats.md, "Paid artefacts".
 */
import type { CardFile } from './card.js';
import { commissionedFor, sealRecord, signerOf, type CommissionedFor, type Seal } from './commission-receipt.js';
import type { SignerState } from './signer.js';

export const EUNOMIA_FEED_SCHEMA = 'svc.eunomia-data/0.2';

export interface Stream<T> { value: T | null; unreadable: string | null }

export interface FeedInput {
  /** When the feed is pulled (ISO 8601 UTC), passed in. */
  as_of: string;
  baseUrl: string;
  /** The signed public root: its fields, the SHA-256 of the exact `/root.json` bytes and its signature. */
  root: { merkle_root: string; leaf_count: number; as_of: string; sha256: string; sig_ed25519: string | null };
  /** Every active card (not withdrawn, not superseded), in card-id order. */
  active: readonly CardFile[];
  /** Regulation-feed values, when a source exists; absent (or null) means not read. */
  signals?: unknown;
  first_fine_watch?: unknown;
  commissioned_for: CommissionedFor;
}

export interface CardIndexEntry { sha256: string; url: string; surface: string; subject: string; axis: string; as_of: string; signed: boolean }

const notRead = (what: string): Stream<never> => ({ value: null, unreadable: `${what} is not published by this service yet, so the stream is not read` });
const readOr = <T>(value: T | null | undefined, what: string): Stream<T> => (value === undefined || value === null ? notRead(what) : { value, unreadable: null });

/** Builds and seals the feed; the same input gives the same bytes. */
export function eunomiaFeed(input: FeedInput, key: SignerState): Seal & Record<string, unknown> {
  const { root } = input;
  const cards: CardIndexEntry[] = input.active.map((c) => ({ sha256: c.sha256, url: c.url, surface: c.surface, subject: c.subject, axis: c.axis, as_of: c.as_of, signed: c.sig_ed25519 !== null }));
  return sealRecord({
    schema: EUNOMIA_FEED_SCHEMA,
    kind: 'feed',
    as_of: input.as_of,
    lane: 'commercial-data',
    data_only: true,
    signer: signerOf(key),
    blocks: {
      signals: readOr(input.signals, 'the regulation feed (/api/regulation)'),
      first_fine_watch: readOr(input.first_fine_watch, 'the first-fine watch of the regulation feed'),
      root: {
        value: {
          root_url: `${input.baseUrl}/root.json`,
          root_sha256: root.sha256,
          merkle_root: root.merkle_root,
          leaf_count: root.leaf_count,
          as_of: root.as_of,
          sig_ed25519: root.sig_ed25519,
          signed: root.sig_ed25519 !== null,
        },
        unreadable: null,
      },
      card_index: {
        value: { url: `${input.baseUrl}/cards/index.json`, active_cards: cards.length, signed_cards: cards.filter((c) => c.signed).length, cards },
        unreadable: null,
      },
    },
    commissioned_for: commissionedFor(input.commissioned_for),
  }, key);
}
