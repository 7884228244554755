import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { confusionCounts, macroF1, type LabelledPair } from '../../src/core/stats/index.js';

const pair = (gold: string, label: string | null): LabelledPair => ({ gold, label });

describe('confusionCounts', () => {
  it('counts a hand-checked example, unparsed rows apart', () => {
    const pairs = [
      pair('yes', 'yes'), // tp
      pair('yes', 'yes'), // tp
      pair('yes', 'no'), // fn
      pair('no', 'yes'), // fp
      pair('no', 'no'), // tn
      pair('no', 'no'), // tn
      pair('yes', null), // unparsed, not a miss
      pair('no', null), // unparsed, not a correct rejection
    ];
    assert.deepEqual(confusionCounts(pairs, 'yes'), {
      tp: 2,
      fp: 1,
      tn: 2,
      fn: 1,
      unparsed: 2,
      precision: 2 / 3,
      recall: 2 / 3,
    });
  });

  it('gives precision null when nothing is predicted positive, and recall 0 (a value)', () => {
    const counts = confusionCounts([pair('yes', 'no'), pair('no', 'no'), pair('yes', null)], 'yes');
    assert.deepEqual(counts, { tp: 0, fp: 0, tn: 1, fn: 1, unparsed: 1, precision: null, recall: 0 });
  });

  it('gives recall null when no parsed item is actually positive, and precision 0', () => {
    const counts = confusionCounts([pair('no', 'yes'), pair('no', 'no'), pair('yes', null)], 'yes');
    assert.deepEqual(counts, { tp: 0, fp: 1, tn: 1, fn: 0, unparsed: 1, precision: 0, recall: null });
  });

  it('treats any other parsed label as a negative prediction', () => {
    const counts = confusionCounts([pair('yes', 'maybe'), pair('no', 'maybe')], 'yes');
    assert.deepEqual(counts, { tp: 0, fp: 0, tn: 1, fn: 1, unparsed: 0, precision: null, recall: 0 });
  });

  it('returns all zeros and nulls for no items, or only unparsed ones', () => {
    assert.deepEqual(confusionCounts([], 'yes'), {
      tp: 0,
      fp: 0,
      tn: 0,
      fn: 0,
      unparsed: 0,
      precision: null,
      recall: null,
    });
    assert.deepEqual(confusionCounts([pair('yes', null)], 'yes'), {
      tp: 0,
      fp: 0,
      tn: 0,
      fn: 0,
      unparsed: 1,
      precision: null,
      recall: null,
    });
  });

  it('accepts any iterable, read once', () => {
    function* rows(): Generator<LabelledPair> {
      yield pair('yes', 'yes');
      yield pair('no', 'yes');
    }
    assert.deepEqual(confusionCounts(rows(), 'yes'), {
      tp: 1,
      fp: 1,
      tn: 0,
      fn: 0,
      unparsed: 0,
      precision: 0.5,
      recall: 1,
    });
  });
});

describe('macroF1', () => {
  // Parsed: A→A twice, A→B, B→B twice, C→A; C→null is unparsed and skipped.
  //   A: tp 2, fp 1 (C→A), fn 1 (A→B)  F1 = 4/6 = 2/3
  //   B: tp 2, fp 1 (A→B), fn 0        F1 = 4/5
  //   C: tp 0, fp 0,       fn 1 (C→A)  F1 = 0 (it has support, so it counts)
  //   macro = (2/3 + 4/5 + 0)/3 = 22/45
  const pairs = [
    pair('A', 'A'),
    pair('A', 'B'),
    pair('B', 'B'),
    pair('B', 'B'),
    pair('C', 'A'),
    pair('C', null),
    pair('A', 'A'),
  ];

  it('averages per-label one-vs-rest F1 (hand-computed 22/45)', () => {
    const f1 = macroF1(pairs, ['A', 'B', 'C']);
    assert.ok(f1 !== null && Math.abs(f1 - 22 / 45) < 1e-15, String(f1));
  });

  it('leaves out a label with no support and no predictions', () => {
    const f1 = macroF1(pairs, ['A', 'B', 'C', 'D']);
    assert.ok(f1 !== null && Math.abs(f1 - 22 / 45) < 1e-15, String(f1));
  });

  it('counts duplicate labels once', () => {
    const f1 = macroF1(pairs, ['A', 'B', 'C', 'C', 'A']);
    assert.ok(f1 !== null && Math.abs(f1 - 22 / 45) < 1e-15, String(f1));
  });

  it('is 1 for a perfect classifier, ignoring unparsed rows', () => {
    assert.equal(macroF1([pair('A', 'A'), pair('B', 'B'), pair('B', null)], ['A', 'B']), 1);
  });

  it('is 0, not null, when labels are predicted or present but never both together', () => {
    // A: fn 1 → F1 0; D: fp 1 → F1 0.
    assert.equal(macroF1([pair('A', 'D')], ['A', 'D']), 0);
  });

  it('treats a prediction outside the label set as a miss for its gold label', () => {
    // A: tp 1, fn 1 (A→Z) → F1 = 2/3; Z is not a listed label.
    const f1 = macroF1([pair('A', 'A'), pair('A', 'Z')], ['A']);
    assert.ok(f1 !== null && Math.abs(f1 - 2 / 3) < 1e-15, String(f1));
  });

  it('is null when no label qualifies', () => {
    assert.equal(macroF1(pairs, []), null);
    assert.equal(macroF1(pairs, ['X']), null);
    assert.equal(macroF1([pair('A', null)], ['A']), null);
    assert.equal(macroF1([], ['A', 'B']), null);
  });
});
