/**
 * Holm–Bonferroni adjusted p-values (Holm 1979; R `p.adjust(method = "holm")`): with the m
 * p-values sorted ascending, p_holm₍ᵢ₎ = min(1, max over j ≤ i of (m − j + 1)·p₍ⱼ₎). A test is
 * rejected at level α exactly when its adjusted p is below α, which controls the family-wise
 * error rate at α over the m tests. Ties keep their input order (the result is the same).
 */
export function holmAdjust(p: readonly number[]): number[] {
  for (const v of p) if (!(v >= 0 && v <= 1)) throw new RangeError(`a p-value must be in [0, 1], got ${String(v)}`);
  const m = p.length;
  // Indices sorted by p in typed arrays, not an array of [p, i] pairs: at 500,500 pairs (1,000
  // models) the pairs were half a million small arrays for the collector (issue 39).
  const value = Float64Array.from(p);
  const order = new Uint32Array(m);
  for (let i = 0; i < m; i++) order[i] = i;
  order.sort((x, y) => value[x]! - value[y]! || x - y);
  const out = new Array<number>(m);
  let running = 0;
  for (let rank = 0; rank < m; rank++) {
    const i = order[rank]!;
    running = Math.max(running, Math.min(1, (m - rank) * value[i]!));
    out[i] = running;
  }
  return out;
}
