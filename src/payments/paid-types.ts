/**
 * The shapes of one paid request (paid-request.ts) and its replay (paid-replay.ts), apart so
 * that the two modules share them without importing each other.
 */
import type { PaymentRequirements } from '@x402/core/types';
import type { SignerState } from '../core/evidence/signer.js';
import type { Ledger, SettlementRecord } from '../store/ledger.js';
import type { Facilitator } from './facilitator.js';
import type { ReadPayment } from './payment-header.js';
import type { RailConfig } from './rail-config.js';

export interface Artefact {
  body: Buffer;
  sha256: string;
}

export interface PaidRequest {
  product_id: string;
  sku_id: string;
  /** Path and query, as recorded in the ledger. */
  resourcePath: string;
  /** Absolute URL: what the offer and the receipt name. */
  resourceUrl: string;
  /** This resource's accepts entry (the terms the payment must match). */
  requirements: PaymentRequirements;
  payment: ReadPayment;
  /**
   * The wallet a valid `SIGN-IN-WITH-X` proof on this request names (lower case), or undefined:
   * the payer signed in is given what its payment bought (decision P45).
   */
  signedInAs?: string;
  /** Builds the artefact: pure; called while the facilitator verifies, kept only once the payment is verified and reserved. */
  produce(): Artefact;
}

export interface PaidDeps {
  ledger: Ledger;
  facilitator: Facilitator;
  rail: RailConfig;
  boardKey: SignerState;
  now(): Date;
  /** How long a duplicate waits for the request that holds the reservation (ms). */
  inFlightWaitMs: number;
}

/** The base64 `PAYMENT-RESPONSE` content (x402 v2 SettleResponse). */
export interface SettleResponseBody {
  success: boolean;
  transaction: string;
  network: string;
  payer: string;
  errorReason?: string;
  errorMessage?: string;
  extensions?: { 'offer-receipt': { info: { receipt: { format: 'jws'; signature: string } } } };
}

export type PaidOutcome =
  | {
      kind: 'delivered';
      body: Buffer;
      settle: SettleResponseBody;
      replay: boolean;
      /** Null when the chain moved the money but the ledger could not record it (then RESERVED). */
      record: SettlementRecord | null;
    }
  /** The payment does not pay for this resource, or the facilitator refused it: 402 with a fresh challenge. */
  | { kind: 'rejected'; reason: string }
  /** The facilitator answered that it made no transfer: 402, nothing delivered, the payer may retry. */
  | { kind: 'settle_failed'; settle: SettleResponseBody };

/** Said wherever a buyer is told to retry: a payment sent without an id is delivered only to its payer signed in (P45). */
export const RETRY_WITHOUT_ID =
  ' (to the same payment carrying the payment-identifier id it was sent with, or to a request signed in with the paying wallet: a SIGN-IN-WITH-X header, the sign-in-with-x extension every 402 declares)';
