/**
 * A ratio of two sums over the same units, R = Σx / Σy, with a 95% interval by linearisation
 * (the delta method; Cochran, Sampling Techniques, §6.4), clustered where units are not
 * independent. The board's usage figures (src/core/board/usage.ts) use it twice: y = 1 gives the
 * mean of x per row, y = 1 on correct rows gives x per correct answer. A price list later gives
 * cost per item and per correct answer from the same function, with x = the cost of each row.
 *
 *   eᵢ = xᵢ − R·yᵢ,   SE = √(Σ_g (Σ_{i∈g} eᵢ)²) / Σy,   interval = [max(0, R − z·SE), R + z·SE]
 *
 * with g each row on its own, or each cluster where rows carry one: the same form as the
 * clustered standard error of an accuracy on /api/models (Miller 2024), no small-sample factor,
 * z = WILSON_Z_95. For y = 1 and no clusters, SE = √(Σ(xᵢ − x̄)²)/n, the population standard
 * deviation over √n. x and y are never negative here, so neither is R, and the lower bound is not
 * taken below 0. No interval below two units (rows or clusters): one unit has no spread to read.
 */
import { WILSON_Z_95 } from './wilson.js';

export interface RatioEstimate {
  /** Σx / Σy. */
  value: number;
  /** The linearised standard error; null below two units. */
  se: number | null;
  /** 95%, null below two units. */
  interval: [number, number] | null;
  /** Independent units the SE is taken over: rows, or clusters. */
  units: number;
}

/**
 * R = Σx/Σy over `n` rows with its interval; null when Σy = 0 (no ratio). `cluster(i)` names row
 * i's cluster, or is absent when rows are independent. x and y must be finite and ≥ 0.
 */
export function ratioEstimate(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  n: number,
  cluster?: (i: number) => string,
): RatioEstimate | null {
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += x[i]!;
    sy += y[i]!;
  }
  if (sy === 0) return null;
  const r = sx / sy;
  let squares = 0;
  let units: number;
  if (cluster === undefined) {
    for (let i = 0; i < n; i++) {
      const e = x[i]! - r * y[i]!;
      squares += e * e;
    }
    units = n;
  } else {
    const byCluster = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const c = cluster(i);
      byCluster.set(c, (byCluster.get(c) ?? 0) + x[i]! - r * y[i]!);
    }
    for (const e of byCluster.values()) squares += e * e;
    units = byCluster.size;
  }
  if (units < 2) return { value: r, se: null, interval: null, units };
  const se = Math.sqrt(squares) / sy;
  return { value: r, se, interval: [Math.max(0, r - WILSON_Z_95 * se), r + WILSON_Z_95 * se], units };
}
