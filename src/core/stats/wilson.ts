/**
 * Wilson score interval for a binomial proportion (research/evals.md §2.2, reference values in
 * vectors/stats/stats-vectors.jsonl).
 */

/**
 * The two-sided 95% normal quantile used for every interval on the board: the double that
 * `scipy.stats.norm.ppf(0.975)` (= `ndtri(0.975)`) returns. It is not the correctly rounded
 * quantile (…543) nor statsmodels' `norm.isf(0.025)` (…545, two ulps higher); the three give
 * bounds within ~2e-16 of each other, and this one is the value the reference vectors fix.
 */
export const WILSON_Z_95 = 1.959963984540054;

/**
 * Wilson score interval, without continuity correction, for `k` successes in `n` trials:
 * `(2k + z² ∓ z·√(z² + 4k(n−k)/n)) / (2(n + z²))`.
 *
 * Contract: `n` is an integer ≥ 1, `k` an integer with 0 ≤ k ≤ n, `z` finite and ≥ 0; anything
 * else throws RangeError. Returns `[lower, upper]` with 0 ≤ lower ≤ k/n ≤ upper ≤ 1; lower is
 * exactly 0 at k = 0 and upper exactly 1 at k = n. Each bound is within a few ulps of the exact
 * value (no cancellation in either formula), unlike the textbook centre ∓ half-width form, which
 * returns −2.6e-23 at (0, 10^7) and 1.0000000000000002 at (10^7, 10^7).
 */
export function wilsonInterval(k: number, n: number, z: number = WILSON_Z_95): [number, number] {
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new RangeError(`n must be an integer ≥ 1, got ${String(n)}`);
  }
  if (!Number.isSafeInteger(k) || k < 0 || k > n) {
    throw new RangeError(`k must be an integer with 0 ≤ k ≤ n (n = ${n}), got ${String(k)}`);
  }
  if (!Number.isFinite(z) || z < 0) {
    throw new RangeError(`z must be finite and ≥ 0, got ${String(z)}`);
  }
  const z2 = z * z;
  // Every term of the upper root is non-negative, so it is accurate as written; the min() only
  // guards against a last-bit overshoot when k is close to n.
  const upper = k === n ? 1 : Math.min(1, (2 * k + z2 + z * Math.sqrt(z2 + 4 * k * ((n - k) / n))) / (2 * (n + z2)));
  // The lower root as `centre − half-width` subtracts two nearly equal numbers when k is small.
  // The roots' product is k²/(n(n + z²)), so dividing by the accurate upper root avoids that.
  // upper > 0 whenever k > 0, and k = 0 gives the exact 0 the contract promises.
  const lower = k === 0 ? 0 : ((k / n) * (k / (n + z2))) / upper;
  return [lower, upper];
}
