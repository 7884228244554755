/**
 * The slices' memory budget (review R1-3): every pair of every slice is held as an object until
 * the family across slices is adjusted, and 200 models x 100 one-item tags (20,000 rows) ran the
 * service out of heap and killed it (FATAL ERROR: heap out of memory, at 4.3 GB, measured). An
 * axis whose slices hold more than MAX_SLICE_PAIRS pairs in all is refused in words (404
 * not_found with the count), before any build; the axis page says so and the rest of it is
 * served; the whole axis's document is unaffected.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { slicePairCount } from '../../src/core/board/item-slice.js';
import { ItemTable } from '../../src/core/board/item-table.js';
import { MAX_SLICE_PAIRS } from '../../src/serve/documents/slices.js';
import { demoApp } from '../helpers/app.js';
import { writeQuizCorpus } from '../helpers/quiz-corpus.js';

/** `models` models, `tags` tags of one item each (q0…), every model with a row on each. */
function corpus(models: number, tags: number): string {
  const rows: string[] = [];
  for (let i = 0; i < tags; i++)
    for (let j = 0; j < models; j++) {
      const gold = i % 2 === 0 ? 'A' : 'B';
      const label = (i + j) % 3 === 0 ? (gold === 'A' ? 'B' : 'A') : gold;
      rows.push(
        `{"item":"q${i}","model":"m/${String(j).padStart(3, '0')}","gold":"${gold}","label":"${label}","tags":["t${i}"]}`,
      );
    }
  return writeQuizCorpus({ rows });
}

describe('the slices of an axis too large to hold are refused in words, not built', async () => {
  // C(200, 2) x 16 = 318,400 pairs: past the budget (a build would hold about 0.9 GB).
  const { app } = demoApp(corpus(200, 16));

  it('the list and a slice: 404 not_found with the count and the budget, answered at once', async () => {
    assert.equal(MAX_SLICE_PAIRS, 300_000);
    const started = performance.now();
    const r = await app.inject('/api/slices?axis=quiz');
    assert.ok(performance.now() - started < 2_000, 'refused before any build');
    assert.equal(r.statusCode, 404);
    const body = r.json() as { code: string; error: string; pairs: number; max_pairs: number };
    assert.equal(body.code, 'not_found');
    assert.deepEqual([body.pairs, body.max_pairs], [318_400, 300_000]);
    assert.match(
      body.error,
      /16 tags hold 318,400 model pairs in all, and with 3 for each slice's own document that is more than the 300,000/,
    );
    const s = await app.inject('/api/models?axis=quiz&slice=t0');
    assert.deepEqual([s.statusCode, s.json().pairs], [404, 318_400]);
  });

  it('the axis page says so and is served; the whole axis is served', async () => {
    const page = await app.inject('/dashboard/axes/quiz');
    assert.equal(page.statusCode, 200);
    assert.match(
      page.body,
      /The slice list not read:<\/strong> no slices are served for this axis: its 16 tags hold 318,400 model pairs/,
    );
    const whole = await app.inject('/api/models?axis=quiz');
    assert.deepEqual([whole.statusCode, (whole.json() as { pairs: unknown[] }).pairs.length], [200, 19_900]);
  });

  it('tags without pairs count too: 100,001 one-item tags of one model (no pair) are refused', async () => {
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => `{"item":"q${i}","model":"m/a","gold":"A","label":"A","tags":["t${i}"]}`);
    const big = demoApp(writeQuizCorpus({ rows: rows(100_001), labels: ['A', 'B'] })).app;
    const r = await big.inject('/api/slices?axis=quiz');
    assert.equal(r.statusCode, 404);
    assert.deepEqual([r.json().pairs, r.json().slices], [0, 100_001]);
  });

  it('slicePairCount counts, per tag, the pairs of the models with a row on it', () => {
    const t = new ItemTable();
    const row = (item: string, model: string, tags: string[]) => t.add({ item, model, gold: 'A', label: 'A', tags }, 1);
    row('q0', 'a', ['x', 'y']);
    row('q0', 'b', ['x', 'y']);
    row('q0', 'c', ['x', 'y']);
    row('q1', 'a', ['z']);
    assert.equal(slicePairCount(t), 3 + 3 + 0);
  });
});
