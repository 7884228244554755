/**
 * Measurement cards (card-v1): one signed, content-addressed statement per (model, axis) cell.
 * The card id is the SHA-256 of the RFC 8785 form of the card body; `sig_ed25519` is Ed25519
 * over those same bytes. Outer fields (`sha256`, `url`, `sig_ed25519`, `unsigned_reason`) are
 * not part of the body. docs/formats.md documents every field.
 */
import { createHash } from 'node:crypto';
import { canonicalBytesStrict as canonicalBytes } from '../crypto/canonical-json.js';
import type { SignerState } from './signer.js';

export const CARD_SCHEMA = 'card-v1';

export interface CardMeasurement {
  kind: 'model-comparison' | 'deterministic-facts';
  status: string;
  axis_n: number;
  [field: string]: unknown;
}

export interface CardBody {
  schema: typeof CARD_SCHEMA;
  surface: 'board.measurement' | 'board.facts';
  subject: string;
  axis: string;
  as_of: string;
  /** DID URL of the key that signs (or would sign) the card. */
  signer: string;
  measurement: CardMeasurement;
  /** The published file the figures were computed from, with its SHA-256. */
  computed_from: { url: string; sha256: string; rows?: number };
  /** Frozen at signing: describes the board at that time, not the live board. */
  public_framing: string;
}

export interface CardFile extends CardBody {
  sha256: string;
  url: string;
  sig_ed25519: string | null;
  unsigned_reason?: string;
}

export const OUTER_CARD_FIELDS = ['sha256', 'url', 'sig_ed25519', 'unsigned_reason'] as const;

export function cardUrl(sha256: string): string {
  return `/cards/${sha256.slice(0, 16)}.json`;
}

export function cardDigest(body: CardBody): { bytes: Buffer; sha256: string } {
  const bytes = canonicalBytes(body);
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** Addresses and signs a card body; an unhealthy key gives a null signature and its reason. */
export function sealCard(body: CardBody, key: SignerState): CardFile {
  const { bytes, sha256 } = cardDigest(body);
  // Object.assign, not spread syntax: spreading the body cost ~15 µs per card, a third of an
  // Ed25519 signature (docs/performance.md, sealing 100,000 cards).
  const card = Object.assign({ sha256, url: cardUrl(sha256) }, body) as CardFile;
  if (!key.healthy) return Object.assign(card, { sig_ed25519: null, unsigned_reason: key.reason });
  card.sig_ed25519 = key.signer.sign(bytes).toString('hex');
  return card;
}

/** The body of a card file: the file without its outer fields. */
export function cardBodyOf(card: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...card };
  for (const k of OUTER_CARD_FIELDS) delete body[k];
  return body;
}
