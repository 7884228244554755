/**
 * The axis page stays light at hundreds of models (issue 39: 23 MB at 200 models, a 19,900-row
 * pairs table and a 40,000-cell heat map): at 300 models (44,850 pairs) its HTML stays under
 * 1 MB; the plots and the pairs table hold the first PLOT_MODELS models by rank and the pairs
 * among them, the models table the first TABLE_MODELS, and the page says so and links the whole
 * document; the models not separated from the leader are named; tie-group labels past z are read
 * apart. Not timed (bench §16 times it, in Chromium, at 1,000 models).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MANY_AXIS, writeManyModelsCorpus } from '../../bench/many-models.js';
import type { ModelsDocument } from '../../src/core/board/models-document.js';
import { PLOT_MODELS, TABLE_MODELS } from '../../src/pages/dashboard-axis-view.js';
import { TAB_MODELS } from '../../src/pages/dashboard-models.js';
import { demoApp } from '../helpers/app.js';
import { tempDir } from '../helpers/tmp.js';
import { htmlView } from './dashboard-view.js';
import { assertNotSeparatedRanges } from '../helpers/not-separated.js';

const MODELS = 300;
const PAGE_MAX_BYTES = 1_000_000;

describe(`the axis page at ${MODELS} models`, async () => {
  const corpus = join(tempDir(), 'corpus');
  writeManyModelsCorpus(corpus, { models: MODELS, items: 400 });
  const { app } = demoApp(corpus);
  const doc = (await app.inject({ url: `/api/models?axis=${MANY_AXIS}` })).json() as ModelsDocument;
  const body = (await app.inject({ url: `/dashboard/axes/${MANY_AXIS}` })).body;
  const view = htmlView(body);
  const island = JSON.parse(
    /<script type="application\/json" id="dashboard-data">([\s\S]*?)<\/script>/.exec(body)![1]!,
  ) as { models: { model: string; letters: string }[]; cells: { first: string; second: string }[] };

  it('the document has every model and pair; the page stays under 1 MB', () => {
    assert.equal(doc.models.length, MODELS + 1, 'the public models and the own model');
    assert.equal(doc.pairs.length, ((MODELS + 1) * MODELS) / 2);
    assert.ok(Buffer.byteLength(body) <= PAGE_MAX_BYTES, `${Buffer.byteLength(body)} bytes`);
  });

  it('the plots and the pairs table: the first models by rank and the pairs among them', () => {
    const first = doc.models.slice(0, PLOT_MODELS).map((m) => m.model);
    assert.deepEqual(
      island.models.map((m) => m.model),
      first.filter((m) => doc.models.find((x) => x.model === m)!.accuracy !== null),
    );
    const shown = new Set(first);
    const among = doc.pairs.filter((p) => shown.has(p.first) && shown.has(p.second));
    assert.equal(among.length, (PLOT_MODELS * (PLOT_MODELS - 1)) / 2);
    assert.deepEqual(
      island.cells.map((c) => [c.first, c.second]),
      among.map((p) => [p.first, p.second]),
    );
    assert.deepEqual(
      view.tables['axis-pairs']!.map((r) => [r.data['first'], r.data['second']]),
      among.map((p) => [p.first, p.second]),
    );
  });

  it('the models table: the first TABLE_MODELS and every own model', () => {
    const rows = view.tables['axis-models']!.map((r) => r.data['model']);
    const expected = doc.models.filter((m, i) => i < TABLE_MODELS || m.own).map((m) => m.model);
    assert.deepEqual(rows, expected);
    assert.ok(rows.length <= TABLE_MODELS + 1);
  });

  it('says what it leaves out and links the whole document', () => {
    for (const id of ['axis-models-cut', 'axis-pairs-cut']) {
      const note = new RegExp(`<p class="note" id="${id}">([\\s\\S]*?)</p>`).exec(body)?.[1] ?? '';
      assert.match(note, new RegExp(`\\(${MODELS + 1} models, ${doc.pairs.length.toLocaleString('en')} pairs\\)`), id);
      assert.ok(note.includes(`<a href="/api/models?axis=${MANY_AXIS}">`), id);
    }
  });

  it('names the models not separated from the leader (leader_group), re-derived from the pairs', () => {
    const leader = doc.models.find((m) => m.rank === 1)!.model;
    const sep = (x: string, y: string) =>
      doc.pairs.some(
        (p) => p.state === 'SEPARATED' && ((p.first === x && p.second === y) || (p.first === y && p.second === x)),
      );
    const expected = doc.models.filter((m) => m.rank !== null && (m.model === leader || !sep(leader, m.model)));
    assert.deepEqual(
      doc.leader_group,
      expected.map((m) => m.model),
    );
    const note = /<p class="note" id="axis-leader-group" data-count="(\d+)" data-untested="0">([\s\S]*?)<\/p>/.exec(
      body,
    )!;
    assert.equal(Number(note[1]), expected.length - 1);
    assert.ok(note[2]!.startsWith(`Not separated from the leader (${leader}): `), note[2]);
  });

  it('tie groups past z: each model a list of labels, printed apart on the page', () => {
    assert.ok(doc.groups !== null && doc.groups > 26, `${doc.groups} groups`);
    const many = doc.models.find((m) => (m.tie_groups ?? []).some((l) => l.length > 1))!;
    assert.ok(many.tie_groups!.every((l) => /^[a-z]{1,2}$/.test(l)));
    const row = view.tables['axis-models']!.find((r) => r.data['model'] === many.model);
    if (row) assert.equal(row.data['letters'], many.tie_groups!.join(' '));
    for (const m of island.models)
      assert.equal(m.letters, (doc.models.find((x) => x.model === m.model)!.tie_groups ?? []).join(' '));
  });

  it(`the Models tab at ${MODELS + 1} models: the first ${TAB_MODELS} rows and a note linking every card`, async () => {
    const tab = (await app.inject({ url: '/dashboard?tab=models' })).body;
    const rows = htmlView(tab).tables['dash-models']!;
    assert.equal(rows.length, TAB_MODELS);
    assert.match(
      tab,
      new RegExp(
        `id="models-cut" data-shown="${TAB_MODELS}">The table shows the first ${TAB_MODELS} of these ${MODELS + 1} models`,
      ),
    );
    assert.ok(Buffer.byteLength(tab) <= PAGE_MAX_BYTES, `${Buffer.byteLength(tab)} bytes`);
  });

  it("the tie groups satisfy their defining property: two public models share a label, and each lies in the other's not_separated ranks, exactly when their pair is not SEPARATED", () => {
    const letters = new Map(doc.models.map((m) => [m.model, m.tie_groups ?? []]));
    for (const p of doc.pairs.filter((q) => !q.own)) {
      const share = letters.get(p.first)!.some((l) => letters.get(p.second)!.includes(l));
      assert.equal(share, p.state !== 'SEPARATED', `${p.first} ~ ${p.second}`);
    }
    assertNotSeparatedRanges(doc, false);
    // The models table shows each kept model's ranges, with the served JSON in data-value.
    for (const m of doc.models.slice(0, 5))
      assert.ok(
        body.includes(
          `data-label="Not separated from (ranks)" data-value="${m.not_separated === null ? '' : JSON.stringify(m.not_separated)}">`,
        ),
        m.model,
      );
  });
});
