/**
 * Exact McNemar test on the discordant cells of a paired 2×2 table, as statsmodels
 * `mcnemar(table, exact=True)` computes it, but without its early underflow
 * (research/evals.md §2.1, reference values in vectors/stats/stats-vectors.jsonl).
 */

/** The board separates two models when the exact McNemar p is strictly below this level. */
export const SEPARATION_ALPHA = 0.05;

/**
 * Fewest discordant items (b + c) that can separate at {@link SEPARATION_ALPHA}: at b + c = 5 the
 * smallest p is 2·2⁻⁵ = 0.0625, at 6 it is 2·2⁻⁶ = 0.03125. Below it no result can separate.
 */
export const MIN_DISCORDANT_TO_SEPARATE = 6;

/** Result of {@link mcnemarExact}. Concordant items never enter the test. */
export interface McNemarResult {
  /** Items model A got right and model B got wrong. */
  b: number;
  /** Items model A got wrong and model B got right. */
  c: number;
  /** `b + c`. */
  discordant: number;
  /** Two-sided exact p = min(1, 2·P[X ≤ min(b,c)]), X ~ Binomial(b+c, ½); 1 when b+c = 0. */
  p: number;
  /** Mid-p = min(1, 2·P[X ≤ k] − P[X = k]). Supplementary; the decision uses `p`. */
  pMid: number;
  /** log10 of the exact p; 0 when p = 1, finite (not −Infinity) when `p` underflows to 0. */
  log10P: number;
  /** `SEPARATED` iff the exact p < {@link SEPARATION_ALPHA}; decided exactly near the boundary. */
  decision: 'SEPARATED' | 'TIE';
}

/**
 * Two-sided exact McNemar test for discordant counts `b` and `c` (non-negative integers,
 * RangeError otherwise). Symmetric in b and c. b + c = 0 gives p = 1 (TIE); |b − c| ≤ 1 gives
 * p = 1 exactly; fewer than 6 discordant items never separate (p ≥ 0.0625).
 *
 * Accuracy: for b + c ≤ 1000, `p` and `pMid` are the correctly rounded doubles. Above, they are
 * within about |ln p|·3e-16 relative (≤ 2.5e-13) while normal doubles, then lose precision as
 * subnormals do and reach 0, while `log10P` stays within ~1e-14 relative. Checked against
 * correctly rounded references up to b + c = 2,000,000. The decision does not depend on
 * rounding (see {@link EXACT_RECHECK_MAX_N}). Under a millisecond up to b + c = 2,000,000,
 * except for the rare exact recheck.
 */
export function mcnemarExact(b: number, c: number): McNemarResult {
  checkCount('b', b);
  checkCount('c', c);
  const n = b + c;
  if (!Number.isSafeInteger(n)) throw new RangeError(`b + c must be a safe integer, got ${n}`);
  const k = Math.min(b, c);
  // 2·P[X ≤ n/2] = 1 + P[X = n/2] is clipped to 1, and the mid-p is exactly 1 as well.
  if (b === c) return { b, c, discordant: n, p: 1, pMid: 1, log10P: 0, decision: 'TIE' };
  if (n <= EXACT_SMALL_N) return smallExact(b, c, n, k);

  let p: number, pMid: number, log10P: number;
  if (k === 0) {
    // p = 2^(1−n) and mid-p = 2^(−n) are exact in binary, subnormals and the round-to-0 included.
    p = 2 ** (1 - n);
    pMid = 2 ** -n;
    log10P = (1 - n) * LOG10_2;
  } else if ((n - 2 * k) * (n - 2 * k) <= n) {
    // |b − c| ≤ √n: p is near 1, so take p = 1 − M with M = P[k < X < n − k], the central mass.
    // That keeps log10P = log1p(−M)/ln 10 accurate where log(p) itself would cancel, and needs
    // only |b − c| − 1 terms (b ≠ c here, so the two tails do not overlap; pmf(n−k−1) = pmf(k+1)).
    const central = n - 2 * k === 1 ? 0 : Math.exp(logPmfHalf(n, k + 1)) * ratioSumDown(n, n - k - 1, n - 2 * k - 2);
    p = 1 - central;
    pMid = p - Math.exp(logPmfHalf(n, k));
    log10P = central === 0 ? 0 : Math.log1p(-central) / Math.LN10;
  } else {
    // Tail: P[X ≤ k] = pmf(k)·R. Staying in logs until the last step is what keeps p from
    // underflowing early (statsmodels doubles after rounding the tail, so loses 2^-1074).
    const ratioSum = ratioSumDown(n, k, k);
    const lnP = logPmfHalf(n, k, Math.LN2 + Math.log(ratioSum));
    p = Math.exp(lnP);
    pMid = Math.exp(logPmfHalf(n, k, Math.log(2 * ratioSum - 1)));
    log10P = lnP / Math.LN10;
  }

  let separated = p < SEPARATION_ALPHA;
  if (Math.abs(p - SEPARATION_ALPHA) < EXACT_RECHECK_WINDOW && n <= EXACT_RECHECK_MAX_N) {
    separated = exactlyBelowAlpha(n, k);
  }
  return { b, c, discordant: n, p, pMid, log10P, decision: separated ? 'SEPARATED' : 'TIE' };
}

/**
 * The SEPARATED/TIE decision for discordant counts `b` and `c`, computed in exact integer
 * arithmetic whatever p is: the same decision {@link mcnemarExact} returns, by a slower route
 * that needs no floating-point argument. Costs a sieve of b + c bytes and BigInt work (about
 * 0.25 s at b + c = 2,000,000, 1.5 s at 10^7). RangeError for invalid counts or for
 * b + c > {@link EXACT_RECHECK_MAX_N}.
 */
export function mcnemarExactDecision(b: number, c: number): 'SEPARATED' | 'TIE' {
  checkCount('b', b);
  checkCount('c', c);
  const n = b + c;
  if (n > EXACT_RECHECK_MAX_N) throw new RangeError(`b + c must be ≤ ${EXACT_RECHECK_MAX_N}, got ${n}`);
  return exactlyBelowAlpha(n, Math.min(b, c)) ? 'SEPARATED' : 'TIE';
}

// Up to this b + c the tail is summed exactly in BigInt (0.1 ms at 1000), so p and pMid are the
// correctly rounded doubles, as Python's fractions give (0.2890625 at (2, 6)), and most boards'
// comparisons are exact. n ≤ 1000 keeps p ≥ 2^-999, a normal double, so the scaling is exact.
const EXACT_SMALL_N = 1000;

function smallExact(b: number, c: number, n: number, k: number): McNemarResult {
  let [term, tail] = [1n, 1n]; // C(n, i) and Σ_{j ≤ i} C(n, j)
  for (let i = 0; i < k; i++) {
    term = (term * BigInt(n - i)) / BigInt(i + 1);
    tail += term;
  }
  // BigInt → Number rounds to nearest; multiplying by 2^-n is then exact.
  const p = Math.min(1, Number(2n * tail) * 2 ** -n);
  const pMid = Math.min(1, Number(2n * tail - term) * 2 ** -n);
  const separated = 40n * tail < 1n << BigInt(n); // 2·tail/2^n < 1/20
  const log10P = p === 1 ? 0 : Math.log10(p);
  return { b, c, discordant: n, p, pMid, log10P, decision: separated ? 'SEPARATED' : 'TIE' };
}

/**
 * Largest b + c for which {@link mcnemarExact} rechecks a floating p within 1e-9 of 0.05 exactly
 * (a sieve of n bytes and BigInt work: about 0.25 s at 2,000,000, 1.5 s at the cap), and the
 * largest {@link mcnemarExactDecision} accepts. The floating p's worst-case error near 0.05 is
 * two roundings per ratio step, √n/4 steps on average: 0.05·√n·5.5e-17 absolute, 9e-15 at this
 * cap (the log-pmf adds ~1e-16), so 1e-9 leaves a wide margin. Above the cap the decision comes
 * from the floating p and could only be wrong if the exact p lay within that error of 0.05
 * (2.6e-10 even at n = 2^53); 10^7 discordant items is far beyond any evaluation the board
 * ranks, so that is accepted.
 */
export const EXACT_RECHECK_MAX_N = 10_000_000;
const EXACT_RECHECK_WINDOW = 1e-9;

const LOG10_2 = 0.30102999566398119521;
const LN_2PI = 1.8378770664093454835606594728112;
const TAIL_EPS = 1e-17;

function checkCount(name: string, x: number): void {
  if (!Number.isSafeInteger(x) || x < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${String(x)}`);
  }
}

/**
 * log P[X = x] + plus, for X ~ Binomial(n, ½) and 0 < x < n, by Loader's saddle-point expansion
 * (as in R's dbinom_raw), which stays relatively accurate at huge n where differences of
 * log-factorials lose |log pmf|·ε. The small terms (and `plus`) are summed first and the large
 * deviance subtracted last, so the result takes one rounding at its own scale instead of several.
 */
function logPmfHalf(n: number, x: number, plus = 0): number {
  const y = n - x;
  const logSqrtTerm = 0.5 * (LN_2PI + Math.log(x) + Math.log1p(-x / n)); // ln √(2π·x·y/n)
  const small = plus + stirlerr(n) - stirlerr(x) - stirlerr(y) - logSqrtTerm;
  return small - halfDeviance(Math.min(x, y), Math.max(x, y));
}

/**
 * bd0(x, n/2) + bd0(y, n/2) with n = x + y and x ≤ y: Loader's deviance terms for p = ½. Their
 * linear parts cancel, leaving (n/2)·g(t), t = (y − x)/n, g(t) = (1−t)ln(1−t) + (1+t)ln(1+t).
 * This term carries most of |ln p|, so its relative error becomes p's: about 3 roundings here.
 */
function halfDeviance(x: number, y: number): number {
  const n = x + y;
  const d = y - x;
  const t = d / n;
  if (t >= 0.8) {
    // Closed form: here the result is at least half the sum of the terms' sizes, so cancellation
    // costs little; 2x/n and t carry one rounding each, and log1p avoids forming 1 + t.
    return x * Math.log((2 * x) / n) + y * Math.log1p(t);
  }
  // (n/2)·g(t) = (d²/2n)·(1 + Σ_{j≥2} t^{2j−2}/(j(2j−1))): positive terms, so no cancellation at
  // small t, where the closed form loses everything. The correction is summed on its own so
  // its dozens of terms round at its scale (≤ 0.15), not at 1's.
  const t2 = t * t;
  let [power, correction] = [1, 0];
  for (let j = 2; ; j++) {
    power *= t2;
    const next = correction + power / (j * (2 * j - 1));
    if (next === correction) break;
    correction = next;
  }
  const lead = (d * d) / (2 * n); // d² is exact below 9.4·10^7
  return lead + lead * correction;
}

/**
 * Loader's stirlerr(m) = ln(m!) − (m + ½)ln(m) + m − ln√(2π) for integers m ≥ 1: a table below 16
 * (values from mpmath at 40 digits), the Stirling series with as many terms as needed above.
 */
function stirlerr(m: number): number {
  if (m <= 15) return STIRLERR_TABLE[m]!;
  const mm = m * m;
  if (m > 500) return (S0 - S1 / mm) / m;
  if (m > 80) return (S0 - (S1 - S2 / mm) / mm) / m;
  if (m > 35) return (S0 - (S1 - (S2 - S3 / mm) / mm) / mm) / m;
  return (S0 - (S1 - (S2 - (S3 - S4 / mm) / mm) / mm) / mm) / m;
}

const [S0, S1, S2, S3, S4] = [1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188];

const STIRLERR_TABLE: readonly number[] = [
  0, // m = 0 is never asked for (x = 0 is handled exactly)
  0.08106146679532725821967026,
  0.04134069595540929409382208,
  0.02767792568499833914878929,
  0.02079067210376509311152277,
  0.01664469118982119216319487,
  0.01387612882307074799874573,
  0.01189670994589177009505572,
  0.01041126526197209649747857,
  0.009255462182712732917728637,
  0.008330563433362871256469319,
  0.007573675487951840794972024,
  0.006942840107209529865664153,
  0.006408994188004207068439631,
  0.005951370112758847735624416,
  0.00555473355196280137103869,
];

/**
 * Σ_{j=0..steps} C(n, top−j)/C(n, top), walking down: each term is the previous one times
 * r = i/(n−i+1). Once r < 1 the ratios keep shrinking, so term·r/(1−r) bounds everything left
 * and the walk stops when that is below TAIL_EPS·sum (≤ ~15,000 terms at n = 2·10^6).
 */
function ratioSumDown(n: number, top: number, steps: number): number {
  let [sum, compensation, term] = [1, 0, 1]; // Neumaier: thousands of terms would add up errors
  for (let i = top; i > top - steps; i--) {
    const r = i / (n - i + 1);
    term *= r;
    const next = sum + term;
    compensation += Math.abs(sum) >= Math.abs(term) ? sum - next + term : term - next + sum;
    sum = next;
    if (term * r < TAIL_EPS * sum * (1 - r)) break;
  }
  return sum + compensation;
}

/**
 * Exact test of 2·Σ_{i≤k} C(n,i)/2^n < 1/20, i.e. 40·C(n,k)·R < 2^n. C(n,k) is an exact BigInt;
 * R is bracketed in fixed point with `bits` fractional bits, doubled until the bracket decides.
 * It always does, because 40·C(n,k)·R is an integer and never equals 2^n.
 */
function exactlyBelowAlpha(n: number, k: number): boolean {
  const binom = exactBinomial(n, k);
  for (let bits = 128; ; bits *= 2) {
    const [lo, hi] = ratioSumBracket(n, k, bits);
    const limit = 1n << BigInt(n + bits);
    if (40n * binom * hi < limit) return true;
    if (40n * binom * lo >= limit) return false;
  }
}

/** Integers [lo, hi] with lo ≤ 2^bits·R ≤ hi for R = Σ_{i≤k} C(n,i)/C(n,k), rounding each term outwards. */
function ratioSumBracket(n: number, k: number, bits: number): [bigint, bigint] {
  const one = 1n << BigInt(bits);
  let [lo, hi, sumLo, sumHi] = [one, one, one, one];
  for (let i = k; i >= 1; i--) {
    const [num, den] = [BigInt(i), BigInt(n - i + 1)];
    lo = (lo * num) / den; // rounds down
    hi = (hi * num + den - 1n) / den; // rounds up
    sumLo += lo;
    sumHi += hi;
    // The terms left are ≤ hi·r/(1−r) with r = (i−1)/(n−i+2); once that is ≤ 1 unit, add 1 and stop.
    if (hi * BigInt(i - 1) <= BigInt(n - 2 * i + 3)) {
      sumHi += 1n;
      break;
    }
  }
  return [sumLo, sumHi];
}

/** C(n,k) exactly, from its prime factorisation (Legendre) and a balanced product tree. */
function exactBinomial(n: number, k: number): bigint {
  const composite = new Uint8Array(n + 1);
  const factors: bigint[] = [1n];
  for (let prime = 2; prime <= n; prime++) {
    if (composite[prime] === 1) continue;
    if (prime <= n / prime) for (let q = prime * prime; q <= n; q += prime) composite[q] = 1;
    let e = 0;
    for (let pp = prime; pp <= n; pp *= prime) {
      e += Math.floor(n / pp) - Math.floor(k / pp) - Math.floor((n - k) / pp);
    }
    if (e > 0) factors.push(BigInt(prime) ** BigInt(e));
  }
  return productTree(factors, 0, factors.length);
}

function productTree(xs: readonly bigint[], from: number, to: number): bigint {
  if (to - from === 1) return xs[from]!;
  const mid = (from + to) >>> 1;
  return productTree(xs, from, mid) * productTree(xs, mid, to);
}
