/**
 * How long a payment authorization may stay open (issue 37): an EIP-3009 `validBefore` at most
 * `maxTimeoutSeconds` (what every accepts entry offers) plus a stated clock skew after now. An
 * authorization valid for years could sit UNKNOWN for years: `gspc reconcile` closes an unused
 * one only once the chain's time passes its `validBefore`, and until then the buyer is told
 * `payment_pending`. Refused before the facilitator is asked. Time is an argument (core reads no
 * clock).
 */

/**
 * How far a buyer's clock may run ahead of the service's: an x402 client signs `validBefore` as
 * its own now + `maxTimeoutSeconds`, so a clock two minutes fast is still accepted.
 */
export const VALID_BEFORE_SKEW_SECONDS = 120;

/** The latest `validBefore` accepted at `nowSeconds` (unix seconds). */
export function latestValidBefore(nowSeconds: number, maxTimeoutSeconds: number): bigint {
  return BigInt(Math.floor(nowSeconds)) + BigInt(maxTimeoutSeconds) + BigInt(VALID_BEFORE_SKEW_SECONDS);
}

/**
 * Why `validBefore` (decimal unix seconds, as the authorization carries it) is outside the terms,
 * or undefined when it is within them.
 */
export function validBeforeProblem(
  validBefore: string,
  nowSeconds: number,
  maxTimeoutSeconds: number,
): string | undefined {
  const latest = latestValidBefore(nowSeconds, maxTimeoutSeconds);
  if (BigInt(validBefore) <= latest) return undefined;
  return `the authorization's validBefore ${validBefore} is later than now + maxTimeoutSeconds (${maxTimeoutSeconds} s) + ${VALID_BEFORE_SKEW_SECONDS} s of clock skew (${latest}): sign an authorization valid for at most ${maxTimeoutSeconds} s`;
}
