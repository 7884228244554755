import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  SEPARATION_ALPHA,
  mcnemarExact,
  mcnemarExactDecision,
  type McNemarResult,
} from '../../src/core/stats/index.js';
import { statsVectors } from '../helpers/stats-vectors.js';

interface McNemarVector {
  test: 'mcnemar_exact';
  b: number;
  c: number;
  p: number;
  p_mid: number;
  log10_p: number;
  decision: 'SEPARATED' | 'TIE';
  method: string;
}

const vectors = statsVectors<McNemarVector>('mcnemar_exact');

function relativeError(actual: number, expected: number): number {
  return expected === 0 ? Math.abs(actual) : Math.abs(actual - expected) / Math.abs(expected);
}

/**
 * The tolerance the vector README asks for: 1e-12 relative while the reference is above 1e-300;
 * below, the double may have underflowed, so require it to be tiny and check log10 instead.
 */
function assertProbability(
  actual: number,
  expected: number,
  expectedLog10: number,
  actualLog10: number,
  what: string,
): void {
  if (expected > 1e-300) {
    assert.ok(relativeError(actual, expected) <= 1e-12, `${what}: got ${actual}, want ${expected}`);
  } else {
    assert.ok(actual <= 1e-300, `${what}: got ${actual}, want ≤ 1e-300`);
    assert.ok(
      relativeError(actualLog10, expectedLog10) <= 1e-9,
      `${what} log10: got ${actualLog10}, want ${expectedLog10}`,
    );
  }
}

function swapped(r: McNemarResult): McNemarResult {
  return { ...r, b: r.c, c: r.b };
}

describe('mcnemarExact against stats-vectors.jsonl', () => {
  it('has all 73 McNemar lines (so the suite cannot pass on an empty file)', () => {
    assert.equal(vectors.length, 73);
  });

  for (const v of vectors) {
    it(`b=${v.b} c=${v.c}`, () => {
      const r = mcnemarExact(v.b, v.c);
      assert.equal(r.decision, v.decision);
      assert.equal(r.b, v.b);
      assert.equal(r.c, v.c);
      assert.equal(r.discordant, v.b + v.c);
      assertProbability(r.p, v.p, v.log10_p, r.log10P, 'p');
      // p_mid has no log10 column; where it is tiny, p is too, and p's log10 was checked.
      if (v.p_mid > 1e-300) assertProbability(r.pMid, v.p_mid, 0, 0, 'pMid');
      else assert.ok(r.pMid <= 1e-300 && r.pMid <= r.p, `pMid: got ${r.pMid}`);
      // log10P is checked everywhere, not only where p underflows; 0 exactly when p = 1.
      if (v.log10_p === 0) assert.equal(r.log10P, 0);
      else assert.ok(relativeError(r.log10P, v.log10_p) <= 1e-12, `log10P: got ${r.log10P}, want ${v.log10_p}`);
      assert.ok(Number.isFinite(r.log10P));
      assert.deepEqual(mcnemarExact(v.c, v.b), swapped(r));
    });
  }

  it('gives the exact decision by the integer route too, for every line up to b + c = 200,000', () => {
    for (const v of vectors.filter((x) => x.b + x.c <= 200_000)) {
      assert.equal(mcnemarExactDecision(v.b, v.c), v.decision, `b=${v.b} c=${v.c}`);
    }
  });
});

describe('mcnemarExact on the COPA fixture (test/fixtures/README.md)', () => {
  it('b=2, c=6 → p = 2·(1+8+28)/256 = 0.2890625 exactly, mid-p 0.1796875, TIE', () => {
    const r = mcnemarExact(2, 6);
    assert.equal(r.p, 0.2890625);
    assert.equal(r.pMid, 0.1796875);
    assert.ok(relativeError(r.log10P, -0.5390082455808733) <= 1e-15);
    assert.equal(r.decision, 'TIE');
    assert.equal(r.discordant, 8);
  });
});

describe('mcnemarExact contract', () => {
  it('b + c = 0 is a TIE with p = 1', () => {
    assert.deepEqual(mcnemarExact(0, 0), { b: 0, c: 0, discordant: 0, p: 1, pMid: 1, log10P: 0, decision: 'TIE' });
  });

  it('matches the minimum-evidence table of research/evals.md §2.1', () => {
    const table: Array<[tie: [number, number], separated: [number, number]]> = [
      [
        [1, 5],
        [0, 6],
      ],
      [
        [2, 8],
        [1, 9],
      ],
      [
        [6, 14],
        [5, 15],
      ],
      [
        [10, 20],
        [9, 21],
      ],
      [
        [18, 32],
        [17, 33],
      ],
      [
        [40, 60],
        [39, 61],
      ],
      [
        [469, 531],
        [468, 532],
      ],
    ];
    for (const [tie, separated] of table) {
      assert.equal(mcnemarExact(...tie).decision, 'TIE', `${tie}`);
      assert.equal(mcnemarExact(...separated).decision, 'SEPARATED', `${separated}`);
    }
  });

  it('throws RangeError for negative, non-integer or non-finite counts', () => {
    for (const [b, c] of [
      [-1, 3],
      [3, -1],
      [1.5, 2],
      [2, 0.1],
      [Number.NaN, 1],
      [1, Infinity],
    ] as const) {
      assert.throws(() => mcnemarExact(b, c), RangeError, `b=${b} c=${c}`);
      assert.throws(() => mcnemarExactDecision(b, c), RangeError, `b=${b} c=${c}`);
    }
    assert.throws(() => mcnemarExact(Number.MAX_SAFE_INTEGER, 1), RangeError);
  });

  // These pairs were found by scanning every b + c from 1000 to 2,000,000 for a floating p within
  // 1e-9 of 0.05; none lies below b + c = 858,491. The exact values are from mpmath at 60 digits.
  it('decides exactly when p is within 1e-9 of 0.05, on both sides', () => {
    const cases = [
      { b: 759165, c: 761583, exactP: 0.04999999998879150963, decision: 'SEPARATED' },
      { b: 899665, c: 902297, exactP: 0.05000000000382384392, decision: 'TIE' },
    ] as const;
    for (const { b, c, exactP, decision } of cases) {
      const r = mcnemarExact(b, c);
      assert.ok(Math.abs(r.p - SEPARATION_ALPHA) < 1e-9, 'the exact recheck must be exercised');
      assert.ok(relativeError(r.p, exactP) <= 1e-12, `p: got ${r.p}, want ${exactP}`);
      assert.equal(r.decision, decision);
    }
  });
});

/** p and mid-p from exact integer sums, rounded once; the reference for the floating path. */
function exactReference(b: number, c: number): { p: number; pMid: number } {
  const n = b + c;
  const k = Math.min(b, c);
  let term = 1n;
  let tail = 1n;
  for (let i = 0; i < k; i++) {
    term = (term * BigInt(n - i)) / BigInt(i + 1);
    tail += term;
  }
  // x/2^n: keep the top 64 bits of x as a double, then scale by 2^(shift − n) in two steps so
  // no intermediate power of two leaves the double range. Error ≤ 2^-53 + 2^-63 relative.
  const scale = (x: bigint): number => {
    const shift = Math.max(0, x.toString(2).length - 64);
    const e = shift - n;
    return Number(x >> BigInt(shift)) * 2 ** Math.ceil(e / 2) * 2 ** Math.floor(e / 2);
  };
  return { p: Math.min(1, scale(2n * tail)), pMid: Math.min(1, scale(2n * tail - term)) };
}

describe('mcnemarExact properties', () => {
  it('p = 1 whenever |b − c| ≤ 1', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.integer({ min: 0, max: 1 }),
        fc.boolean(),
        (m, d, flip) => {
          const [b, c] = flip ? [m + d, m] : [m, m + d];
          const r = mcnemarExact(b, c);
          assert.equal(r.p, 1);
          assert.equal(r.log10P, 0);
          assert.equal(r.decision, 'TIE');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('swapping b and c changes nothing', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 100_000 }), (b, c) => {
        assert.deepEqual(mcnemarExact(c, b), swapped(mcnemarExact(b, c)));
      }),
      { numRuns: 200 },
    );
  });

  it('p and mid-p do not increase as the split gets more lopsided at fixed n', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), (n) => {
        let previous = mcnemarExact(Math.floor(n / 2), n - Math.floor(n / 2));
        for (let b = Math.floor(n / 2) - 1; b >= 0; b--) {
          const r = mcnemarExact(b, n - b);
          const where = `n=${n}: (${b}, ${n - b}) after (${previous.b}, ${previous.c})`;
          assert.ok(r.p <= previous.p && r.pMid <= previous.pMid, where);
          assert.ok(r.log10P <= previous.log10P);
          previous = r;
        }
      }),
      { numRuns: 40 },
    );
  });

  it('fewer than 6 discordant items never separate; 6 can', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), (b, c) => {
        fc.pre(b + c <= 5);
        assert.equal(mcnemarExact(b, c).decision, 'TIE');
      }),
      { numRuns: 200 },
    );
    // All 21 splits, exhaustively, so the claim does not rest on sampling.
    for (let n = 0; n <= 5; n++) for (let b = 0; b <= n; b++) assert.equal(mcnemarExact(b, n - b).decision, 'TIE');
    assert.equal(mcnemarExact(0, 6).decision, 'SEPARATED');
  });

  it('the floating path (b + c > 1000) agrees with exact integer sums', () => {
    // Splits within 25·√n of even, where p ranges from 1 down past 1e-300, plus any split.
    const split = fc
      .integer({ min: 1001, max: 6000 })
      .chain((n) =>
        fc.tuple(
          fc.constant(n),
          fc.oneof(
            fc.integer({ min: Math.max(0, Math.floor(n / 2 - 25 * Math.sqrt(n))), max: Math.floor(n / 2) }),
            fc.integer({ min: 0, max: n }),
          ),
        ),
      );
    fc.assert(
      fc.property(split, ([n, b]) => {
        const r = mcnemarExact(b, n - b);
        const ref = exactReference(b, n - b);
        const where = `(${b}, ${n - b})`;
        if (ref.p > 1e-300) assert.ok(relativeError(r.p, ref.p) <= 1e-12, `p ${where}: ${r.p} vs ${ref.p}`);
        else assert.ok(r.p <= 1e-300, `p ${where}`);
        if (ref.pMid > 1e-300) assert.ok(relativeError(r.pMid, ref.pMid) <= 1e-12, `pMid ${where}`);
        else assert.ok(r.pMid <= 1e-300, `pMid ${where}`);
        assert.equal(r.decision, ref.p < SEPARATION_ALPHA ? 'SEPARATED' : 'TIE');
      }),
      { numRuns: 150 },
    );
  });

  it('the integer route gives the same decision as mcnemarExact, near the boundary', () => {
    // b + c = n split around where p crosses 0.05 (|b − c| ≈ 1.96·√n), so both outcomes occur.
    const nearBoundary = fc
      .integer({ min: 6, max: 20_000 })
      .chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: -3, max: 3 })))
      .map(([n, offset]) => {
        const b = Math.min(Math.max(Math.round(n / 2 - 0.98 * Math.sqrt(n)) + offset, 0), n);
        return [b, n - b] as const;
      });
    const seen = new Set<string>();
    fc.assert(
      fc.property(nearBoundary, ([b, c]) => {
        const decision = mcnemarExactDecision(b, c);
        assert.equal(decision, mcnemarExact(b, c).decision, `b=${b} c=${c}`);
        seen.add(decision);
      }),
      { numRuns: 80 },
    );
    assert.equal(seen.size, 2);
  });
});
