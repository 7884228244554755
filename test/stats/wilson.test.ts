import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { WILSON_Z_95, wilsonInterval } from '../../src/core/stats/index.js';
import { assertWilsonClose, statsVectors } from '../helpers/stats-vectors.js';

interface WilsonVector {
  test: 'wilson';
  k: number;
  n: number;
  z: number;
  lower: number;
  upper: number;
  z_statsmodels: number;
  lower_statsmodels: number;
  upper_statsmodels: number;
}

const vectors = statsVectors<WilsonVector>('wilson');

const assertClose = assertWilsonClose;

describe('wilsonInterval against stats-vectors.jsonl', () => {
  it('has all 35 Wilson lines (so the suite cannot pass on an empty file)', () => {
    assert.equal(vectors.length, 35);
  });

  it('uses the z the vectors fix', () => {
    for (const v of vectors) assert.equal(v.z, WILSON_Z_95);
  });

  for (const v of vectors) {
    it(`k=${v.k} n=${v.n}`, () => {
      const [lower, upper] = wilsonInterval(v.k, v.n);
      assertClose(lower, v.lower, 'lower');
      assertClose(upper, v.upper, 'upper');
      if (v.k === 0) assert.equal(lower, 0);
      if (v.k === v.n) assert.equal(upper, 1);
      assert.ok(0 <= lower && lower <= upper && upper <= 1);
    });
  }

  it("agrees with statsmodels' own output when given statsmodels' z", () => {
    // statsmodels leaves (0, 10^7) at −2.6e-23 and (10^7, 10^7) at 1.0000000000000002; the
    // tolerance absorbs that, and the clamped values stay inside [0, 1].
    for (const v of vectors) {
      const [lower, upper] = wilsonInterval(v.k, v.n, v.z_statsmodels);
      assertClose(lower, v.lower_statsmodels, `lower k=${v.k} n=${v.n}`);
      assertClose(upper, v.upper_statsmodels, `upper k=${v.k} n=${v.n}`);
    }
  });
});

describe('wilsonInterval on the COPA fixture (test/fixtures/README.md)', () => {
  it('12/20 → [0.38658150076225317, 0.781193467627183]', () => {
    const [lower, upper] = wilsonInterval(12, 20);
    assertClose(lower, 0.38658150076225317, 'lower');
    assertClose(upper, 0.781193467627183, 'upper');
  });

  it('16/20 → [0.5839825677481064, 0.919342337420202]', () => {
    const [lower, upper] = wilsonInterval(16, 20);
    assertClose(lower, 0.5839825677481064, 'lower');
    assertClose(upper, 0.919342337420202, 'upper');
  });
});

describe('wilsonInterval contract', () => {
  it('works at n = 1', () => {
    assert.deepEqual(
      wilsonInterval(0, 1).map((x) => x.toFixed(5)),
      ['0.00000', '0.79345'],
    );
  });

  it('throws RangeError outside 0 ≤ k ≤ n, n ≥ 1, integers, z finite ≥ 0', () => {
    for (const [k, n] of [
      [0, 0],
      [1, 0],
      [-1, 5],
      [6, 5],
      [1.5, 5],
      [1, 5.5],
      [Number.NaN, 5],
      [1, Infinity],
    ] as const) {
      assert.throws(() => wilsonInterval(k, n), RangeError, `k=${k} n=${n}`);
    }
    assert.throws(() => wilsonInterval(1, 5, -1), RangeError);
    assert.throws(() => wilsonInterval(1, 5, Number.NaN), RangeError);
  });
});

describe('wilsonInterval properties', () => {
  const kn = fc
    .integer({ min: 1, max: 10_000_000 })
    .chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)));

  it('contains k/n and lies within [0, 1], exactly 0 at k = 0 and 1 at k = n', () => {
    fc.assert(
      fc.property(kn, ([k, n]) => {
        const [lower, upper] = wilsonInterval(k, n);
        assert.ok(0 <= lower && lower <= k / n && k / n <= upper && upper <= 1, `[${lower}, ${upper}] for ${k}/${n}`);
        if (k === 0) assert.equal(lower, 0);
        if (k === n) assert.equal(upper, 1);
      }),
      { numRuns: 500 },
    );
  });

  it('moves up with k at fixed n', () => {
    fc.assert(
      fc.property(kn, ([k, n]) => {
        fc.pre(k < n);
        const [lower, upper] = wilsonInterval(k, n);
        const [nextLower, nextUpper] = wilsonInterval(k + 1, n);
        assert.ok(lower < nextLower && upper < nextUpper);
      }),
      { numRuns: 300 },
    );
  });
});
