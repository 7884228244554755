/**
 * What a paired comparison could have seen (normal approximations, said so wherever shown):
 * the minimum detectable difference at α = 0.05 two-sided and 80% power,
 * MDD = (z₀.₉₇₅ + z₀.₈₀)·√(p_disc / n) with p_disc = (b + c)/n, and the number of paired items
 * that would detect the observed difference d with that power, n* = (z₀.₉₇₅ + z₀.₈₀)²·p_disc / d²
 * (null when d = 0).
 */
import { WILSON_Z_95 } from './wilson.js';

/** z₀.₈₀: the double of the 0.80 normal quantile (scipy `norm.ppf(0.8)`). */
export const Z_POWER_80 = 0.8416212335729143;

export interface PairedPower {
  /** The minimum detectable difference (a proportion, as d is). */
  mdd: number;
  /** Paired items that would detect the observed difference with 80% power; null when d = 0. */
  n_needed: number | null;
}

export function pairedPower(b: number, c: number, n: number): PairedPower {
  if (!Number.isSafeInteger(n) || n < 1 || b < 0 || c < 0 || b + c > n)
    throw new RangeError(`need 0 ≤ b + c ≤ n and n ≥ 1, got b ${b}, c ${c}, n ${n}`);
  const zz = WILSON_Z_95 + Z_POWER_80;
  const pDisc = (b + c) / n;
  const d = (b - c) / n;
  return { mdd: zz * Math.sqrt(pDisc / n), n_needed: d === 0 ? null : (zz * zz * pDisc) / (d * d) };
}
