/**
 * The facilitator as the paid flow sees it: verify and settle return outcomes as values, and
 * the one distinction that matters for money is kept apart: a settle that was never sent
 * (connection refused: nothing can have moved) from one whose answer was lost (timeout, reset,
 * 5xx: the transfer may have happened, so the outcome is unknown until reconciled).
 * Built on `HTTPFacilitatorClient` from `@x402/core/http` (research x402.md §3).
 */
import { HTTPFacilitatorClient } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';

export type VerifyOutcome =
  | { kind: 'valid'; payer: string | undefined }
  | { kind: 'invalid'; reason: string; message: string | undefined }
  /** Not answered: nothing was settled, the buyer may retry later. */
  | { kind: 'unavailable'; error: string };

export type SettleOutcome =
  | { kind: 'settled'; transaction: string; network: string; payer: string | undefined }
  /** The facilitator answered that it did not settle: nothing moved. */
  | { kind: 'failed'; reason: string; message: string | undefined }
  /** The request never reached the facilitator: nothing moved. */
  | { kind: 'not_sent'; error: string }
  /** Sent, but no trustworthy answer: money may have moved. */
  | { kind: 'unknown'; error: string };

export interface Facilitator {
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyOutcome>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleOutcome>;
}

/** A facilitator over HTTP; `url` comes from operator configuration only (GSPC_FACILITATOR_URL). */
export function httpFacilitator(url: string, timeoutMs: number): Facilitator {
  const client = new HTTPFacilitatorClient({ url, timeoutMs });
  return {
    async verify(payload, requirements) {
      try {
        const r = await client.verify(payload, requirements);
        return r.isValid
          ? { kind: 'valid', payer: r.payer }
          : { kind: 'invalid', reason: r.invalidReason ?? 'invalid_payment', message: r.invalidMessage };
      } catch (e) {
        const answered = answeredError(e);
        if (answered && 'invalidReason' in answered)
          return {
            kind: 'invalid',
            reason: String(answered.invalidReason ?? 'invalid_payment'),
            message: answered.invalidMessage as string | undefined,
          };
        return { kind: 'unavailable', error: describe(e) };
      }
    },
    async settle(payload, requirements) {
      try {
        const r = await client.settle(payload, requirements);
        if (r.success && /^0x[0-9a-fA-F]{64}$/.test(r.transaction))
          return { kind: 'settled', transaction: r.transaction.toLowerCase(), network: r.network, payer: r.payer };
        if (r.success)
          return {
            kind: 'unknown',
            error: `the facilitator reported success without a transaction hash ('${r.transaction}')`,
          };
        return { kind: 'failed', reason: r.errorReason ?? 'settle_failed', message: r.errorMessage };
      } catch (e) {
        const answered = answeredError(e);
        // A SettleError carries the facilitator's own success:false answer: nothing moved.
        if (answered && 'errorReason' in answered && answered.transaction === '')
          return {
            kind: 'failed',
            reason: String(answered.errorReason ?? 'settle_failed'),
            message: answered.errorMessage as string | undefined,
          };
        if (refused(e)) return { kind: 'not_sent', error: describe(e) };
        return { kind: 'unknown', error: describe(e) };
      }
    },
  };
}

/** VerifyError / SettleError: a non-2xx reply whose JSON still states the outcome. */
function answeredError(e: unknown): Record<string, unknown> | undefined {
  if (!(e instanceof Error)) return undefined;
  const name = e.constructor.name;
  return name === 'VerifyError' || name === 'SettleError' ? (e as unknown as Record<string, unknown>) : undefined;
}

/** ECONNREFUSED (or an unresolvable host): the request was never written. */
function refused(e: unknown): boolean {
  const codes = new Set<string>();
  for (let c: unknown = e, depth = 0; c instanceof Error && depth < 5; c = (c as { cause?: unknown }).cause, depth++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string') codes.add(code);
    for (const inner of (c as { errors?: unknown[] }).errors ?? []) {
      const innerCode = (inner as { code?: unknown } | null)?.code;
      if (typeof innerCode === 'string') codes.add(innerCode);
    }
  }
  return codes.has('ECONNREFUSED') || codes.has('ENOTFOUND');
}

function describe(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = (e as { cause?: unknown }).cause;
  return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
}
