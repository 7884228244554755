/**
 * The dashboard's Models tab and the model filter (issue 40, item 1): every measured model with
 * its card, "unknown" where the corpus says nothing, several revisions said as such; the filter by
 * open weights, parameter range and organisation, which counts the models it cannot judge
 * instead of guessing; links to axis pages that keep it; an axis page that hides the filtered-out
 * rows but keeps every rank and separation; bad filters refused; markup escaped.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ModelsDocument } from '../../src/core/board/models-document.js';
import { filterWords } from '../../src/pages/model-filter.js';
import { demoApp } from '../helpers/app.js';
import { cardsCorpus, MARKUP_ORG } from './cards-corpus.js';
import { htmlView } from './dashboard-view.js';

describe('the Models tab and the model filter', async () => {
  const { app } = demoApp(cardsCorpus());
  const get = async (url: string) => app.inject({ url });
  const shown = async (query: string) => {
    const r = await get(`/dashboard?tab=models${query}`);
    assert.equal(r.statusCode, 200, r.body.slice(0, 300));
    const v = htmlView(r.body);
    return { body: r.body, models: v.tables['dash-models']!.map((row) => row.data['model']), view: v };
  };

  it('lists every measured model with its card; unknown where nothing is stated; two revisions said', async () => {
    const { models, view, body } = await shown('');
    assert.deepEqual(models, [
      'demo/atlas-70b',
      'demo/borealis-34b',
      'demo/cirrus-8b',
      'demo/dune-8b-ft',
      'svc/sentinel-1',
    ]);
    const dune = view.tables['dash-models']!.find((r) => r.data['model'] === 'demo/dune-8b-ft')!;
    // Every card column of a model with no card reads unknown, never blank, no or 0.
    for (const i of [1, 2, 3, 4, 5, 6, 7, 8, 9]) assert.equal(dune.cells[i]!.text, 'unknown', `column ${i}`);
    const atlas = view.tables['dash-models']!.find((r) => r.data['model'] === 'demo/atlas-70b')!;
    assert.equal(atlas.cells[2]!.value, 'true');
    assert.equal(atlas.cells[4]!.value, '70600000000');
    assert.equal(atlas.cells[4]!.text, '70.6B');
    assert.equal(atlas.cells[7]!.text, '2 measured: main, v2');
    assert.ok(body.includes('<a href="https://example.org/atlas" rel="noopener noreferrer nofollow"'));
    assert.ok(!body.includes(MARKUP_ORG), 'the organisation is escaped');
    assert.ok(body.includes('&lt;b&gt;Lab &amp; &quot;Co&quot;&lt;/b&gt;'));
  });

  it('open weights: yes, no and unknown are three answers', async () => {
    assert.deepEqual((await shown('&open_weights=yes')).models, ['demo/atlas-70b']);
    assert.deepEqual((await shown('&open_weights=no')).models, ['demo/borealis-34b']);
    assert.deepEqual((await shown('&open_weights=unknown')).models, [
      'demo/cirrus-8b',
      'demo/dune-8b-ft',
      'svc/sentinel-1',
    ]);
  });

  it('a parameter range keeps the models inside it and counts those with no count, never guessing', async () => {
    const r = await shown('&min_params=10B');
    assert.deepEqual(r.models, ['demo/atlas-70b', 'demo/borealis-34b']);
    const note = /<p class="note" id="models-filtered" data-shown="(\d+)" data-unknown="(\d+)">([\s\S]*?)<\/p>/.exec(
      r.body,
    )!;
    assert.deepEqual([note[1], note[2]], ['2', '2'], 'cirrus and dune have no count');
    assert.match(note[3]!, /^2 of 5 models with at least 10B parameters; 2 more have no card value/);
    assert.deepEqual((await shown('&min_params=1B&max_params=40B')).models, ['demo/borealis-34b', 'svc/sentinel-1']);
    assert.deepEqual((await shown('&max_params=999999999')).models, []);
  });

  it('an organisation, exactly as stated (markup included); links to axis pages keep the filter', async () => {
    const r = await shown(`&org=${encodeURIComponent('Demo Lab A (fictional)')}`);
    assert.deepEqual(r.models, ['demo/atlas-70b', 'demo/cirrus-8b']);
    assert.ok(
      r.body.includes('href="/dashboard/axes/governance?org=Demo+Lab+A+%28fictional%29"'),
      'the link keeps the filter',
    );
    assert.deepEqual((await shown(`&org=${encodeURIComponent(MARKUP_ORG)}`)).models, ['demo/borealis-34b']);
  });

  it('filterWords: "1 parameter", never "1 parameters"', () => {
    assert.equal(filterWords({ min_params: 1 }), 'at least 1 parameter');
    assert.equal(filterWords({ max_params: 1 }), 'at most 1 parameter');
    assert.equal(filterWords({ min_params: 1, max_params: 2 }), '1 to 2 parameters');
    assert.equal(filterWords({ min_params: 2 }), 'at least 2 parameters');
    assert.equal(filterWords({ min_params: 7e9 }), 'at least 7B parameters');
  });

  it('a form sent with blank fields is no filter; a bad filter is a 400 naming the parameter', async () => {
    assert.equal((await shown('&open_weights=&min_params=&max_params=&org=')).models.length, 5);
    for (const [q, what] of [
      ['&min_params=lots', /min_params: expected a parameter count/],
      ['&open_weights=maybe', /open_weights: expected yes, no or unknown/],
      ['&min_params=10B&max_params=1B', /min_params is above max_params/],
      // Read as "at least 1" before (decision PG8): a count below 1 is refused.
      ['&min_params=0.5', /min_params: a parameter count is at least 1 \(0\.5 is below\)/],
      ['&max_params=0', /max_params: a parameter count is at least 1/],
      ['&max_params=0.0000000001B', /max_params: a parameter count is at least 1/],
      ['&org=a&org=b', /given more than once/],
    ] as const) {
      const r = await get(`/dashboard?tab=models${q}`);
      assert.equal(r.statusCode, 400, q);
      assert.match(r.body, what);
    }
    const other = await get('/dashboard?tab=measured&open_weights=yes');
    assert.equal(other.statusCode, 400);
    assert.match(other.body, /read on tab=models/);
  });

  it('an axis page under the filter: only the kept rows, every figure of the whole axis, the way back keeps the filter', async () => {
    const doc = (await get('/api/models?axis=governance')).json() as ModelsDocument;
    const all = htmlView((await get('/dashboard/axes/governance')).body).tables['axis-models']!;
    const r = await get('/dashboard/axes/governance?min_params=10B');
    assert.equal(r.statusCode, 200);
    const rows = htmlView(r.body).tables['axis-models']!;
    assert.deepEqual(
      rows.map((x) => x.data['model']),
      ['demo/atlas-70b', 'demo/borealis-34b'],
    );
    for (const row of rows) {
      const before = all.find((x) => x.data['model'] === row.data['model'])!;
      assert.deepEqual(row.cells, before.cells, `${row.data['model']}: the same rank, groups and figures`);
    }
    const island = JSON.parse(
      /<script type="application\/json" id="dashboard-data">([\s\S]*?)<\/script>/.exec(r.body)![1]!,
    );
    assert.deepEqual(
      island.cells.map((c: { first: string; second: string }) => [c.first, c.second]),
      doc.pairs
        .filter((p) => p.first === 'demo/atlas-70b' && p.second === 'demo/borealis-34b')
        .map((p) => [p.first, p.second]),
    );
    assert.match(
      r.body,
      /id="axis-filtered" data-shown="2">Filtered to models with at least 10B parameters: 2 of 5 shown/,
    );
    assert.ok(r.body.includes('<a href="/dashboard?tab=models&amp;min_params=10000000000">← Dashboard</a>'));
    assert.equal((await get('/dashboard/axes/governance?tab=models')).statusCode, 400);
  });
});
