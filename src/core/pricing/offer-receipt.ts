/**
 * Offers and receipts of the x402 `offer-receipt` extension (v0.6), JWS form: the payload is
 * RFC 8785 JSON signed as a compact JWS (EdDSA) whose header is `{alg, kid}` with `kid` the
 * board signer's DID URL, so `@x402/extensions`' verifiers and `POST /api/receipts/verify` both
 * accept them. Unlike the reference server's default, receipts here always carry the settlement
 * transaction: a buyer's evidence of payment should name it; since issue 37 they also state the
 * amount and asset paid, so a relying party can ask "is this a receipt for resource X at amount
 * Y?" (the extension's verifiers ignore fields they do not know). Time is an argument.
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
  /** What was paid, in the asset's atomic units (decimal string); absent from receipts issued before issue 37. */
  amount?: string;
  /** The asset paid in (a token contract address). */
  asset?: string;
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
  const { amount, asset, ...rest } = r;
  // The optional fields are left out, not written as undefined (which has no canonical form).
  const payload: ReceiptPayload = {
    version: 1,
    ...rest,
    ...(amount !== undefined && { amount }),
    ...(asset !== undefined && { asset }),
  };
  return { format: 'jws', signature: signCompactJws(payload, key) };
}
