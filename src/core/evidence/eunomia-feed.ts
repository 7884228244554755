/**
 * The paid data feed of `eunomia_data` (`svc.eunomia-data/0.2`, specification "Metered
 * products": "a signed feed of enforcement and measurement artefacts already on the public
 * root"). Four blocks in the preview's stream shape `{value, unreadable}`: `signals` and
 * `first_fine_watch` are read from the release's regulation feed (`/api/regulation`,
 * src/core/status/regulation-feed.ts) when it is passed in; without one their value is null
 * with the reason (a null is an unread value, never an empty one). `root` and `card_index` are
 * read from the release. Sealed like a card. docs/formats.md, "Paid artefacts".
 */
import type { CardFile } from './card.js';
import { commissionedFor, sealRecord, signerOf, type CommissionedFor, type Seal } from './commission-receipt.js';
import type { SignerState } from './signer.js';
import { regulationStreams, type RegulationFile, type Stream } from '../status/regulation-feed.js';

export const EUNOMIA_FEED_SCHEMA = 'svc.eunomia-data/0.2';

export interface FeedInput {
  /** When the feed is pulled (ISO 8601 UTC), passed in. */
  as_of: string;
  baseUrl: string;
  /** The signed public root: its fields, the SHA-256 of the exact `/root.json` bytes and its signature. */
  root: { merkle_root: string; leaf_count: number; as_of: string; sha256: string; sig_ed25519: string | null };
  /** Every active card (not withdrawn, not superseded), in card-id order. */
  active: readonly CardFile[];
  /**
   * The release's regulation feed (corpus `status/regulation.json`): null when the release has
   * none; absent when the caller did not read it. Fills `signals` and `first_fine_watch`.
   */
  regulation?: RegulationFile | null;
  /** Explicit stream values; each takes precedence over the regulation feed. Null means not read. */
  signals?: unknown;
  first_fine_watch?: unknown;
  commissioned_for: CommissionedFor;
}

export interface CardIndexEntry {
  sha256: string;
  url: string;
  surface: string;
  subject: string;
  axis: string;
  as_of: string;
  signed: boolean;
}

const notRead = (what: string): Stream<never> => ({
  value: null,
  unreadable: `unread: ${what} was not read, so it is not published in this feed`,
});
const readOr = <T>(value: T | null | undefined, fallback: Stream<unknown>): Stream<unknown> =>
  value === undefined || value === null ? fallback : { value, unreadable: null };

/** The two regulation streams: explicit values, else the regulation feed, else unread with the reason. */
function regulationBlocks(input: FeedInput): { signals: Stream<unknown>; first_fine_watch: Stream<unknown> } {
  const fromFeed =
    input.regulation === undefined
      ? {
          signals: notRead('the regulation feed (/api/regulation)'),
          first_fine_watch: notRead('the first-fine watch of the regulation feed (/api/regulation)'),
        }
      : regulationStreams(input.regulation, input.baseUrl);
  return {
    signals: readOr(input.signals, fromFeed.signals),
    first_fine_watch: readOr(input.first_fine_watch, fromFeed.first_fine_watch),
  };
}

/** Builds and seals the feed; the same input gives the same bytes. */
export function eunomiaFeed(input: FeedInput, key: SignerState): Seal & Record<string, unknown> {
  const { root } = input;
  const regulation = regulationBlocks(input);
  const cards: CardIndexEntry[] = input.active.map((c) => ({
    sha256: c.sha256,
    url: c.url,
    surface: c.surface,
    subject: c.subject,
    axis: c.axis,
    as_of: c.as_of,
    signed: c.sig_ed25519 !== null,
  }));
  return sealRecord(
    {
      schema: EUNOMIA_FEED_SCHEMA,
      kind: 'feed',
      as_of: input.as_of,
      lane: 'commercial-data',
      data_only: true,
      signer: signerOf(key),
      blocks: {
        signals: regulation.signals,
        first_fine_watch: regulation.first_fine_watch,
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
          value: {
            url: `${input.baseUrl}/cards/index.json`,
            active_cards: cards.length,
            signed_cards: cards.filter((c) => c.signed).length,
            cards,
          },
          unreadable: null,
        },
      },
      commissioned_for: commissionedFor(input.commissioned_for),
    },
    key,
  );
}
