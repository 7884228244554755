/**
 * The statistics of the every-model document (issue 29), each against its source: Holm's
 * adjustment against a hand-worked example (and R's p.adjust); Newcombe's method 10 against
 * Altman et al. (2000), Table 6.2; the compact letter display's defining property (two models
 * share a letter exactly when not separated) on random separation patterns, and the same letters as
 * Piepho's insert-and-absorb itself; labels past z as lists; the power formulas and where they
 * hold (issue 39).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { holmAdjust } from '../../src/core/stats/holm.js';
import { compactLetters, groupsText, letterName } from '../../src/core/stats/letters.js';
import { adjustedPhi, pairedDifference } from '../../src/core/stats/paired-difference.js';
import { MIN_DISCORDANT_FOR_POWER, pairedPower, Z_POWER_80 } from '../../src/core/stats/power.js';

/**
 * Piepho's insert-and-absorb as the paper states it (the algorithm letters.ts replaced, issue 39):
 * one column of every model; for each separated pair, split each column holding both; drop a
 * column contained in another. Columns ordered by their members' ranks; each model's labels.
 */
function insertAndAbsorb(count: number, separated: (i: number, j: number) => boolean): string[][] {
  let columns: number[][] = [[...Array(count).keys()]];
  for (let i = 0; i < count; i++)
    for (let j = i + 1; j < count; j++) {
      if (!separated(i, j)) continue;
      const next = columns.flatMap((col) =>
        col.includes(i) && col.includes(j) ? [col.filter((x) => x !== j), col.filter((x) => x !== i)] : [col],
      );
      columns = next.filter(
        (c, k) => !next.some((o, l) => l !== k && c.every((m) => o.includes(m)) && (o.length > c.length || l < k)),
      );
    }
  columns.sort((x, y) => {
    for (let k = 0; k < Math.min(x.length, y.length); k++) if (x[k] !== y[k]) return x[k]! - y[k]!;
    return x.length - y.length;
  });
  const out = Array.from({ length: count }, () => [] as string[]);
  columns.forEach((col, k) => {
    for (const m of col) out[m]!.push(letterName(k));
  });
  return out;
}

const close = (a: number, b: number, tol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} is not within ${tol} of ${b}`);

describe('Holm–Bonferroni', () => {
  it('a hand-worked example: p = 0.01, 0.04, 0.03, 0.005 (m = 4)', () => {
    // Sorted: 0.005, 0.01, 0.03, 0.04 → 4·0.005 = 0.02; 3·0.01 = 0.03; 2·0.03 = 0.06; max(0.06, 1·0.04) = 0.06.
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((e, i) => close(adjusted[i]!, e, 1e-15, `p${i}`));
  });
  it('caps at 1, keeps the order monotone, and is the identity for one test', () => {
    assert.deepEqual(holmAdjust([0.5, 0.6]), [1, 1]);
    assert.deepEqual(holmAdjust([0.2]), [0.2]);
    assert.deepEqual(holmAdjust([]), []);
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }), (p) => {
        const h = holmAdjust(p);
        p.forEach((v, i) => assert.ok(h[i]! >= v && h[i]! <= 1));
        const order = p.map((v, i) => [v, i] as const).sort((x, y) => x[0] - y[0]);
        for (let k = 1; k < order.length; k++) assert.ok(h[order[k]![1]]! >= h[order[k - 1]![1]]!);
      }),
    );
  });
});

describe('Newcombe (1998) method 10', () => {
  it('Altman et al. (2000), Table 6.2: [[14, 5], [0, 22]] gives 0.122, 95% interval 0.011 to 0.226', () => {
    const r = pairedDifference({ both: 14, firstOnly: 5, secondOnly: 0, neither: 22 });
    close(r.difference, 0.122, 0.0005, 'difference');
    close(r.interval[0], 0.011, 0.0005, 'lower');
    close(r.interval[1], 0.226, 0.0005, 'upper');
  });
  it('adjusted φ: reduced by n/2 when AD − BC > n/2, 0 up to n/2, unchanged when negative; 0 with an empty margin', () => {
    close(
      adjustedPhi({ both: 14, firstOnly: 5, secondOnly: 0, neither: 22 }),
      (308 - 20.5) / Math.sqrt(19 * 22 * 14 * 27),
      1e-15,
      'φ',
    );
    assert.equal(adjustedPhi({ both: 1, firstOnly: 0, secondOnly: 0, neither: 1 }), 0);
    close(
      adjustedPhi({ both: 0, firstOnly: 3, secondOnly: 2, neither: 0 }),
      -6 / Math.sqrt(3 * 2 * 2 * 3),
      1e-15,
      'negative',
    );
    assert.equal(adjustedPhi({ both: 5, firstOnly: 0, secondOnly: 0, neither: 0 }), 0);
  });
  it('the interval holds the difference and stays within [−1, 1]', () => {
    fc.assert(
      fc.property(fc.nat(50), fc.nat(50), fc.nat(50), fc.nat(50), (a, b, c, d) => {
        fc.pre(a + b + c + d > 0);
        const r = pairedDifference({ both: a, firstOnly: b, secondOnly: c, neither: d });
        assert.ok(r.interval[0] <= r.difference + 1e-12 && r.difference <= r.interval[1] + 1e-12);
        assert.ok(r.interval[0] >= -1 - 1e-12 && r.interval[1] <= 1 + 1e-12);
      }),
    );
  });
});

describe('compact letter display (Piepho 2004)', () => {
  it('two models share a letter exactly when they are not separated (random patterns)', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 9 })
          .chain((n) =>
            fc.tuple(
              fc.constant(n),
              fc.array(fc.boolean(), { minLength: (n * (n - 1)) / 2, maxLength: (n * (n - 1)) / 2 }),
            ),
          ),
        ([n, bits]) => {
          const sep = (i: number, j: number) => {
            const [x, y] = i < j ? [i, j] : [j, i];
            return bits[(x * (2 * n - x - 1)) / 2 + (y - x - 1)]!;
          };
          const letters = compactLetters(n, sep)!;
          for (let i = 0; i < n; i++) {
            assert.ok(letters[i]!.length > 0, 'every model has a letter');
            for (let j = i + 1; j < n; j++) {
              const share = letters[i]!.some((l) => letters[j]!.includes(l));
              assert.equal(share, !sep(i, j), `${i}, ${j}: ${letters.join(' ')}`);
            }
          }
          assert.deepEqual(letters, insertAndAbsorb(n, sep), "the same letters as Piepho's insert-and-absorb");
        },
      ),
      { numRuns: 500, seed: 29 },
    );
  });
  it('the best model holds a; nothing separated is one letter; all separated is one letter each', () => {
    assert.deepEqual(
      compactLetters(3, () => false),
      [['a'], ['a'], ['a']],
    );
    assert.deepEqual(
      compactLetters(3, () => true),
      [['a'], ['b'], ['c']],
    );
    // 0 vs 2 separated only: {0,1} and {1,2}.
    assert.deepEqual(
      compactLetters(3, (i, j) => i === 0 && j === 2),
      [['a'], ['a', 'b'], ['b']],
    );
  });
  it('past 26 groups: labels aa, ab, … kept apart, one list per model (issue 39: "auavawaxay")', () => {
    // 60 models in rank order, each tied to its two neighbours on either side: 58 groups of three.
    const letters = compactLetters(60, (i, j) => Math.abs(i - j) > 2)!;
    assert.deepEqual(letters[0], ['a']);
    assert.deepEqual(letters[30], ['ac', 'ad', 'ae']);
    assert.deepEqual(letters[59], ['bf']);
    assert.equal(new Set(letters.flat()).size, 58);
    assert.equal(groupsText(letters[30]!, 58), 'ac ad ae', 'read apart past 26 groups');
    assert.equal(groupsText(['a', 'b'], 3), 'ab', 'run together up to 26');
    assert.deepEqual(
      insertAndAbsorb(60, (i, j) => Math.abs(i - j) > 2),
      letters,
    );
  });
  it('gives no letters (null) past maxGroups, without enumerating them all', () => {
    // 30 models in triples, separated only within a triple: 3^10 = 59,049 maximal groups.
    const triples = (i: number, j: number) => Math.floor(i / 3) === Math.floor(j / 3);
    const t0 = performance.now();
    assert.equal(compactLetters(30, triples, 702), null);
    assert.ok(performance.now() - t0 < 5_000, 'stops early');
    // 9 models: 27 groups, under a cap of 702, over one of 20.
    assert.equal(new Set(compactLetters(9, triples, 702)!.flat()).size, 27);
    assert.equal(compactLetters(9, triples, 20), null);
  });
  it('is fast at 1,000 models (insert-and-absorb took seconds at 200)', () => {
    const t0 = performance.now();
    const letters = compactLetters(1000, (i, j) => Math.abs(i - j) > 100)!;
    assert.equal(new Set(letters.flat()).size, 900);
    assert.ok(performance.now() - t0 < 10_000, 'under 10 s even on a loaded machine');
  });
});

describe('what a TIE could have seen', () => {
  it('MDD = (z₀.₉₇₅ + z₀.₈₀)·√(p_disc/n); n* = (z₀.₉₇₅ + z₀.₈₀)²·p_disc/d²; null when d = 0', () => {
    const zz = 1.959963984540054 + Z_POWER_80;
    const r = pairedPower(24, 8, 200);
    close(r.mdd!, zz * Math.sqrt(0.16 / 200), 1e-15, 'mdd');
    assert.equal(r.n_needed, Math.ceil((zz * zz * 0.16) / 0.08 ** 2), 'n: whole items, rounded up');
    assert.equal(pairedPower(13, 13, 200).n_needed, null);
    assert.match(pairedPower(13, 13, 200).n_needed_reason!, /no observed difference/);
    close(Z_POWER_80, 0.8416212335729143, 0, 'z 0.80');
  });
  it('only where the normal approximation holds: b + c ≥ 20, never 0 or above 100 points (issue 39)', () => {
    assert.equal(MIN_DISCORDANT_FOR_POWER, 20);
    // The imported popularity pair: 1 item shared, 1 discordant. The formula gave 2.80 (280 points).
    const one = pairedPower(1, 0, 1);
    assert.deepEqual([one.mdd, one.n_needed], [null, null]);
    assert.match(one.mdd_reason!, /^only 1 discordant item \(b \+ c < 20\)/);
    // No discordant item: the formula gave 0 ("a gap smaller than 0 points").
    assert.equal(pairedPower(0, 0, 500).mdd, null);
    assert.match(pairedPower(0, 0, 500).mdd_reason!, /only 0 discordant items/);
    assert.equal(pairedPower(10, 9, 19).mdd, null);
    // Where it is given, it is above 0 and at most p_disc, so at most 1.
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 400 }),
        (b, c, rest) => {
          const r = pairedPower(b, c, b + c + rest);
          if (b + c < 20) return assert.equal(r.mdd, null);
          assert.ok(r.mdd! > 0 && r.mdd! <= (b + c) / (b + c + rest) && r.mdd! <= 1, `b ${b} c ${c} rest ${rest}`);
          if (r.n_needed !== null) assert.ok(r.n_needed * ((b + c) / (b + c + rest)) >= 20);
          else assert.ok(r.n_needed_reason);
        },
      ),
      { numRuns: 500, seed: 39 },
    );
    // 30 against 5 of 100: n* = 7.85·0.35/0.0625 = 44 items, holding 15.4 discordant ones: not given.
    const lopsided = pairedPower(30, 5, 100);
    assert.ok(lopsided.mdd !== null);
    assert.equal(lopsided.n_needed, null);
    assert.match(lopsided.n_needed_reason!, /fewer than 20 discordant items/);
  });
});
