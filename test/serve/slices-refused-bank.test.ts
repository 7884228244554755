/**
 * A slice of an axis whose one-label bank is refused (RD5's finding, SL4): it is refused like the
 * whole axis (bank_state, every pair UNTESTED, no letters), and not called too small, since the
 * bank, not the slice's size, is why nothing is compared. The list gives no tie groups for it.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { demoApp } from '../helpers/app.js';
import { writeQuizCorpus } from '../helpers/quiz-corpus.js';

it('a slice of a refused one-label bank carries the refusal, not too_small', async () => {
  const rows: string[] = [];
  for (let i = 0; i < 40; i++)
    for (const [model, right] of [
      ['b/x', i < 35],
      ['b/y', i < 10],
    ] as const)
      rows.push(JSON.stringify({ item: `q${i}`, model, gold: 'A', label: right ? 'A' : 'B', tags: ['t'] }));
  const { app } = demoApp(writeQuizCorpus({ rows, labels: ['A'] }));
  const doc = (await app.inject({ url: '/api/models?axis=quiz&slice=t' })).json();
  assert.equal(doc.bank_state, 'REFUSED_ONE_LABEL_MENU');
  assert.equal(doc.m_slice_family, 0);
  assert.ok(doc.pairs.length > 0 && doc.pairs.every((p: { state: string }) => p.state === 'UNTESTED'));
  assert.equal(doc.too_small, false, 'the bank is the reason, not the size');
  assert.equal(doc.groups, 0);
  assert.ok(doc.models.every((m: { rank: unknown; accuracy: unknown }) => m.rank === null && m.accuracy === null));
  const list = (await app.inject({ url: '/api/slices?axis=quiz' })).json();
  const t = list.slices.find((s: { tag: string }) => s.tag === 't');
  assert.equal(t.bank_state, 'REFUSED_ONE_LABEL_MENU');
  assert.equal(t.tie_groups, null);
  assert.equal(t.separated, 0);
});
