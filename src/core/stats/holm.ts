/**
 * Holm–Bonferroni adjusted p-values (Holm 1979; R `p.adjust(method = "holm")`): with the m
 * p-values sorted ascending, p_holm₍ᵢ₎ = min(1, max over j ≤ i of (m − j + 1)·p₍ⱼ₎). A test is
 * rejected at level α exactly when its adjusted p is below α, which controls the family-wise
 * error rate at α over the m tests. Ties keep their input order (the result is the same).
 */
export function holmAdjust(p: readonly number[]): number[] {
  for (const v of p) if (!(v >= 0 && v <= 1)) throw new RangeError(`a p-value must be in [0, 1], got ${String(v)}`);
  const m = p.length;
  const order = p.map((v, i) => [v, i] as const).sort((x, y) => x[0] - y[0]);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach(([v, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * v));
    out[i] = running;
  });
  return out;
}
