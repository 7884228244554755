/**
 * What the slices section of an axis page may claim (review R1): a slice too small to separate
 * anything names no leader and calls no model separated (one model alone on a slice was compared
 * with nothing: it read "none: every other model is separated"); a leader-group member never
 * compared with the leader is written "(UNTESTED)", as on the whole axis (ST24); a slice where
 * every model ranked on it is separated from the leader says the models of the axis it does not
 * hold were not compared.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SlicesDocument } from '../../src/core/board/slices-document-shape.js';
import { demoApp } from '../helpers/app.js';
import { writeQuizCorpus } from '../helpers/quiz-corpus.js';

/**
 * m/a, m/b, m/c. `big` (q0-q39): m/a right on all, m/b and m/c on the even items; m/c's q0 has
 * another item_hash than m/a's, so (m/a, m/c) is UNTESTED. `solo` (q40-q49): m/a's rows alone.
 * `ab` (q50-q69): m/a and m/b only, m/a right and m/b wrong on every one.
 */
function corpus(): string {
  const rows: string[] = [];
  const row = (i: number, model: string, right: boolean, tag: string, hash?: string) => {
    const gold = i % 2 === 0 ? 'A' : 'B';
    const label = right ? gold : gold === 'A' ? 'B' : 'A';
    rows.push(JSON.stringify({ item: `q${i}`, model, gold, label, tags: [tag], ...(hash && { item_hash: hash }) }));
  };
  for (let i = 0; i < 40; i++) {
    const hash = i === 0 ? 'a'.repeat(64) : undefined;
    row(i, 'm/a', true, 'big', hash);
    row(i, 'm/b', i % 2 === 0, 'big', hash);
    row(i, 'm/c', i % 2 === 0, 'big', i === 0 ? 'b'.repeat(64) : undefined);
  }
  for (let i = 40; i < 50; i++) row(i, 'm/a', i % 3 !== 0, 'solo');
  for (let i = 50; i < 70; i++) {
    row(i, 'm/a', true, 'ab');
    row(i, 'm/b', false, 'ab');
  }
  return writeQuizCorpus({ rows });
}

describe('the slices section claims no more than the list holds', async () => {
  const { app } = demoApp(corpus());
  const list = (await app.inject('/api/slices?axis=quiz')).json() as SlicesDocument;
  const body = (await app.inject('/dashboard/axes/quiz')).body;
  const rowOf = (tag: string) => new RegExp(`<tr data-slice="${tag}"[^>]*>([\\s\\S]*?)</tr>`).exec(body)![1]!;
  const slice = (tag: string) => list.slices.find((s) => s.tag === tag)!;

  it('a slice of one model: too small, no leader named, no model called separated', () => {
    const s = slice('solo');
    assert.deepEqual([s.too_small, s.leader, s.leader_group], [true, 'm/a', ['m/a']]);
    const tr = rowOf('solo');
    assert.doesNotMatch(tr.replace(/data-label="[^"]*"/g, ''), /separated/, tr);
    assert.match(tr, /data-label="Leader">none: too small</);
    assert.match(tr, /data-label="Not separated from the leader" data-value="">—</);
    assert.match(tr, /data-label="Too small">yes: only one public model has a parsed response/);
  });

  it('a leader-group member never compared with the leader is written UNTESTED', () => {
    const s = slice('big');
    assert.equal(s.too_small, false);
    assert.deepEqual(s.leader_group, ['m/a', 'm/c']);
    assert.deepEqual(s.leader_untested, ['m/c']);
    const tr = rowOf('big');
    assert.match(
      tr,
      /data-label="Not separated from the leader" data-value="1">m\/c \(UNTESTED\) \(UNTESTED: never compared/,
    );
  });

  it('"every other model is separated" counts the models of the axis the slice does not hold', () => {
    const s = slice('ab');
    assert.deepEqual([s.too_small, s.leader_group], [false, ['m/a']]);
    assert.deepEqual(Object.fromEntries(list.models.map((m, i) => [m, s.n[i]])), { 'm/a': 20, 'm/b': 20, 'm/c': 0 });
    assert.match(
      rowOf('ab'),
      /none: every other model ranked on the slice is separated from it \(1 model of the axis has no parsed response on it: not compared\)/,
    );
  });

  it('the slices and windows notes say that the whole axis, the windows and the slices are three families', () => {
    assert.match(
      body,
      /id="axis-slices-family"[^>]*>[^<]*a claim taken from any of the three has up to three times the 0\.05 chance/,
    );
    const windows = body.slice(body.indexOf('id="axis-windows-heading"'));
    assert.match(windows, /apart from the whole axis's \(and the slices', on an axis with tags\)/);
  });

  it("a refused one-label bank's slice reads refused, not 'Too small: no'", async () => {
    const rows = ['q0', 'q1', 'q2'].flatMap((item) =>
      ['m/a', 'm/b'].map((model) => JSON.stringify({ item, model, gold: 'A', label: 'A', tags: ['x'] })),
    );
    const refused = demoApp(writeQuizCorpus({ rows, labels: ['A'] })).app;
    const page = (await refused.inject('/dashboard/axes/quiz')).body;
    const tr = /<tr data-slice="x"[^>]*>([\s\S]*?)<\/tr>/.exec(page)![1]!;
    assert.match(tr, /data-label="Too small">refused with the axis: REFUSED_ONE_LABEL_MENU</);
    assert.match(tr, /data-label="Leader">—</);
  });
});
