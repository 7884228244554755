/**
 * The difference of two paired proportions and its 95% interval by Newcombe (1998), method 10:
 * the hybrid score interval built from the Wilson intervals of the two marginal proportions
 * (no continuity correction) and Newcombe's adjusted φ. Checked against Altman et al. (2000),
 * *Statistics with Confidence*, Table 6.2 (test/stats/paired-difference.test.ts).
 *
 * The 2×2 table of two models on the items both parsed: `both` right, `firstOnly` right (the
 * McNemar b), `secondOnly` right (c), `neither`.
 */
import { WILSON_Z_95, wilsonInterval } from './wilson.js';

export interface PairedTable {
  both: number;
  firstOnly: number;
  secondOnly: number;
  neither: number;
}

export interface PairedDifference {
  /** d = p₁ − p₂ = (b − c)/n. */
  difference: number;
  /** Newcombe's method 10 95% interval of d. */
  interval: [number, number];
  /** Newcombe's adjusted φ of the table. */
  phi: number;
}

/** Newcombe's adjusted φ: AD − BC reduced by n/2 toward 0 when positive (0 when a margin is 0). */
export function adjustedPhi(t: PairedTable): number {
  const { both: a, firstOnly: b, secondOnly: c, neither: d } = t;
  const n = a + b + c + d;
  const margins = (a + b) * (c + d) * (a + c) * (b + d);
  if (margins === 0) return 0;
  const ad = a * d - b * c;
  const e = ad > n / 2 ? ad - n / 2 : ad >= 0 ? 0 : ad;
  return e / Math.sqrt(margins);
}

export function pairedDifference(t: PairedTable, z: number = WILSON_Z_95): PairedDifference {
  const n = t.both + t.firstOnly + t.secondOnly + t.neither;
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError('a paired table needs at least one pair');
  const k1 = t.both + t.firstOnly;
  const k2 = t.both + t.secondOnly;
  const p1 = k1 / n;
  const p2 = k2 / n;
  const [l1, u1] = wilsonInterval(k1, n, z);
  const [l2, u2] = wilsonInterval(k2, n, z);
  const phi = adjustedPhi(t);
  const difference = (t.firstOnly - t.secondOnly) / n;
  const lower = difference - Math.sqrt(Math.max(0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2));
  const upper = difference + Math.sqrt(Math.max(0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2));
  return { difference, interval: [lower, upper], phi };
}
