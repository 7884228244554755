/**
 * Accuracy against cost on an axis page (issue 40, item 4) and the model card line (item 1): the
 * `axis-cost` table's values are /api/cost's exactly (`data-value`); the dominated models, the
 * leader's group with its costs and the cheapest of it are the worked example's
 * (docs/methodology.md §11); a member UNTESTED with the leader reads "not compared", never tied;
 * a model without a cost reads "no cost" with its reason and is listed beside the plot, never
 * drawn; markup in a model id, a price's source or an organisation is text; the demo, which has
 * no prices, says so in one line on every axis page and draws nothing.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { CostDocument } from '../../src/core/board/cost-document.js';
import type { AxisIsland } from '../../src/pages/dashboard-islands.js';
import { demoApp } from '../helpers/app.js';
import { type CostRow, handCorpus, writeCorpus } from '../helpers/cost-corpus.js';
import { PLOT_MODELS } from '../../src/pages/dashboard-axis-view.js';
import { htmlView } from './dashboard-view.js';
import { MARKUP_MODEL, pricedCorpus } from './priced-corpus.js';
import { MARKUP_ORG } from './cards-corpus.js';

const islandOf = (body: string) =>
  JSON.parse(/<script type="application\/json" id="dashboard-data">([\s\S]*?)<\/script>/.exec(body)![1]!) as AxisIsland;
const text = (s: string) =>
  s
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
const paragraph = (body: string, id: string) => {
  const m = new RegExp(`<p [^>]*id="${id}"[^>]*>([\\s\\S]*?)</p>`).exec(body);
  return m ? text(m[1]!) : undefined;
};

/** The worked corpus, and one more model on ten items of its own: UNTESTED with everyone, and the cheapest. */
function apartCorpus(): string {
  const dir = handCorpus();
  const rows = Array.from({ length: 10 }, (_, i) =>
    JSON.stringify({
      item: `q${60 + i}`,
      model: 'h/apart',
      gold: 'A',
      label: i < 9 ? 'A' : 'B',
      input_tokens: 1000,
      output_tokens: 0,
    }),
  );
  appendFileSync(join(dir, 'peritem', 'quiz.jsonl'), `${rows.join('\n')}\n`);
  const file = join(dir, 'prices.json');
  const prices = JSON.parse(readFileSync(file, 'utf8')) as { prices: unknown[] };
  prices.prices.push({
    model: 'h/apart',
    input_usd_per_mtok: 0.5,
    output_usd_per_mtok: 0.5,
    read_on: '2026-10-01',
    source: 'price page',
  });
  writeFileSync(file, JSON.stringify(prices));
  return dir;
}

describe('the accuracy-against-cost view of an axis page', async () => {
  const { app } = demoApp(handCorpus());
  const cost = (await app.inject('/api/cost?axis=quiz')).json() as CostDocument;
  const body = (await app.inject('/dashboard/axes/quiz')).body;
  const rows = htmlView(body).tables['axis-cost']!;

  it("the table: every model of /api/cost in its order, each value the document's exactly", () => {
    assert.deepEqual(
      rows.map((r) => r.data['model']),
      cost.models.map((m) => m.model),
    );
    for (const row of rows) {
      const m = cost.models.find((x) => x.model === row.data['model'])!;
      const [, acc, price, perItem, perCorrect, dominated] = row.cells;
      assert.equal(acc!.value, String(m.accuracy), m.model);
      assert.equal(
        price!.value,
        m.price ? JSON.stringify([m.price.input_usd_per_mtok, m.price.output_usd_per_mtok]) : '',
      );
      assert.equal(perItem!.value, m.cost ? String(m.cost.per_item_usd) : '', m.model);
      assert.equal(perCorrect!.value, m.cost?.per_correct_usd == null ? '' : String(m.cost.per_correct_usd), m.model);
      assert.equal(dominated!.value, m.dominated === null ? '' : String(m.dominated), m.model);
      assert.equal(row.data['dominated'], String(m.dominated));
    }
  });

  it('dominated, not dominated and not compared, as the worked example says', () => {
    const cell = (model: string) => rows.find((r) => r.data['model'] === model)!.cells[5]!.text;
    // h/near's cost is over 50 of its 60 rows: it is compared with nothing (decision CO10).
    assert.match(
      cell('h/mid'),
      /^not compared \(no model with a full cost dominates it, but models SEPARATED above it have a cost over part of their rows only/,
    );
    assert.equal(cell('h/low'), 'dominated by h/top, h/mid');
    assert.equal(cell('h/top'), 'not dominated');
    assert.match(cell('h/near'), /^not compared \(its cost covers only part of its rows/);
    assert.match(
      cell('h/thrifty'),
      /^not compared \(no model with a full cost dominates it, but models SEPARATED above it have no cost; models SEPARATED above it have a cost over part of their rows only/,
    );
    assert.match(cell('h/own'), /^not compared \(own model/);
  });

  it('no cost is "no cost" with the reason, never $0, and the model is listed beside the plot', () => {
    const unpriced = rows.find((r) => r.data['model'] === 'h/unpriced')!;
    assert.match(
      unpriced.cells[3]!.text,
      /^no cost \(no price: every price of this model was read after the release's day/,
    );
    assert.equal(unpriced.cells[4]!.text, 'no cost');
    assert.ok(!rows.some((r) => r.cells.some((c) => c.text.startsWith('$0 ') || c.text === '$0')));
    assert.match(paragraph(body, 'axis-cost-unplotted')!, /^Not in the plot: h\/unpriced \(no cost: no price:/);
    const near = rows.find((r) => r.data['model'] === 'h/near')!;
    assert.match(near.cells[3]!.text, /^\$0\.002 \(\$0\.002 to \$0\.002\) over 50 of 60 rows$/);
  });

  it("the leader's group with each member's cost, and the cheapest of it", () => {
    assert.equal(
      paragraph(body, 'axis-cost-group'),
      'Not separated from the leader (h/top, $0.0105 per item): h/near, $0.002 per item over 50 of 60 rows, TIE with the leader.',
    );
    assert.equal(
      paragraph(body, 'axis-cost-cheapest'),
      'The cheapest of the 2 models not separated from the leader, by cost per item, among the leader and the models tested level with it whose cost covers every one of their rows: the leader itself, h/top, $0.0105 per item ($0.0105 to $0.0105), $0.0105 per correct answer, accuracy 100.0%. h/near has a cost over only part of its rows, which is not compared: it may be cheaper.',
    );
    assert.equal(cost.cheapest_not_separated!.model, 'h/top');
  });

  it('the plot: each model with a cost and an accuracy, its values exactly; dominated ones marked', () => {
    const island = islandOf(body);
    const costed = cost.models.filter((m) => m.cost !== null);
    assert.deepEqual(
      island.cost!.map((p) => [p.model, p.own, p.accuracy, p.lo, p.hi, p.cost, p.costLo, p.costHi, p.dominated]),
      costed.map((m) => [
        m.model,
        m.own,
        m.accuracy,
        m.interval![0],
        m.interval![1],
        m.cost!.per_item_usd,
        m.cost!.per_item_interval![0],
        m.cost!.per_item_interval![1],
        m.dominated,
      ]),
    );
    assert.match(body, /<figure class="plot dash-plot" id="plot-axis-cost"/);
    assert.match(body, /<strong>Red ×<\/strong>: dominated/);
  });
});

describe('a model UNTESTED with the leader is named as not compared, never as tied', async () => {
  const { app } = demoApp(apartCorpus());
  const cost = (await app.inject('/api/cost?axis=quiz')).json() as CostDocument;
  const body = (await app.inject('/dashboard/axes/quiz')).body;

  it('the group says it was never compared; it is not the cheapest, but named as cheaper and never compared', () => {
    const apart = cost.leader_group.find((g) => g.model === 'h/apart')!;
    assert.equal(apart.with_leader, 'UNTESTED', 'the corpus gives an UNTESTED member');
    assert.equal(cost.cheapest_not_separated!.model, 'h/top');
    assert.deepEqual(cost.cheaper_untested, ['h/apart']);
    const group = paragraph(body, 'axis-cost-group')!;
    assert.match(
      group,
      /h\/apart, \$0\.0005 per item; not compared with the leader \(UNTESTED: [^)]+\), which is no evidence of a tie/,
    );
    assert.doesNotMatch(group, /h\/apart[^;]*TIE/);
    assert.match(
      paragraph(body, 'axis-cost-cheapest')!,
      /^The cheapest of the 3 models not separated from the leader, by cost per item, .*: the leader itself, h\/top, .* Cheaper, but never compared with the leader \(UNTESTED, which is no evidence of a tie, so not named the cheapest\): h\/apart \(\$0\.0005 per item\)\.$/,
    );
  });
});

describe('the cost view and the card line on the demo with prices, cards and markup', async () => {
  const { app } = demoApp(pricedCorpus());
  const cost = (await app.inject('/api/cost?axis=governance')).json() as CostDocument;
  const body = (await app.inject('/dashboard/axes/governance')).body;
  const view = htmlView(body);

  it("the table's values are /api/cost's; a model without a price reads no cost", () => {
    const rows = view.tables['axis-cost']!;
    assert.equal(rows.length, cost.models.length);
    for (const row of rows) {
      const m = cost.models.find((x) => x.model === row.data['model'])!;
      assert.equal(row.cells[3]!.value, m.cost ? String(m.cost.per_item_usd) : '', m.model);
    }
    const cirrus = rows.find((r) => r.data['model'] === 'demo/cirrus-8b')!;
    assert.equal(cirrus.cells[5]!.text, 'dominated by demo/borealis-34b', 'the corpus has a dominated model to draw');
    const dune = rows.find((r) => r.data['model'] === 'demo/dune-8b-ft')!;
    assert.match(dune.cells[3]!.text, /^no cost \(no price: /);
  });

  it('markup in a model id, a price source and an organisation is text', () => {
    assert.ok(cost.models.some((m) => m.model === MARKUP_MODEL));
    for (const raw of [MARKUP_MODEL, '<i>markup</i>', MARKUP_ORG]) assert.ok(!body.includes(raw), raw);
    assert.ok(body.includes('demo/&lt;b&gt;&quot;x&quot;&amp;y&lt;/b&gt;'));
    assert.ok(body.includes('&lt;i&gt;markup&lt;/i&gt; &amp; &quot;quotes&quot;'));
    const island = /<script type="application\/json" id="dashboard-data">([\s\S]*?)<\/script>/.exec(body)![1]!;
    assert.ok(!island.includes('<b>') && island.includes('\\u003cb>'), 'the island escapes <');
    assert.ok(
      islandOf(body).cost!.some((p) => p.model === MARKUP_MODEL),
      'and reads back as the id',
    );
  });

  it('each model named with its card: organisation · open weights · parameters, unknown for what is absent', () => {
    const line = (model: string) =>
      text(new RegExp(`data-card="${model.replace(/[/]/g, '\\/')}">([^<]*)<`).exec(body)?.[1] ?? '');
    assert.equal(line('demo/atlas-70b'), 'Demo Lab A (fictional) · open weights · 70.6B');
    assert.equal(line('demo/borealis-34b'), `${MARKUP_ORG} · weights not open · 34B`);
    assert.equal(line('demo/dune-8b-ft'), 'organisation unknown · open weights unknown · parameters unknown');
    assert.equal(line('svc/sentinel-1'), 'organisation unknown · open weights unknown · 1B');
    assert.equal(paragraph(body, 'axis-cards-none'), undefined);
  });

  it('under the model filter, the cost table shows the kept models only', async () => {
    const r = htmlView((await app.inject('/dashboard/axes/governance?min_params=10B')).body);
    assert.deepEqual(
      r.tables['axis-cost']!.map((x) => x.data['model']),
      ['demo/atlas-70b', 'demo/borealis-34b'],
    );
  });

  it('an axis with prices but no token counts says so in one line', async () => {
    const safety = (await app.inject('/dashboard/axes/safety')).body;
    assert.match(
      paragraph(safety, 'axis-cost-none')!,
      /^No model of safety has a cost \(\d+ of \d+ (has|have) a price that applies;/,
    );
  });
});

describe('the demo, which has no prices and no cards', async () => {
  const { app } = demoApp();
  const board = (await app.inject('/api/gspc')).json() as { axes: { axis: string; kind: string }[] };
  const axes = board.axes.filter((a) => a.kind === 'model-comparison').map((a) => a.axis);

  it('every axis page says in one line why there is no cost, and draws no cost plot', async () => {
    assert.ok(axes.length > 5);
    for (const axis of axes) {
      const body = (await app.inject(`/dashboard/axes/${axis}`)).body;
      const cost = (await app.inject(`/api/cost?axis=${axis}`)).json() as CostDocument;
      assert.equal(cost.costed, 0);
      const line = paragraph(body, 'axis-cost-none');
      assert.ok(line, axis);
      assert.equal(body.match(/id="axis-cost-none"/g)!.length, 1, axis);
      assert.equal(htmlView(body).tables['axis-cost'], undefined, axis);
      assert.ok(!body.includes('plot-axis-cost'), axis);
      assert.equal(islandOf(body).cost, undefined, axis);
      assert.ok(!body.includes('data-card='), `${axis}: no card line without cards`);
      if (cost.status === 'MEASURED')
        assert.match(line!, /^No cost: this release has no price list \(prices\.json\)/, axis);
    }
  });

  it('the card note says once that every card field is unknown', async () => {
    const body = (await app.inject('/dashboard/axes/governance')).body;
    assert.match(paragraph(body, 'axis-cards-none')!, /^No model of this release has a card/);
  });
});

describe('past PLOT_MODELS models the plot shows the first by rank, the table every tabled model', async () => {
  const models = Array.from({ length: PLOT_MODELS + 5 }, (_, k) => `s/m${String(k).padStart(2, '0')}`);
  const rows: CostRow[] = [];
  for (let i = 0; i < 40; i++)
    models.forEach((model, k) =>
      rows.push({
        item: `i${i}`,
        model,
        gold: 'A',
        label: (i * 7 + k * 3) % 40 < 40 - k ? 'A' : 'B',
        input_tokens: 500,
        output_tokens: 10 * (k + 1),
      }),
    );
  const prices = models.map((model, k) => ({
    model,
    input_usd_per_mtok: 1 + k,
    output_usd_per_mtok: 2,
    read_on: '2026-10-01',
    source: 'list',
  }));
  const { app } = demoApp(writeCorpus(rows, prices));
  const cost = (await app.inject('/api/cost?axis=quiz')).json() as CostDocument;
  const body = (await app.inject('/dashboard/axes/quiz')).body;

  it('island and table', () => {
    assert.equal(cost.models.length, PLOT_MODELS + 5);
    assert.deepEqual(
      islandOf(body).cost!.map((p) => p.model),
      cost.models.slice(0, PLOT_MODELS).map((m) => m.model),
    );
    assert.deepEqual(
      htmlView(body).tables['axis-cost']!.map((r) => r.data['model']),
      cost.models.map((m) => m.model),
    );
  });
});

describe('one model with a cost: the counts agree with their verbs', async () => {
  const rows: CostRow[] = Array.from({ length: 4 }, (_, i) => ({
    item: `i${i}`,
    model: 'o/only',
    gold: 'A',
    label: 'A',
    input_tokens: 100,
    output_tokens: 10,
  }));
  const prices = [
    { model: 'o/only', input_usd_per_mtok: 1, output_usd_per_mtok: 1, read_on: '2026-10-01', source: 'list' },
  ];
  const { app } = demoApp(writeCorpus(rows, prices));
  const body = text((await app.inject('/dashboard/axes/quiz')).body);

  it('"1 of 1 model has a cost, 0 are dominated"', () => {
    assert.match(body, /1 of 1 model has a cost, 0 are dominated\./);
    assert.doesNotMatch(body, /1 of 1 model have/);
  });
});

describe('a refused one-label bank: costs in the table, nothing placed, no cheapest', async () => {
  const rows: CostRow[] = [];
  for (let i = 0; i < 20; i++)
    for (const [k, model] of ['b/one', 'b/two'].entries())
      rows.push({
        item: `i${i}`,
        model,
        gold: 'A',
        label: i % (k + 2) === 0 ? null : 'A',
        input_tokens: 100,
        output_tokens: 10,
      });
  const prices = ['b/one', 'b/two'].map((model) => ({
    model,
    input_usd_per_mtok: 1,
    output_usd_per_mtok: 1,
    read_on: '2026-10-01',
    source: 'list',
  }));
  const dir = writeCorpus(rows, prices);
  const axisFile = join(dir, 'axes', 'quiz.json');
  writeFileSync(axisFile, JSON.stringify({ ...JSON.parse(readFileSync(axisFile, 'utf8')), labels: ['A'] }));
  const { app } = demoApp(dir);
  const cost = (await app.inject('/api/cost?axis=quiz')).json() as CostDocument;
  const body = (await app.inject('/dashboard/axes/quiz')).body;

  it('says so', () => {
    assert.equal(cost.bank_state, 'REFUSED_ONE_LABEL_MENU');
    assert.equal(cost.costed, 2);
    assert.ok(!body.includes('id="plot-axis-cost"'));
    assert.match(paragraph(body, 'axis-cost-noplot')!, /^No plot: no model shown here has both a cost and an accuracy/);
    assert.equal(
      paragraph(body, 'axis-cost-cheapest'),
      `No cheapest model not separated from the leader: ${cost.cheapest_reason}.`,
    );
    const table = htmlView(body).tables['axis-cost']!;
    assert.deepEqual(
      table.map((r) => [r.cells[3]!.value, r.cells[5]!.text.startsWith('not compared')]),
      cost.models.map((m) => [String(m.cost!.per_item_usd), true]),
    );
  });
});
