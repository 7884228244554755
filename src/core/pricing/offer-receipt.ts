/**
 * Offers and receipts of the x402 `offer-receipt` extension (v0.6), JWS form: the payload is
 * RFC 8785 JSON signed as a compact JWS (EdDSA) whose header is `{alg, kid}` with `kid` the
 * board signer's DID URL, so `@x402/extensions`' verifiers and `POST /api/receipts/verify` both
 * accept them. Unlike the reference server's default, receipts here always carry the settlement
 * transaction: a buyer's evidence of payment should name it. Time is an argument.
 */
import { signCompactJws, type JwsSigningKey } from '../crypto/jws.js';

export interface OfferTerms {
  resourceUrl: string;
  scheme: 'exact';
  network: string;
  asset: string;
  payTo: string;
  amount: string;
}

export interface OfferPayload extends OfferTerms {
  version: 1;
  /** POSIX seconds until which the offer stands. */
  validUntil: number;
}

export interface ReceiptPayload {
  version: 1;
  network: string;
  resourceUrl: string;
  payer: string;
  /** POSIX seconds. */
  issuedAt: number;
  transaction: string;
}

/** `extensions["offer-receipt"].info.offers[i]` for accepts entry `acceptIndex`. */
export function signOffer(
  terms: OfferTerms,
  acceptIndex: number,
  nowSeconds: number,
  validitySeconds: number,
  key: JwsSigningKey,
): { format: 'jws'; acceptIndex: number; signature: string } {
  const payload: OfferPayload = { version: 1, ...terms, validUntil: nowSeconds + validitySeconds };
  return { format: 'jws', acceptIndex, signature: signCompactJws(payload, key) };
}

/** `extensions["offer-receipt"].info.receipt` of a success settle response. */
export function signReceipt(
  r: Omit<ReceiptPayload, 'version'>,
  key: JwsSigningKey,
): { format: 'jws'; signature: string } {
  return { format: 'jws', signature: signCompactJws({ version: 1, ...r } satisfies ReceiptPayload, key) };
}
