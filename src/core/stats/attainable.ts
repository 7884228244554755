/**
 * Whether an exact McNemar test could reject at all, from its discordant count alone (issue 41:
 * the family of tests across an axis's slices). Given b + c = k discordant items, the exact
 * two-sided test's smallest attainable p is 2 · 0.5^k (all k on one side), whatever the split. A
 * test whose smallest attainable p is not below α can never be rejected, even unadjusted, so
 * leaving it out of a Holm family cannot add a false rejection; conditioning on k is the exact
 * test's own conditioning (Tarone 1990, "A modified Bonferroni method for discrete data").
 * At α = 0.05 that is k ≥ 6.
 */
export function smallestAttainableP(discordant: number): number {
  return Math.min(1, 2 * 0.5 ** discordant);
}

/** Whether a test with `discordant` (b + c) discordant items can reach p < `alpha`. */
export function canReject(discordant: number, alpha: number): boolean {
  return smallestAttainableP(discordant) < alpha;
}
