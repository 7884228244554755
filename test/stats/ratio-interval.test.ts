/**
 * The ratio estimator behind /api/usage (src/core/stats/ratio-interval.ts; docs/methodology.md
 * §10), on values worked out by hand: the mean and the ratio to correct rows with their
 * linearised intervals, the clustered form, the lower bound held at 0, and no interval or no
 * ratio where there is nothing to read.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ratioEstimate } from '../../src/core/stats/ratio-interval.js';

const Z = 1.959963984540054;

describe('ratioEstimate', () => {
  it('the mean of 100, 300, 200, 400: 250 ± z·√50000/4', () => {
    const r = ratioEstimate([100, 300, 200, 400], [1, 1, 1, 1], 4)!;
    assert.equal(r.value, 250);
    assert.equal(r.units, 4);
    assert.ok(Math.abs(r.se! - Math.sqrt(50000) / 4) < 1e-12);
    assert.deepEqual(r.interval, [250 - Z * r.se!, 250 + Z * r.se!]);
  });

  it('per correct answer: 1000 / 2 = 500, its lower bound held at 0', () => {
    const r = ratioEstimate([100, 300, 200, 400], [1, 0, 1, 0], 4)!;
    assert.equal(r.value, 500);
    assert.ok(Math.abs(r.se! - Math.sqrt(500000) / 2) < 1e-9);
    assert.equal(r.interval![0], 0);
    assert.ok(Math.abs(r.interval![1] - (500 + Z * (Math.sqrt(500000) / 2))) < 1e-9);
  });

  it('clustered: residuals summed per cluster before squaring', () => {
    // Clusters {100, 300} and {200, 400}: residuals −150 + 50 = −100 and −50 + 150 = 100.
    const r = ratioEstimate([100, 300, 200, 400], [1, 1, 1, 1], 4, (i) => (i < 2 ? 'p1' : 'p2'))!;
    assert.equal(r.units, 2);
    assert.ok(Math.abs(r.se! - Math.sqrt(20000) / 4) < 1e-12);
  });

  it('no interval below two units; no ratio when Σy = 0; only the first n values are read', () => {
    assert.deepEqual(ratioEstimate([7], [1], 1), { value: 7, se: null, interval: null, units: 1 });
    assert.deepEqual(
      ratioEstimate([1, 2], [1, 1], 2, () => 'one passage'),
      { value: 1.5, se: null, interval: null, units: 1 },
    );
    assert.equal(ratioEstimate([5, 6], [0, 0], 2), null);
    assert.equal(ratioEstimate(new Float64Array(0), new Float64Array(0), 0), null);
    assert.equal(ratioEstimate([2, 4, 999], [1, 1, 1], 2)!.value, 3);
  });
});
