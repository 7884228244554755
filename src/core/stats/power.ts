/**
 * What a paired comparison could have seen (normal approximations, said so wherever shown):
 * the minimum detectable difference at α = 0.05 two-sided and 80% power,
 * MDD = (z₀.₉₇₅ + z₀.₈₀)·√(p_disc / n) with p_disc = (b + c)/n, and the number of paired items
 * that would detect the observed difference d with that power, n* = (z₀.₉₇₅ + z₀.₈₀)²·p_disc / d².
 *
 * Both rest on the normal approximation to the discordant items, so both are given only where it
 * holds (docs/methodology.md §9, issue 39): at least {@link MIN_DISCORDANT_FOR_POWER} discordant
 * items (b + c), the rule of thumb Rosner gives for the normal-theory McNemar test (*Fundamentals
 * of Biostatistics*, §10.4: use it only when n_D ≥ 20); and n* only where the items it projects
 * would themselves hold that many discordant items (n*·p_disc ≥ 20). Otherwise the figure is null
 * with the reason. Since b + c ≥ 20 > (z₀.₉₇₅ + z₀.₈₀)² ≈ 7.85, the MDD is then above 0 and at
 * most p_disc ≤ 1: never 0 points, never more than 100 (at 1 discordant item of 1 the formula gave
 * 2.80, 280 points, and at none it gave 0).
 */
import { WILSON_Z_95 } from './wilson.js';

/** z₀.₈₀: the double of the 0.80 normal quantile (scipy `norm.ppf(0.8)`). */
export const Z_POWER_80 = 0.8416212335729143;

/** Fewest discordant items (b + c) for which the power figures are given. */
export const MIN_DISCORDANT_FOR_POWER = 20;

export interface PairedPower {
  /** The minimum detectable difference (a proportion, as d is); null where the approximation fails. */
  mdd: number | null;
  /** Why `mdd` is null. */
  mdd_reason?: string;
  /** Paired items that would detect the observed difference with 80% power; null with a reason. */
  n_needed: number | null;
  /** Why `n_needed` is null. */
  n_needed_reason?: string;
}

const items = (k: number) => `${k} discordant item${k === 1 ? '' : 's'}`;

export function pairedPower(b: number, c: number, n: number): PairedPower {
  if (!Number.isSafeInteger(n) || n < 1 || b < 0 || c < 0 || b + c > n)
    throw new RangeError(`need 0 ≤ b + c ≤ n and n ≥ 1, got b ${b}, c ${c}, n ${n}`);
  const zz = WILSON_Z_95 + Z_POWER_80;
  const disc = b + c;
  if (disc < MIN_DISCORDANT_FOR_POWER) {
    const reason = `only ${items(disc)} (b + c < ${MIN_DISCORDANT_FOR_POWER}): the normal approximation does not hold`;
    return { mdd: null, mdd_reason: reason, n_needed: null, n_needed_reason: reason };
  }
  const pDisc = disc / n;
  const d = (b - c) / n;
  const mdd = zz * Math.sqrt(pDisc / n);
  if (d === 0)
    return { mdd, n_needed: null, n_needed_reason: 'no observed difference (b = c): there is nothing to detect' };
  const nNeeded = (zz * zz * pDisc) / (d * d);
  if (nNeeded * pDisc < MIN_DISCORDANT_FOR_POWER)
    return {
      mdd,
      n_needed: null,
      n_needed_reason: `the items it projects would hold fewer than ${MIN_DISCORDANT_FOR_POWER} discordant items, where the normal approximation does not hold`,
    };
  // A number of items: rounded up to a whole one (152.9 items read as 153, as methodology §9 says).
  return { mdd, n_needed: Math.ceil(nNeeded) };
}
