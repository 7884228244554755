/**
 * The contamination-window section says how many items carry a date (review R1-4): an undated
 * item is in no window, so a lead "after both cutoffs" rests on the dated items only, and where
 * only some are dated the page says how many are not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoApp } from '../helpers/app.js';
import { windowsCorpus } from '../helpers/windows-corpus.js';

describe('the windows section says how many items are dated', async () => {
  const { app } = demoApp(windowsCorpus());
  const doc = (await app.inject('/api/windows?axis=quiz')).json() as { n: number; dated_items: number };
  const body = (await app.inject('/dashboard/axes/quiz')).body;

  it('30 of the 31 items carry a date; the undated one is in no window', () => {
    assert.deepEqual([doc.dated_items, doc.n], [30, 31]);
    assert.match(
      body,
      /<p class="note" id="axis-windows-dated" data-dated="30" data-n="31">30 of the 31 items carry a date \(2023-12 to 2024-06-10\); the other 1 is in no window, whenever it was written\.<\/p>/,
    );
  });
});
