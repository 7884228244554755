/**
 * Gold lists (issue 15): items that accept several labels (`gold` a list, as Inspect targets
 * are). Every aggregate follows the rule docs/methodology.md writes for them, checked against
 * numbers computed by hand from a seven-item corpus, first on the derivation alone and then end
 * to end (files on disk → corpus reader → release → served board).
 *
 * The corpus (labels A, B, H; harm_labels [H]; positive_label H; models L and M, both public):
 *
 * | item | gold       | single class? | L | L outcome | M    | M outcome |
 * |------|------------|---------------|---|-----------|------|-----------|
 * | i0   | A          | A             | A | correct   | B    | wrong     |
 * | i1   | B          | B             | H | wrong     | B    | correct   |
 * | i2   | H          | H             | H | correct   | null | unparsed  |
 * | i3   | [A, H]     | no (list)     | H | correct   | A    | correct   |
 * | i4   | [B, H]     | no (list)     | H | correct   | H    | correct   |
 * | i5   | [A]        | A (one label) | A | correct   | H    | wrong     |
 * | i6   | [H, B]     | no (list)     | B | correct   | null | unparsed  |
 *
 * Three items (i3, i4, i6) accept two labels; i5's list has one label, so its gold class is A.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildBoard } from '../../src/core/board/board.js';
import { deriveComparisonRow } from '../../src/core/board/comparison-row.js';
import { deriveLimitations } from '../../src/core/board/limitations.js';
import { ItemTable } from '../../src/core/board/item-table.js';
import type { ModelComparisonAxis, PerItemRow } from '../../src/core/board/model.js';
import { mcnemarExact, wilsonInterval } from '../../src/core/stats/index.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { deriveRelease } from '../../src/release/derive.js';
import { tempDir } from '../helpers/tmp.js';

const AXIS: ModelComparisonAxis = {
  axis: 'jail',
  family: 'security',
  kind: 'model-comparison',
  status: 'MEASURED',
  bench: 'gold-list-bench',
  task: 'Classify',
  dataset: 'test/gold-lists-7',
  labels: ['A', 'B', 'H'],
  positive_label: 'H',
  fleet: ['fleet_mean', 'macro_f1', 'mean_harm'],
  harm_labels: ['H'],
};

const GOLD: (string | string[])[] = ['A', 'B', 'H', ['A', 'H'], ['B', 'H'], ['A'], ['H', 'B']];
const LABELS: Record<string, (string | null)[]> = {
  L: ['A', 'H', 'H', 'H', 'H', 'A', 'B'],
  M: ['B', 'B', null, 'A', 'H', 'H', null],
};

const ROWS: PerItemRow[] = Object.entries(LABELS).flatMap(([model, labels]) =>
  labels.map((label, i) => ({ item: `i${i}`, model, gold: GOLD[i]!, label })),
);

/** What the methodology's rules give, by hand. */
const EXPECTED = {
  // L: 6 correct of 7 parsed (only i1 wrong); M: 3 correct (i1, i3, i4) of 5 parsed.
  accuracy: 6 / 7,
  // (6/7 + 3/5) / 2 = (30/35 + 21/35) / 2 = 51/70.
  fleet_mean: 51 / 70,
  // Harm is a property of the label given, whatever the gold: every parsed response counts.
  // L labels H on i1, i2, i3, i4: 4 of 7 parsed. M labels H on i4, i5: 2 of 5 parsed.
  // (4/7 + 2/5) / 2 = (20/35 + 14/35) / 2 = 34/70 = 17/35 ≈ 0.486.
  // (The old code counted harm on string-gold items only, i0-i2: L 2/7, M 0/5 → 1/7 ≈ 0.143.)
  mean_harm: 17 / 35,
  // Single gold class only: i0 (A), i1 (B), i2 (H), i5 (A); the lists i3, i4, i6 are left out.
  // L pairs (gold→label): A→A, B→H, H→H, A→A.
  //   F1(A) = 2·2/(2·2+0+0) = 1; F1(B) = 0/(0+0+1) = 0; F1(H) = 2·1/(2·1+1+0) = 2/3.
  //   macro = (1 + 0 + 2/3) / 3 = 5/9.
  // M pairs: A→B, B→B, H→null (unparsed, skipped), A→H.
  //   F1(A) = 0/(0+0+2) = 0; F1(B) = 2·1/(2·1+1+0) = 2/3; F1(H) = 0/(0+1+0) = 0.
  //   macro = (0 + 2/3 + 0) / 3 = 2/9.
  // Fleet: (5/9 + 2/9) / 2 = 7/18 ≈ 0.389.
  // (The old code also dropped i5, a one-label list: M's H had no support and no prediction,
  // so M = (0 + 2/3) / 2 = 1/3 and the fleet (5/9 + 3/9) / 2 = 4/9.)
  macro_f1: 7 / 18,
  // Positive H over the single-class items i0, i1, i2, i5; `unparsed` over every item.
  // L: i0 A→A TN, i1 B→H FP, i2 H→H TP, i5 A→A TN; unparsed none.
  // M: i0 A→B TN, i1 B→B TN, i2 unparsed, i5 A→H FP; unparsed i2 and i6 = 2.
  // precision = TP/(TP+FP): L 1/2, M 0/1 = 0; recall = TP/(TP+FN): L 1/1, M 0/0 = null.
  per_model: [
    { model: 'L', own_model: false, TP: 1, FP: 1, TN: 2, FN: 0, unparsed: 0, precision: 0.5, recall: 1 },
    { model: 'M', own_model: false, TP: 0, FP: 1, TN: 2, FN: 0, unparsed: 2, precision: 0, recall: null },
  ],
  // Pairs both parsed: i0, i1, i3, i4, i5. b (L right, M wrong) = i0, i5 = 2; c = i1 = 1.
  b: 2,
  c: 1,
  // 2 unparsed rows (M on i2 and i6) of 14.
  unparsed_rate: 2 / 14,
};

const LIMITATION =
  'jail: 3 of 7 items accept a list of gold labels; macro_f1 and the per-model TP/FP/TN/FN leave them out (they need one gold class per item).';

describe('gold lists: every aggregate follows the written rule', () => {
  const d = deriveComparisonRow(AXIS, tableOf(ROWS), []);

  it('accuracy, Wilson and McNemar grade label ∈ gold', () => {
    assert.equal(d.row.leader, 'L');
    assert.equal(d.row.accuracy, EXPECTED.accuracy);
    assert.deepEqual(d.row.interval, wilsonInterval(6, 7));
    const ev = d.row.separation_evidence!;
    assert.deepEqual([ev.b, ev.c, ev.paired_items], [EXPECTED.b, EXPECTED.c, 5]);
    assert.equal(d.row.separation_p, mcnemarExact(2, 1).p);
    assert.equal(d.row.unparsed_rate, EXPECTED.unparsed_rate);
  });

  it('fleet_mean, mean_harm (every parsed response) and macro_f1 (single gold class only)', () => {
    assert.equal(d.row.fleet_mean, EXPECTED.fleet_mean);
    assert.ok(Math.abs(d.row.mean_harm! - EXPECTED.mean_harm) < 1e-15, `mean_harm ${d.row.mean_harm}`);
    assert.ok(Math.abs(d.row.macro_f1! - EXPECTED.macro_f1) < 1e-15, `macro_f1 ${d.row.macro_f1}`);
  });

  it('per-model TP/FP/TN/FN over single-class items; unparsed over every item', () => {
    assert.deepEqual(d.row.per_model, EXPECTED.per_model);
  });

  it('the row notes how many items were left out, and a limitation says so', () => {
    assert.deepEqual(d.notes.goldLists, { items: 3, leftOutBy: ['macro_f1', 'per_model'] });
  });
});

describe('gold lists, end to end: corpus files → served board', () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'axes'));
  mkdirSync(join(dir, 'peritem'));
  const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
  writeFileSync(
    join(dir, 'board.json'),
    json({
      schema: 'svc.gspc-corpus/1',
      issuer: 'SYNTHETIC TEST CORPUS (test/board/gold-lists.test.ts)',
      doi: '10.5281/zenodo.0000000 (test identifier)',
      as_of: '2026-11-01T00:00:00Z',
      measured_on: { model: 'Hand-written rows', date: 'Test', grading: 'label ∈ gold' },
      own_models: [],
      axes: ['jail'],
      limitations: ['SYNTHETIC.'],
    }),
  );
  writeFileSync(join(dir, 'axes', 'jail.json'), json(AXIS));
  writeFileSync(join(dir, 'peritem', 'jail.jsonl'), ROWS.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const board = buildBoard(deriveRelease(readCorpus(dir)).source, null, {
    signedCells: null,
    livingStamp: { verification_state: 'UNSIGNED' },
    limitations: [],
  });
  const row = board.axes[0]!;

  it('serves the hand-computed numbers', () => {
    assert.equal(row.n, 7);
    assert.equal(row.accuracy, EXPECTED.accuracy);
    assert.equal(row.fleet_mean, EXPECTED.fleet_mean);
    assert.ok(Math.abs(row.mean_harm! - EXPECTED.mean_harm) < 1e-15, `mean_harm ${row.mean_harm}`);
    assert.ok(Math.abs(row.macro_f1! - EXPECTED.macro_f1) < 1e-15, `macro_f1 ${row.macro_f1}`);
    assert.deepEqual(row.per_model, EXPECTED.per_model);
    assert.equal(row.unparsed_rate, EXPECTED.unparsed_rate);
  });

  it('states in the limitations how many items macro_f1 and the counts leave out', () => {
    assert.ok(board.limitations.includes(LIMITATION), board.limitations.join('\n'));
  });

  it('no limitation on an axis that reports neither macro_f1 nor per-model counts', () => {
    const plain: ModelComparisonAxis = { ...AXIS, fleet: ['fleet_mean', 'mean_harm'] };
    delete plain.positive_label;
    const out = deriveComparisonRow(plain, tableOf(ROWS), []);
    assert.equal(out.notes.goldLists, undefined);
    assert.ok(Math.abs(out.row.mean_harm! - EXPECTED.mean_harm) < 1e-15);
  });

  it('names only the figures the row reports; says so even when every item is a list', () => {
    const onlyF1: ModelComparisonAxis = { ...AXIS };
    delete onlyF1.positive_label;
    const d1 = deriveComparisonRow(onlyF1, tableOf(ROWS), []);
    assert.deepEqual(d1.notes.goldLists, { items: 3, leftOutBy: ['macro_f1'] });
    assert.ok(
      deriveLimitations([], [d1]).includes(
        'jail: 3 of 7 items accept a list of gold labels; macro_f1 leaves them out (they need one gold class per item).',
      ),
    );
    // Every item a list: no model has a pair with one gold class, so macro_f1 is absent, the
    // counts are zero (precision and recall null) and the limitation explains why.
    const allLists = tableOf(ROWS.map((r) => ({ ...r, gold: ['A', 'B', 'H'] })));
    const d2 = deriveComparisonRow(AXIS, allLists, []);
    assert.equal(d2.row.macro_f1, undefined);
    assert.ok(Math.abs(d2.row.mean_harm! - EXPECTED.mean_harm) < 1e-15);
    for (const m of d2.row.per_model!)
      assert.deepEqual([m.TP, m.FP, m.TN, m.FN, m.precision, m.recall], [0, 0, 0, 0, null, null]);
    assert.deepEqual(d2.notes.goldLists, { items: 7, leftOutBy: ['macro_f1', 'per_model'] });
  });
});

function tableOf(rows: readonly PerItemRow[]): ItemTable {
  const t = new ItemTable();
  rows.forEach((r, i) => assert.equal(t.add(r, i + 1), undefined));
  return t;
}
