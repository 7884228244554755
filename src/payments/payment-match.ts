/**
 * Does this payment pay for this resource? Checked before the facilitator is asked, so a payment
 * meant for another price, payee or network is refused with a reason that names the field.
 *
 * - x402 v2 (`PAYMENT-SIGNATURE`, or `X-PAYMENT` as this service's specification names it): the
 *   echoed `accepted` entry must equal ours in every field but `extra`, and our `extra` must be
 *   a subset of the echoed one (the reference server's `paymentRequirementsMatchAccepted` rule).
 * - x402 v1 (`X-PAYMENT` with `x402Version: 1`): `scheme` and `network` (CAIP-2 or the v1 alias)
 *   must match; the EIP-3009 authorization is then wrapped as a v2 payload with our accepts entry,
 *   which is sound because the signature covers only the token transfer (from, to, value,
 *   validAfter, validBefore, nonce), never the x402 envelope.
 * In both, the authorization itself must pay our payee our amount, and close no later than
 * `maxTimeoutSeconds` (plus the stated clock skew) after now (issue 37: an authorization valid
 * for years could stay UNKNOWN, and its buyer `payment_pending`, for years).
 */
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { validBeforeProblem } from '../core/pricing/authorization-window.js';
import type { ReadPayment } from './payment-header.js';
import type { RailConfig } from './rail-config.js';

/** x402 v1 network names for the CAIP-2 ids this service may be configured with. */
const V1_NETWORK_ALIASES: Readonly<Record<string, string>> = { 'eip155:8453': 'base', 'eip155:84532': 'base-sepolia' };

export type PaymentMatch = { ok: true; payload: PaymentPayload } | { ok: false; reason: string };

export function matchPayment(p: ReadPayment, ours: PaymentRequirements, rail: RailConfig, now: Date): PaymentMatch {
  const auth = (p.payload.payload as { authorization: Record<string, string> }).authorization;
  if (auth.to?.toLowerCase() !== ours.payTo.toLowerCase())
    return { ok: false, reason: `the authorization pays ${auth.to}, not this resource's payee ${ours.payTo}` };
  if (p.value !== ours.amount)
    return {
      ok: false,
      reason: `the authorization is for ${p.value} atomic units; this resource costs ${ours.amount}`,
    };
  const late = validBeforeProblem(p.validBefore, now.getTime() / 1000, ours.maxTimeoutSeconds);
  if (late !== undefined) return { ok: false, reason: late };
  if (p.version === 2) {
    const accepted = p.accepted ?? {};
    for (const field of ['scheme', 'network', 'amount', 'asset', 'payTo', 'maxTimeoutSeconds'] as const) {
      const theirs = accepted[field];
      const same =
        typeof theirs === 'string' && typeof ours[field] === 'string' && /^0x/.test(theirs)
          ? theirs.toLowerCase() === (ours[field] as string).toLowerCase()
          : theirs === ours[field];
      if (!same)
        return {
          ok: false,
          reason: `the payment's accepted.${field} (${JSON.stringify(theirs)}) does not match this resource's offer (${JSON.stringify(ours[field])})`,
        };
    }
    const extra = (accepted.extra ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(ours.extra ?? {})) {
      if (extra[k] !== v)
        return {
          ok: false,
          reason: `the payment's accepted.extra.${k} (${JSON.stringify(extra[k])}) does not match this resource's offer (${JSON.stringify(v)})`,
        };
    }
    // The facilitator is given our terms, not the buyer's echo.
    return { ok: true, payload: { ...(p.payload as unknown as PaymentPayload), accepted: ours } };
  }
  const { scheme, network } = p.payload as { scheme?: unknown; network?: unknown };
  if (scheme !== 'exact')
    return {
      ok: false,
      reason: `x402 v1 payment with scheme ${JSON.stringify(scheme)}; this resource accepts scheme 'exact'`,
    };
  if (network !== rail.network && network !== V1_NETWORK_ALIASES[rail.network])
    return {
      ok: false,
      reason: `x402 v1 payment on network ${JSON.stringify(network)}; this resource is paid on ${rail.network}`,
    };
  return {
    ok: true,
    payload: { x402Version: 2, accepted: ours, payload: p.payload.payload as Record<string, unknown> },
  };
}
