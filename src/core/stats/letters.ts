/**
 * A compact letter display (Piepho 2004, "An algorithm for a letter-based representation of
 * all-pairwise comparisons", J. Comput. Graph. Stat. 13(2); R `multcompView::multcompLetters`).
 * Piepho's insert-and-absorb starts with one letter shared by every model, splits every letter
 * holding both models of a separated pair into one without each (insert), and drops any letter
 * whose models all share another (absorb). What it ends with is exactly the set of maximal groups
 * of models no two of which are separated (the maximal cliques of the "not separated" graph):
 * every group it keeps has no separated pair inside, every such maximal group survives each split
 * inside some letter, and absorb keeps only maximal ones. So the letters are computed here as
 * those maximal cliques, by Bron–Kerbosch with Tomita's pivot over bitsets, which at 200 models
 * takes milliseconds where insert-and-absorb took seconds (issue 39); a test compares both.
 * Two models then share a letter exactly when they are not separated.
 *
 * `count` models, indexed in rank order (best first); `separated(i, j)` says whether a pair is
 * separated. Letters are ordered by the models they hold (by the best, then the next, …): `a`
 * holds the best model. Past 26 groups the labels go on `aa`, `ab`, …, so a model's groups are a
 * list of labels, never one concatenated string (`["au", "av"]`, not `"auav"`). Null when the
 * display would need more than `maxGroups` groups (see {@link STEPS_PER_GROUP}).
 */
export function compactLetters(
  count: number,
  separated: (i: number, j: number) => boolean,
  maxGroups = Number.POSITIVE_INFINITY,
): string[][] | null {
  if (count === 0) return [];
  const words = (count + 31) >>> 5;
  const tied = Array.from({ length: count }, () => new Uint32Array(words));
  for (let i = 0; i < count; i++)
    for (let j = i + 1; j < count; j++)
      if (!separated(i, j)) {
        tied[i]![j >>> 5]! |= 1 << (j & 31);
        tied[j]![i >>> 5]! |= 1 << (i & 31);
      }
  const groups: number[][] = [];
  const all = new Uint32Array(words);
  for (let i = 0; i < count; i++) all[i >>> 5]! |= 1 << (i & 31);
  const search: Search = { tied, out: groups, maxGroups, steps: maxGroups * STEPS_PER_GROUP + count };
  if (!maximalCliques([], all, new Uint32Array(words), search)) return null;
  // Each group is sorted (members in rank order); order groups by their members' ranks.
  groups.sort((x, y) => {
    for (let k = 0; k < Math.min(x.length, y.length); k++) if (x[k] !== y[k]) return x[k]! - y[k]!;
    return x.length - y.length;
  });
  const out = Array.from({ length: count }, () => [] as string[]);
  groups.forEach((group, k) => {
    const name = letterName(k);
    for (const m of group) out[m]!.push(name);
  });
  return out;
}

/** The members of a bitset, ascending. */
function members(set: Uint32Array): number[] {
  const out: number[] = [];
  for (let w = 0; w < set.length; w++) {
    let bits = set[w]!;
    while (bits !== 0) {
      const low = bits & -bits;
      out.push((w << 5) + 31 - Math.clz32(low));
      bits ^= low;
    }
  }
  return out;
}

/** |a ∩ b|, over the words `from` to `to` (exclusive), where a has all its bits. */
function intersectCount(a: Uint32Array, b: Uint32Array, from: number, to: number): number {
  let n = 0;
  for (let w = from; w < to; w++) {
    let v = a[w]! & b[w]!;
    v -= (v >>> 1) & 0x55555555;
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    n += (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
  }
  return n;
}

function intersect(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length);
  for (let w = 0; w < a.length; w++) out[w] = a[w]! & b[w]!;
  return out;
}

const isEmpty = (set: Uint32Array) => set.every((w) => w === 0);

/**
 * The number of groups can grow far faster than the number of models (a long run of models each
 * separated only from those far from it gives one group per model; noise in which pairs separate
 * multiplies them: 294 groups at 200 synthetic models, 2,665 at 400, and past the largest array at
 * 1,000). So the search stops, and the letters are not given, past `maxGroups` groups or past a
 * budget of search steps proportional to it (a search can also branch long without finding one).
 */
const STEPS_PER_GROUP = 200;

interface Search {
  tied: Uint32Array[];
  out: number[][];
  maxGroups: number;
  /** Search steps left; the search gives up at 0. */
  steps: number;
}

/**
 * Bron–Kerbosch with Tomita's pivot: every maximal clique containing `clique`, extended from the
 * candidates `p` and excluding `x` (models already tried). The pivot is the model of p ∪ x tied to
 * most candidates; only candidates not tied to it are branched on. False when the search gave up
 * (more than `maxGroups` groups, or its steps ran out).
 */
function maximalCliques(clique: number[], p: Uint32Array, x: Uint32Array, search: Search): boolean {
  const { tied, out } = search;
  if (--search.steps < 0) return false;
  if (isEmpty(p)) {
    if (isEmpty(x)) out.push([...clique].sort((a, b) => a - b));
    return out.length <= search.maxGroups;
  }
  const candidates = members(p);
  const [from, to] = [candidates[0]! >>> 5, (candidates[candidates.length - 1]! >>> 5) + 1];
  let pivot = -1;
  let best = -1;
  let allTied = true;
  for (const u of candidates) {
    const k = intersectCount(p, tied[u]!, from, to);
    if (k > best) [pivot, best] = [u, k];
    if (k !== candidates.length - 1) allTied = false;
  }
  // The candidates are all tied to each other: the clique with all of them is the one maximal
  // clique here, unless a model already tried is tied to all of them (then it was found with it).
  // Without this, a run of tied models is walked one level per model (issue 39's 1,000 models).
  if (allTied) {
    for (const u of members(x)) if (intersectCount(p, tied[u]!, from, to) === candidates.length) return true;
    out.push([...clique, ...candidates].sort((a, b) => a - b));
    return out.length <= search.maxGroups;
  }
  for (const u of members(x)) {
    const k = intersectCount(p, tied[u]!, from, to);
    if (k > best) [pivot, best] = [u, k];
  }
  const branch = p.slice();
  const around = tied[pivot]!;
  for (let w = 0; w < branch.length; w++) branch[w]! &= ~around[w]!;
  for (const v of members(branch)) {
    clique.push(v);
    const done = maximalCliques(clique, intersect(p, tied[v]!), intersect(x, tied[v]!), search);
    clique.pop();
    if (!done) return false;
    p[v >>> 5]! &= ~(1 << (v & 31));
    x[v >>> 5]! |= 1 << (v & 31);
  }
  return true;
}

/** a, b, …, z, then aa, ab, … (base 26, as spreadsheet columns are named). */
export function letterName(k: number): string {
  let name = '';
  for (let n = k + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(97 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * A model's groups for reading: run together while the axis has at most 26 groups, so every
 * label is one letter (`ab`, as a compact letter display is printed); past 26, separated by
 * spaces (`z aa`, `au av`), so `ab` can never be read as `a` and `b` or the other way round.
 * `total` is the number of groups on the axis; '' when there are no letters (null).
 */
export function groupsText(groups: readonly string[] | null, total: number | null): string {
  return groups === null ? '' : groups.join(total !== null && total <= 26 ? '' : ' ');
}

/** A model's `not_separated` ranges for reading: `1–4, 7`; '' for none. */
export function rangesText(ranges: ReadonlyArray<readonly [number, number]> | null): string {
  return (ranges ?? []).map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join(', ');
}

/**
 * The same "not separated" relation written per model, so that its size never depends on how
 * many tie groups there are (issue 39): for each of `count` models in rank order, the ranks
 * (1-based) of the models it is not separated from, itself included, as inclusive ranges
 * `[first, last]`, ascending. Rank j lies in model i's ranges exactly when the pair (i, j) is
 * not separated. Because separations mostly follow rank distance, a model's ranges are a few
 * runs (about 4 a model at 400 synthetic models with 2,665+ groups); in the worst case they hold
 * count/2 ranges, as many numbers as the pairs themselves, never more.
 */
export function notSeparatedRanges(
  count: number,
  separated: (i: number, j: number) => boolean,
): Array<Array<[number, number]>> {
  const out: Array<Array<[number, number]>> = [];
  for (let i = 0; i < count; i++) {
    const ranges: Array<[number, number]> = [];
    let start = -1;
    for (let j = 0; j <= count; j++) {
      const tied = j < count && (i === j || !separated(i, j));
      if (tied && start < 0) start = j;
      if (!tied && start >= 0) {
        ranges.push([start + 1, j]);
        start = -1;
      }
    }
    out.push(ranges);
  }
  return out;
}
