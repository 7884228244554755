import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canReject, smallestAttainableP } from '../../src/core/stats/attainable.js';
import { mcnemarExact } from '../../src/core/stats/index.js';

test('the smallest attainable p is the exact test at its most lopsided split', () => {
  for (let k = 0; k <= 30; k++) {
    // Every split of k discordant items gives p at least the all-on-one-side p.
    let least = 1;
    for (let b = 0; b <= k; b++) least = Math.min(least, mcnemarExact(b, k - b).p);
    assert.ok(Math.abs(smallestAttainableP(k) - least) < 1e-12, `k = ${k}: ${smallestAttainableP(k)} vs ${least}`);
  }
});

test('at α = 0.05 a test needs six discordant items to be able to reject', () => {
  assert.equal(canReject(5, 0.05), false);
  assert.equal(canReject(6, 0.05), true);
  assert.equal(canReject(0, 0.05), false);
});
