/**
 * The reader of `/api/slices?axis=`, `/api/models?axis=&slice=` and `/api/windows?axis=` who
 * shares no code with src/ (issue 41, "Done when"; used by test/board/slices-windows-rederived.test.ts).
 * From the raw rows and cards alone, every document is rebuilt as the documents' `method` and
 * docs/methodology.md §9 and §13 describe it: outcomes (label ∈ gold), an exact two-sided McNemar
 * p in BigInt, Holm by hand, textbook Wilson bounds, Newcombe's method 10, the power rule, the
 * maximal cliques behind the letters, the ranges, and day-or-month dates compared by earliest
 * item day against latest cutoff day. Then the served document is compared with the rebuilt one
 * key by key ({@link match}): the same keys, integers exactly, other numbers to 1e-12 relative.
 * Nothing here imports src/.
 */
import assert from 'node:assert/strict';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */

export const Z = 1.959963984540054;
const Z80 = 0.8416212335729143;
export const ALPHA = 0.05;

export interface Row {
  item: string;
  model: string;
  gold: string;
  label: string | null;
  item_hash?: string;
  cluster?: string;
  tags?: string[];
  item_date?: string;
}
export interface Card {
  model: string;
  knowledge_cutoff?: string;
  organisation?: string;
}
export type Settings = Record<string, unknown>;
type Outcome = 'right' | 'wrong' | 'unparsed';

// ---------------------------------------------------------------- matching served to rebuilt

/** Accepts any non-empty string (words the docs do not fix); a RegExp must match. */
export const ANY_TEXT = Symbol('any text');
/** Accepts any object whose values are all non-empty strings (a `method`). */
export const ANY_WORDS = Symbol('any words');
export const figures = { compared: 0 };

/** Relative 1e-12, with an absolute floor of 1e-15 for values near 0 (an interval's 0 bound). */
export function close(a: unknown, b: number, what: string, tol = 1e-12): void {
  assert.equal(typeof a, 'number', `${what}: served ${String(a)}, re-derived ${b}`);
  const x = a as number;
  assert.ok(Math.abs(x - b) <= tol * Math.abs(b) || Math.abs(x - b) <= 1e-15, `${what}: served ${x}, re-derived ${b}`);
  figures.compared++;
}

/** The served value against the rebuilt one: same keys, same array lengths, numbers as {@link close}. */
export function match(served: unknown, expected: unknown, path: string): void {
  if (expected === ANY_TEXT) {
    assert.ok(typeof served === 'string' && served.length > 0, `${path}: a sentence, got ${JSON.stringify(served)}`);
    return;
  }
  if (expected === ANY_WORDS) {
    assert.ok(served !== null && typeof served === 'object', `${path}: an object of sentences`);
    for (const [k, v] of Object.entries(served as object))
      assert.ok(typeof v === 'string' && v.length > 0, `${path}.${k}`);
    return;
  }
  if (expected instanceof RegExp) {
    assert.ok(typeof served === 'string' && expected.test(served), `${path}: ${JSON.stringify(served)} !~ ${expected}`);
    figures.compared++;
    return;
  }
  if (typeof expected === 'number') {
    if (!Number.isInteger(expected) || !Number.isInteger(served)) return close(served, expected, path);
    assert.equal(served, expected, path);
    figures.compared++;
    return;
  }
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(served), `${path}: an array, got ${JSON.stringify(served)}`);
    assert.equal(served.length, expected.length, `${path}: length (served ${JSON.stringify(served)})`);
    expected.forEach((e, i) => match(served[i], e, `${path}[${i}]`));
    return;
  }
  if (expected !== null && typeof expected === 'object') {
    assert.ok(served !== null && typeof served === 'object' && !Array.isArray(served), `${path}: an object`);
    const want = Object.keys(expected).filter((k) => (expected as any)[k] !== undefined);
    assert.deepEqual(Object.keys(served as object).sort(), want.sort(), `${path}: keys`);
    for (const k of want) match((served as any)[k], (expected as any)[k], `${path}.${k}`);
    return;
  }
  assert.equal(served, expected, path);
  figures.compared++;
}

// ---------------------------------------------------------------- statistics, from the textbook

/** p = min(1, 2·P(X ≤ min(b, c))), X ~ Bin(b + c, ½), exactly in BigInt, then to a double. */
export function mcnemarP(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  let term = 1n;
  let sum = 0n;
  for (let i = 0; i <= Math.min(b, c); i++) {
    if (i > 0) term = (term * BigInt(n - i + 1)) / BigInt(i);
    sum += term;
  }
  const num = 2n * sum;
  const den = 1n << BigInt(n);
  if (num >= den) return 1;
  const shift = den.toString(2).length - num.toString(2).length + 64;
  return Number((num << BigInt(shift)) / den) * 2 ** -shift;
}

/** Holm: sort ascending, p_holm(i) = min(1, max over j ≤ i of (m − j + 1)·p(j)); in input order. */
export function holm(ps: readonly number[]): number[] {
  const order = ps.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0]);
  const out = new Array<number>(ps.length);
  let running = 0;
  order.forEach(([p, i], j) => {
    running = Math.max(running, Math.min(1, (ps.length - j) * p));
    out[i] = running;
  });
  return out;
}

export function wilson(k: number, n: number): [number, number] {
  const p = k / n;
  const centre = (p + (Z * Z) / (2 * n)) / (1 + (Z * Z) / n);
  const half = (Z / (1 + (Z * Z) / n)) * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** Newcombe (1998) method 10 for the paired difference (b − c)/n, as docs/methodology.md §9 writes it. */
export function newcombe(a: number, b: number, c: number, d: number): [number, number] {
  const n = a + b + c + d;
  const p1 = (a + b) / n;
  const p2 = (a + c) / n;
  const [l1, u1] = wilson(a + b, n);
  const [l2, u2] = wilson(a + c, n);
  const ad = a * d - b * c;
  const e = ad > n / 2 ? ad - n / 2 : ad >= 0 ? 0 : ad;
  const margins = (a + b) * (c + d) * (a + c) * (b + d);
  const phi = margins === 0 ? 0 : e / Math.sqrt(margins);
  const dd = (b - c) / n;
  return [
    dd - Math.sqrt(Math.max(0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2)),
    dd + Math.sqrt(Math.max(0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2)),
  ];
}

/** §9's power figures where the normal approximation holds (b + c ≥ 20; n_needed·p_disc ≥ 20). */
function power(b: number, c: number, n: number) {
  if (b + c < 20) return { mdd: null, mdd_reason: ANY_TEXT, n_needed: null, n_needed_reason: ANY_TEXT };
  const disc = (b + c) / n;
  const d = (b - c) / n;
  const needed = ((Z + Z80) ** 2 * disc) / d ** 2;
  const ok = b !== c && needed * disc >= 20;
  return {
    mdd: (Z + Z80) * Math.sqrt(disc / n),
    n_needed: ok ? Math.ceil(needed) : null,
    n_needed_reason: ok ? undefined : ANY_TEXT,
  };
}

// ---------------------------------------------------------------- dates (decision CW1, as §13 words it)

const daysIn = (y: number, m: number) =>
  m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
/** A date as y·10⁴ + m·10² + d: its earliest possible day (a month: the 1st). */
export function earliest(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number?];
  return y * 10000 + m * 100 + (d ?? 1);
}
/** Its latest possible day (a month: its last day). */
export function latest(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number?];
  return y * 10000 + m * 100 + (d ?? daysIn(y, m));
}
export const after = (itemDate: string | undefined, cutoff: string) =>
  itemDate !== undefined && earliest(itemDate) > latest(cutoff);

// ---------------------------------------------------------------- an axis read from its rows

export interface Axis {
  items: string[];
  tagsOf: Map<string, string[]>;
  dateOf: Map<string, string>;
  outcome: Map<string, Map<string, Outcome>>;
  rowsOf: Map<string, Set<string>>;
  hash: Map<string, Map<string, string>>;
  cluster: Map<string, string>;
  clustered: boolean;
  own: Set<string>;
  settings: Map<string, Settings>;
  /** Whether two models' runs differ in a setting that changes the task (§12). */
  unalike: (x: string, y: string) => boolean;
}

export function readAxis(rows: readonly Row[], own: readonly string[], settings: Map<string, Settings>): Axis {
  const ax: Axis = {
    items: [],
    tagsOf: new Map(),
    dateOf: new Map(),
    outcome: new Map(),
    rowsOf: new Map(),
    hash: new Map(),
    cluster: new Map(),
    clustered: rows.length > 0 && rows.every((r) => r.cluster !== undefined),
    own: new Set(own),
    settings,
    unalike: (x, y) => likeForLike(settings.get(x), settings.get(y)).like === false,
  };
  const seen = new Set<string>();
  for (const r of rows) {
    if (!seen.has(r.item)) ax.items.push(r.item);
    seen.add(r.item);
    if (r.tags) ax.tagsOf.set(r.item, r.tags);
    if (r.item_date) ax.dateOf.set(r.item, r.item_date);
    if (r.cluster) ax.cluster.set(r.item, r.cluster);
    const o: Outcome = r.label === null ? 'unparsed' : r.label === r.gold ? 'right' : 'wrong';
    if (!ax.outcome.has(r.model)) ax.outcome.set(r.model, new Map());
    ax.outcome.get(r.model)!.set(r.item, o);
    if (!ax.rowsOf.has(r.model)) ax.rowsOf.set(r.model, new Set());
    ax.rowsOf.get(r.model)!.add(r.item);
    if (r.item_hash) ax.hash.set(r.item, (ax.hash.get(r.item) ?? new Map()).set(r.model, r.item_hash));
  }
  return ax;
}

export interface Tally {
  model: string;
  own: boolean;
  rows: number;
  k: number;
  parsed: number;
}
export interface Counts {
  first: string;
  second: string;
  own: boolean;
  untested: boolean;
  /** Why UNTESTED, as §9 names the cases (run settings, item hashes, nothing shared). */
  why?: RegExp | undefined;
  n: number;
  a: number;
  b: number;
  c: number;
  d: number;
  p: number;
}

/** Each model with a row on `items`, its counts; ranked: public with a parsed response, by §4. */
export function tallies(ax: Axis, items: ReadonlySet<string>) {
  const all: Tally[] = [];
  for (const [model, rows] of ax.rowsOf) {
    const mine = [...rows].filter((i) => items.has(i));
    if (mine.length === 0) continue;
    const o = ax.outcome.get(model)!;
    const parsed = mine.filter((i) => o.get(i) !== 'unparsed').length;
    const k = mine.filter((i) => o.get(i) === 'right').length;
    all.push({ model, own: ax.own.has(model), rows: mine.length, k, parsed });
  }
  const ranked = all
    .filter((t) => !t.own && t.parsed > 0)
    .sort((x, y) => y.k * x.parsed - x.k * y.parsed || y.parsed - x.parsed || (x.model < y.model ? -1 : 1));
  return { all, ranked, rankOf: new Map(ranked.map((t, i) => [t.model, i + 1])) };
}

/** A pair counted on `items` (first and second as served): refused where the two hashes differ. */
export function countPair(ax: Axis, first: string, second: string, items: ReadonlySet<string>): Counts {
  const [x, y] = [ax.outcome.get(first)!, ax.outcome.get(second)!];
  let [a, b, c, d, conflicts] = [0, 0, 0, 0, 0];
  for (const item of items) {
    const [ox, oy] = [x.get(item), y.get(item)];
    if (ox === undefined || oy === undefined || ox === 'unparsed' || oy === 'unparsed') continue;
    const [hx, hy] = [ax.hash.get(item)?.get(first), ax.hash.get(item)?.get(second)];
    if (hx !== undefined && hy !== undefined && hx !== hy) conflicts++;
    if (ox === 'right' && oy === 'right') a++;
    else if (ox === 'right') b++;
    else if (oy === 'right') c++;
    else d++;
  }
  const n = a + b + c + d;
  const why = ax.unalike(first, second)
    ? /^not like for like: /
    : conflicts > 0
      ? /item content hashes differ/
      : n === 0
        ? /parsed by both/
        : undefined;
  const own = ax.own.has(first) || ax.own.has(second);
  return { first, second, own, untested: why !== undefined, why, n, a, b, c, d, p: mcnemarP(b, c) };
}

/** The maximal sets of public models (rank indexes) no two of which are separated, in rank order. */
export function maximalCliques(count: number, separated: (i: number, j: number) => boolean): number[][] {
  const out: number[][] = [];
  const grow = (clique: number[], candidates: number[], excluded: number[]) => {
    if (candidates.length === 0 && excluded.length === 0) out.push([...clique].sort((p, q) => p - q));
    for (const v of [...candidates]) {
      const tied = (u: number) => u !== v && !separated(u, v);
      grow([...clique, v], candidates.filter(tied), excluded.filter(tied));
      candidates = candidates.filter((u) => u !== v);
      excluded = [...excluded, v];
    }
  };
  grow(
    [],
    Array.from({ length: count }, (_, i) => i),
    [],
  );
  // Ordered by their members' ranks: the best, then the next (lexicographic).
  return out.sort((x, y) => {
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return x.length - y.length;
  });
}

/** a … z, aa, ab, … (spreadsheet columns). */
export const label = (i: number): string =>
  i < 26 ? String.fromCharCode(97 + i) : label(Math.floor(i / 26) - 1) + String.fromCharCode(97 + (i % 26));

/** Sorted ranks as inclusive ranges, disjoint and not touching. */
export function ranges(ranks: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const r of [...ranks].sort((x, y) => x - y)) {
    const last = out[out.length - 1];
    if (last && r === last[1] + 1) last[1] = r;
    else out.push([r, r]);
  }
  return out;
}

/** Per model on `items`: its counts, accuracy, interval and (clustered axes) standard errors. */
export function modelFigures(ax: Axis, t: Tally, items: ReadonlySet<string>) {
  const result = t.parsed > 0;
  const out: Record<string, unknown> = {
    model: t.model,
    own: t.own,
    base: !t.own, // no base_models declared: every non-own model (docs/formats.md)
    rows: t.rows,
    unparsed: t.rows - t.parsed,
    parsed: t.parsed,
    k: t.k,
    accuracy: result ? t.k / t.parsed : null,
    interval: result ? wilson(t.k, t.parsed) : null,
    settings: ax.settings.get(t.model) ?? null,
  };
  if (ax.clustered) {
    if (!result) Object.assign(out, { se: null, se_clustered: null, clusters: 0 });
    else {
      const mean = t.k / t.parsed;
      const sums = new Map<string, number>();
      const o = ax.outcome.get(t.model)!;
      for (const i of items) {
        const v = o.get(i);
        if (v === 'right' || v === 'wrong')
          sums.set(ax.cluster.get(i)!, (sums.get(ax.cluster.get(i)!) ?? 0) + (v === 'right' ? 1 : 0) - mean);
      }
      Object.assign(out, {
        se: Math.sqrt((mean * (1 - mean)) / t.parsed),
        se_clustered: Math.sqrt([...sums.values()].reduce((s, v) => s + v * v, 0)) / t.parsed,
        clusters: sums.size,
      });
    }
  }
  return out;
}

/** A tested pair's figures as `/api/models` gives them (state and p_holm set by the caller). */
export function pairFigures(p: Counts) {
  return {
    n_pairs: p.n,
    a: p.a,
    b: p.b,
    c: p.c,
    p: p.p,
    difference: (p.b - p.c) / p.n,
    difference_interval: newcombe(p.a, p.b, p.c, p.d),
    ...power(p.b, p.c, p.n),
  };
}

/** A value written with its keys sorted, at every depth: two settings are equal when these are. */
const written = (v: unknown): string =>
  JSON.stringify(v, (_, x) =>
    x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  );

/**
 * docs/methodology.md §12, read from the text: the harness, the shots and every generation and
 * template setting are compared; one recorded for both with different values: not like for like;
 * else one recorded for one side only, or a side with nothing recorded: unknown; else alike.
 */
function likeForLike(x: Settings | undefined, y: Settings | undefined) {
  const flat = (r: Settings | undefined) => {
    const out = new Map<string, string>();
    if (r === undefined) return out;
    if ('harness' in r) out.set('harness', written(r.harness));
    if ('shots' in r) out.set('shots', written(r.shots));
    for (const group of ['generation', 'template'])
      for (const [k, v] of Object.entries((r[group] as object | undefined) ?? {})) out.set(`${group}.${k}`, written(v));
    return out;
  };
  const [fx, fy] = [flat(x), flat(y)];
  const names = [...new Set([...fx.keys(), ...fy.keys()])].sort();
  const differ = names.filter((k) => fx.has(k) && fy.has(k) && fx.get(k) !== fy.get(k));
  const unknown = names.filter((k) => fx.has(k) !== fy.has(k));
  const like = differ.length > 0 ? false : x === undefined || y === undefined || unknown.length > 0 ? null : true;
  return { like, differ, unknown };
}

/** What a run-settings comparison adds to a pair (§12): alike, unknown, or not like for like. */
export function likeFields(ax: Axis, x: string, y: string) {
  const [sx, sy] = [ax.settings.get(x), ax.settings.get(y)];
  const l = likeForLike(sx, sy);
  return {
    like_for_like: l.like,
    settings_differ: l.like === false ? l.differ : undefined,
    settings_unknown: l.like === null && (sx !== undefined || sy !== undefined) ? l.unknown : undefined,
  };
}

/** The SEPARATED picture of public ranked models (§9): letters, ranges, leader's group. */
export function picture(ranked: readonly string[], separated: (x: string, y: string) => boolean, letters: boolean) {
  const sep = (i: number, j: number) => separated(ranked[i]!, ranked[j]!);
  const cliques = letters ? maximalCliques(ranked.length, sep) : null;
  const tieGroups = new Map<string, string[] | null>();
  const notSep = new Map<string, [number, number][] | null>();
  ranked.forEach((m, i) => {
    tieGroups.set(m, cliques === null ? null : cliques.flatMap((c, g) => (c.includes(i) ? [label(g)] : [])));
    notSep.set(
      m,
      letters
        ? ranges(
            ranked
              .map((_, j) => j)
              .filter((j) => j === i || !sep(i, j))
              .map((j) => j + 1),
          )
        : null,
    );
  });
  const leader = ranked[0];
  const leaderGroup = leader === undefined ? [] : ranked.filter((m) => m === leader || !separated(leader, m));
  return { groups: cliques === null ? null : cliques.length, tieGroups, notSep, leaderGroup };
}
