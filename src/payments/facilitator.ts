/**
 * The facilitator as the paid flow sees it: verify and settle return outcomes as values, and
 * the one distinction that matters for money is kept apart: a settle that was never sent
 * (connection refused: nothing can have moved) from one whose answer was lost (timeout, reset,
 * 5xx: the transfer may have happened, so the outcome is unknown until reconciled).
 * Speaks the wire of `HTTPFacilitatorClient` from `@x402/core/http` (facilitator-wire.ts,
 * decision O11; research x402.md §3).
 */
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { FacilitatorWire } from './facilitator-wire.js';

/** A transaction hash as the facilitator names one. */
const TX = /^0x[0-9a-fA-F]{64}$/;

export type VerifyOutcome =
  | { kind: 'valid'; payer: string | undefined }
  | { kind: 'invalid'; reason: string; message: string | undefined }
  /** Not answered: nothing was settled, the buyer may retry later. */
  | { kind: 'unavailable'; error: string };

export type SettleOutcome =
  | { kind: 'settled'; transaction: string; network: string; payer: string | undefined }
  /** The facilitator answered that it did not settle, and named no transaction: by its word, nothing moved. */
  | { kind: 'failed'; reason: string; message: string | undefined }
  /**
   * `success: false` naming a transaction (`settlement_pending`: broadcast, not seen confirmed;
   * or reverted): money may move, or may have, so it is never FAILED; reconcile reads the chain.
   */
  | { kind: 'pending'; transaction: string; reason: string; message: string | undefined }
  /** The request never reached the facilitator: nothing moved. */
  | { kind: 'not_sent'; error: string }
  /** Sent, but no trustworthy answer: money may have moved. */
  | { kind: 'unknown'; error: string };

export interface Facilitator {
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyOutcome>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleOutcome>;
  /** Drops the kept-alive connections (the service's close). */
  close?(): Promise<void>;
}

/** A facilitator over HTTP; `url` comes from operator configuration only (GSPC_FACILITATOR_URL). */
export function httpFacilitator(url: string, timeoutMs: number): Facilitator {
  const wire = new FacilitatorWire(url, timeoutMs);
  return {
    async verify(payload, requirements) {
      const r = await wire.verify(payload, requirements);
      switch (r.kind) {
        case 'answer': {
          const a = r.answer;
          if (a.isValid && ok(r.status)) return { kind: 'valid', payer: a.payer };
          if (!a.isValid)
            return { kind: 'invalid', reason: a.invalidReason ?? 'invalid_payment', message: a.invalidMessage };
          return { kind: 'unavailable', error: `the facilitator answered ${r.status} with isValid true` };
        }
        case 'unreadable':
          return { kind: 'unavailable', error: `facilitator verify answered ${r.status}: ${r.excerpt}` };
        default:
          return { kind: 'unavailable', error: r.error };
      }
    },
    async settle(payload, requirements) {
      const r = await wire.settle(payload, requirements);
      switch (r.kind) {
        case 'answer': {
          const a = r.answer;
          // success:false without a transaction is the facilitator's own "nothing was submitted".
          // With one, the transfer was broadcast (issue 37: `settlement_pending` answers so, and
          // the transfer lands later): never read as "nothing moved", whatever the status.
          // A 5xx saying so is a server's error page in the protocol's shape, not its word that it
          // stopped before broadcasting: unknown, reconciled (issue 37, finding 2; errors.md).
          if (!a.success && a.transaction === '' && r.status < 500)
            return { kind: 'failed', reason: a.errorReason ?? 'settle_failed', message: a.errorMessage };
          if (!a.success && TX.test(a.transaction))
            return {
              kind: 'pending',
              transaction: a.transaction.toLowerCase(),
              reason: a.errorReason ?? 'settle_failed',
              message: a.errorMessage,
            };
          if (a.success && ok(r.status) && TX.test(a.transaction))
            return { kind: 'settled', transaction: a.transaction.toLowerCase(), network: a.network, payer: a.payer };
          return {
            kind: 'unknown',
            error: `the facilitator answered ${r.status} with success ${a.success} and transaction '${a.transaction}'`,
          };
        }
        case 'unreadable':
          // Answered, but not understood (a proxy's error page after the facilitator may have settled).
          return { kind: 'unknown', error: `facilitator settle answered ${r.status}: ${r.excerpt}` };
        case 'not_connected':
          return { kind: 'not_sent', error: r.error };
        case 'lost':
          return { kind: 'unknown', error: r.error };
      }
    },
    close: () => wire.close(),
  };
}

const ok = (status: number) => status >= 200 && status < 300;
