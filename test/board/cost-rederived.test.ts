/**
 * `GET /api/cost?axis=` re-derived by a reader who shares no code with src/ (issue 40 item 4):
 * from the published rows (`/peritem/<axis>.jsonl`), the published price list
 * (`/peritem/prices.json`) and the pairs of `/api/models?axis=` (the document the rule names;
 * test/board/models-rederived.test.ts re-derives those), every figure is computed (test/helpers/cost-rederive.ts) by the
 * formulas of docs/methodology.md §11: the price that applies, each row's cost, the coverage, the
 * total, the cost per item and per correct answer with their 95% intervals, dominance, the
 * leader's group with its costs and the cheapest of them. Then the corpus worked out by hand,
 * the worked example of §11, no price → no cost, and the board unchanged.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { demoApp } from '../helpers/app.js';
import { type CostRow, handCorpus, randomCostCorpus, writeCorpus } from '../helpers/cost-corpus.js';
import { close, getJson, rederive, Z } from '../helpers/cost-rederive.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */

describe('/api/cost re-derived from the rows, the price list and /api/models', () => {
  /** What the random corpora showed, so the last test can check each rule was exercised. */
  const seen = new Set<string>();
  for (const seed of [1, 2, 3, 4, 5, 6])
    it(`random corpus, seed ${seed} (${seed % 2 === 1 ? 'clustered' : 'independent rows'})`, async () => {
      const { app } = demoApp(randomCostCorpus(seed));
      const doc = await rederive(app);
      const byName = (n: string) => doc.models.find((m: any) => m.model === n);
      assert.equal(byName('r/delta').price, null, 'a model without a price');
      assert.equal(byName('r/delta').cost, null);
      assert.match(byName('r/delta').cost_reason, /no price/);
      assert.equal(byName('r/silent').rows_with_tokens, 0);
      assert.match(byName('r/silent').cost_reason, /no row carries both/);
      assert.ok(
        doc.models.some((m: any) => m.cost !== null && m.cost.rows < m.rows),
        'partial coverage: some costs are over fewer rows than the model has',
      );
      for (const m of doc.models) seen.add(`dominated:${String(m.dominated)}`);
      if (doc.models.some((m: any) => m.separated_above_partial_cost)) seen.add('separated above with a partial cost');
      if (doc.cheapest_not_separated?.partial_cost.length > 0) seen.add('cheapest beside a member with a partial cost');
      if (doc.cheapest_not_separated !== null) seen.add('cheapest');
      if (doc.cheapest_not_separated?.without_cost.length > 0) seen.add('cheapest beside a member without cost');
      if (doc.models.some((m: any) => m.price === null && m.prices_listed > 0)) seen.add('only later prices');
      if (doc.models.some((m: any) => m.prices_listed > 1 && m.price !== null)) seen.add('a choice among prices');
    });

  it('the random corpora exercised every rule', () => {
    assert.deepEqual([...seen].sort(), [
      'a choice among prices',
      'cheapest',
      'cheapest beside a member with a partial cost',
      'cheapest beside a member without cost',
      'dominated:false',
      'dominated:null',
      'dominated:true',
      'only later prices',
      'separated above with a partial cost',
    ]);
  });

  it('the corpus worked out by hand (test/helpers/cost-corpus.ts)', async () => {
    const { app } = demoApp(handCorpus());
    const doc = await rederive(app);
    const m = (n: string) => doc.models.find((x: any) => x.model === n);
    assert.equal(doc.leader, 'h/top');
    assert.deepEqual(
      doc.leader_group.map((g: any) => [g.model, g.cost.per_item_usd]),
      [
        ['h/top', m('h/top').cost.per_item_usd],
        ['h/near', m('h/near').cost.per_item_usd],
      ],
    );
    close(m('h/top').cost.per_item_usd, 0.0105, 'top: (1000·3 + 500·15)/10⁶');
    assert.equal(m('h/top').price.read_on, '2026-10-01', 'the latest price on or before 2026-11-01');
    assert.equal(m('h/top').prices_listed, 3);
    close(m('h/near').cost.per_item_usd, 0.002, 'near');
    assert.deepEqual([m('h/near').rows, m('h/near').rows_with_tokens, m('h/near').cost.correct], [60, 50, 48]);
    close(m('h/near').cost.per_correct_usd, (50 * 0.002) / 48, 'near per correct: 50 rows costed, 48 of them correct');
    // h/near's $0.002 is over 50 of its 60 rows: not compared (decision CO10), on either side.
    assert.equal(doc.cheapest_not_separated.model, 'h/top', 'the leader: h/near has a cost over part of its rows');
    assert.equal(doc.cheapest_not_separated.with_leader, 'leader');
    assert.deepEqual(doc.cheapest_not_separated.without_cost, []);
    assert.deepEqual(doc.cheapest_not_separated.partial_cost, ['h/near']);
    assert.deepEqual(doc.cheaper_untested, []);
    assert.equal(doc.cheapest_not_separated.group, 2);
    assert.deepEqual(
      doc.models.map((x: any) => [x.model, x.dominated, x.dominated_by]),
      [
        ['h/top', false, []],
        ['h/own', null, []],
        ['h/near', null, []],
        ['h/mid', null, []],
        ['h/unpriced', null, []],
        ['h/low', true, ['h/top', 'h/mid']],
        ['h/thrifty', null, []],
      ],
    );
    assert.match(m('h/near').dominance_reason, /covers only part of its rows/);
    assert.deepEqual(m('h/mid').separated_above_partial_cost, ['h/near']);
    assert.equal(m('h/mid').separated_above_without_cost, undefined);
    assert.deepEqual(m('h/thrifty').separated_above_without_cost, ['h/unpriced']);
    assert.deepEqual(m('h/thrifty').separated_above_partial_cost, ['h/near']);
    assert.match(m('h/thrifty').dominance_reason, /whether it is dominated is unknown/);
    assert.equal(m('h/unpriced').price, null);
    assert.match(
      m('h/unpriced').price_reason,
      /read after the release's day \(2026-11-01\); the earliest on 2026-11-15/,
    );
    assert.match(m('h/own').dominance_reason, /own model/);
    assert.equal(doc.dominated, 1);
    close(m('h/thrifty').cost.per_item_usd, 0.001, 'thrifty: 1000·1/10⁶');
  });

  it('no more expensive includes equal: a model separated below another of the same cost is dominated', async () => {
    const rows: CostRow[] = Array.from({ length: 20 }, (_, i) =>
      ['e/better', 'e/worse'].map((model) => ({
        item: `q${i}`,
        model,
        gold: 'A',
        label: model === 'e/worse' && i >= 5 ? 'B' : 'A',
        input_tokens: 100,
        output_tokens: 10,
      })),
    ).flat();
    const prices = ['e/better', 'e/worse'].map((model) => ({
      model,
      input_usd_per_mtok: 1,
      output_usd_per_mtok: 1,
      read_on: '2026-10-01',
      source: 'one price page',
    }));
    const { app } = demoApp(writeCorpus(rows, prices));
    const doc = await rederive(app);
    const worse = doc.models.find((m: any) => m.model === 'e/worse');
    assert.equal(worse.cost.per_item_usd, doc.models.find((m: any) => m.model === 'e/better').cost.per_item_usd);
    assert.deepEqual([worse.dominated, worse.dominated_by], [true, ['e/better']]);
  });

  it('a model never paired with the leader is in its group as UNTESTED, not as a tie, and is never the cheapest: named as cheaper but never compared', async () => {
    const rows: CostRow[] = [];
    for (let i = 0; i < 30; i++) {
      rows.push({ item: `q${i}`, model: 'u/lead', gold: 'A', label: 'A', input_tokens: 100, output_tokens: 50 });
      rows.push({
        item: `q${i}`,
        model: 'u/low',
        gold: 'A',
        label: i < 5 ? 'A' : 'B',
        input_tokens: 100,
        output_tokens: 50,
      });
      // u/apart answered other items only: it shares none with the others, so no pair is tested.
      rows.push({
        item: `z${i}`,
        model: 'u/apart',
        gold: 'A',
        label: i === 0 ? 'B' : 'A',
        input_tokens: 10,
        output_tokens: 5,
      });
    }
    const prices = ['u/lead', 'u/low', 'u/apart'].map((model) => ({
      model,
      input_usd_per_mtok: 1,
      output_usd_per_mtok: 1,
      read_on: '2026-10-01',
      source: 'price page',
    }));
    const { app } = demoApp(writeCorpus(rows, prices));
    const doc = await rederive(app);
    assert.deepEqual(
      doc.leader_group.map((g: any) => [g.model, g.with_leader]),
      [
        ['u/lead', 'leader'],
        ['u/apart', 'UNTESTED'],
      ],
    );
    const apart = doc.leader_group.find((g: any) => g.model === 'u/apart');
    assert.equal(apart.with_leader, 'UNTESTED');
    assert.equal(typeof apart.untested_reason, 'string');
    assert.equal(doc.cheapest_not_separated.model, 'u/lead', 'chosen among the members compared with the leader');
    assert.deepEqual(doc.cheaper_untested, ['u/apart']);
  });

  /** 100 items, gold A; each model right on its first k; `tokens` the rows (by index) carrying counts. */
  const threeModels = (spec: { model: string; k: number; tokens: (i: number) => boolean; out: number }[]) =>
    Array.from({ length: 100 }, (_, i) =>
      spec.map(
        (s): CostRow => ({
          item: `q${String(i).padStart(3, '0')}`,
          model: s.model,
          gold: 'A',
          label: i < s.k ? 'A' : 'B',
          ...(s.tokens(i) && { input_tokens: 100, output_tokens: s.out }),
        }),
      ),
    ).flat();
  const onePrice = (models: string[]) =>
    models.map((model) => ({
      model,
      input_usd_per_mtok: 1,
      output_usd_per_mtok: 1,
      read_on: '2026-10-01',
      source: 'price page',
    }));

  it('a cost over part of its rows dominates nothing and is not dominated; no cheapest is named from it (CO10)', async () => {
    // Review: x/strong's $0.000001 was over 1 of its 100 rows, and x/mid read "dominated by x/strong".
    const rows = threeModels([
      { model: 'x/strong', k: 90, tokens: (i) => i === 0, out: 0 },
      { model: 'x/mid', k: 70, tokens: () => true, out: 10 },
      { model: 'x/weak', k: 40, tokens: () => true, out: 10 },
    ]);
    const { app } = demoApp(writeCorpus(rows, onePrice(['x/strong', 'x/mid', 'x/weak'])));
    const doc = await rederive(app);
    const m = (n: string) => doc.models.find((x: any) => x.model === n);
    assert.deepEqual([m('x/strong').rows_with_tokens, m('x/strong').rows], [1, 100]);
    assert.equal(m('x/strong').cost.per_item_usd, 1e-4, '100 input tokens at $1 per Mtok, on its one row');
    assert.deepEqual([m('x/mid').dominated, m('x/mid').dominated_by], [null, []]);
    assert.deepEqual(m('x/mid').separated_above_partial_cost, ['x/strong']);
    assert.match(m('x/mid').dominance_reason, /a cost over part of their rows only/);
    assert.deepEqual([m('x/strong').dominated, m('x/strong').dominated_by], [null, []]);
    assert.match(m('x/strong').dominance_reason, /covers only part of its rows/);
    // x/mid, with a full cost, still dominates x/weak (same cost, separated above it).
    assert.deepEqual([m('x/weak').dominated, m('x/weak').dominated_by], [true, ['x/mid']]);
    assert.deepEqual(
      doc.leader_group.map((g: any) => g.model),
      ['x/strong'],
    );
    assert.equal(doc.cheapest_not_separated, null, 'the only member has a cost over 1 of its 100 rows');
    assert.match(
      doc.cheapest_reason,
      /over every one of its rows \(with a cost over part of their rows only: x\/strong\)/,
    );
  });

  it('a model below a cheaper-or-equal model it was never compared with (UNTESTED: runs not like for like) is not compared, and is never the cheapest (CO11)', async () => {
    const rows = threeModels([
      { model: 'x/strong', k: 90, tokens: () => true, out: 50 },
      { model: 'x/mid', k: 70, tokens: () => true, out: 10 },
      { model: 'x/weak', k: 40, tokens: () => true, out: 10 },
    ]);
    const dir = writeCorpus(rows, onePrice(['x/strong', 'x/mid', 'x/weak']));
    const runs = [
      { model: 'x/strong', axis: 'quiz', shots: 0 },
      { model: 'x/mid', axis: 'quiz', shots: 0 },
      { model: 'x/weak', axis: 'quiz', shots: 5 },
    ];
    writeFileSync(join(dir, 'runs.json'), JSON.stringify({ schema: 'svc.gspc-corpus-runs/1', runs }));
    const { app } = demoApp(dir);
    const doc = await rederive(app);
    const m = (n: string) => doc.models.find((x: any) => x.model === n);
    assert.deepEqual(
      doc.leader_group.map((g: any) => [g.model, g.with_leader]),
      [
        ['x/strong', 'leader'],
        ['x/weak', 'UNTESTED'],
      ],
    );
    assert.deepEqual([m('x/weak').dominated, m('x/weak').untested_above], [null, ['x/mid']]);
    assert.match(m('x/weak').dominance_reason, /never compared with it \(UNTESTED\)/);
    assert.deepEqual([m('x/mid').dominated, m('x/mid').dominated_by], [false, []], 'x/strong costs more');
    assert.equal(doc.cheapest_not_separated.model, 'x/strong');
    assert.deepEqual(doc.cheaper_untested, ['x/weak']);
  });

  it('a worked example: docs/methodology.md §11', async () => {
    const rows: CostRow[] = [
      { item: 'q1', model: 'w/one', gold: 'A', label: 'A', input_tokens: 1000, output_tokens: 200 },
      { item: 'q2', model: 'w/one', gold: 'A', label: 'B', input_tokens: 1500, output_tokens: 300 },
      { item: 'q3', model: 'w/one', gold: 'B', label: 'B', input_tokens: 500, output_tokens: 100 },
      { item: 'q4', model: 'w/one', gold: 'B', label: null, input_tokens: 2000, output_tokens: 400 },
      { item: 'q5', model: 'w/one', gold: 'A', label: 'A', input_tokens: 700 },
      { item: 'q1', model: 'w/two', gold: 'A', label: 'A' },
    ];
    const prices = [
      { model: 'w/one', input_usd_per_mtok: 2, output_usd_per_mtok: 10, read_on: '2026-10-01', source: 'price page' },
    ];
    const { app } = demoApp(writeCorpus(rows, prices));
    const doc = await rederive(app);
    const one = doc.models.find((m: any) => m.model === 'w/one');
    assert.equal(one.rows, 5);
    assert.equal(one.rows_with_tokens, 4, 'the fifth row carries no output_tokens: not costed, not 0');
    const c = one.cost;
    close(c.total_usd, 0.02, 'total: 0.004 + 0.006 + 0.002 + 0.008');
    close(c.per_item_usd, 0.005, 'per item');
    // residuals −0.001, 0.001, −0.003, 0.003: SE = √(2·10⁻⁵)/4
    close(c.per_item_interval[0], 0.005 - Z * (Math.sqrt(2e-5) / 4), 'per item lower');
    close(c.per_item_interval[0], 0.0028087, 'per item lower, as printed', 1e-4);
    close(c.per_item_interval[1], 0.0071913, 'per item upper, as printed', 1e-4);
    assert.equal(c.correct, 2);
    close(c.per_correct_usd, 0.01, 'per correct');
    // residuals −0.006, 0.006, −0.008, 0.008: SE = √(2·10⁻⁴)/2
    close(c.per_correct_interval[0], 0, 'per correct lower, held at 0');
    close(c.per_correct_interval[1], 0.0238592, 'per correct upper, as printed', 1e-4);
    const two = doc.models.find((m: any) => m.model === 'w/two');
    assert.equal(two.cost, null);
    assert.match(two.cost_reason, /no price: no price in the price list; no row carries both/);
  });

  it('without prices.json: every model listed, none with a cost, no cheapest (and why)', async () => {
    const { app } = demoApp(writeCorpus(handRows()));
    const doc = await getJson(app, '/api/cost?axis=quiz');
    assert.equal(doc.prices, null);
    assert.equal(doc.priced, 0);
    assert.equal(doc.costed, 0);
    assert.ok(doc.models.every((m: any) => m.cost === null && m.price === null && m.dominated === null));
    assert.equal(doc.cheapest_not_separated, null);
    assert.match(doc.cheapest_reason, /no model of the leader's group has a cost/);
    assert.deepEqual(
      doc.leader_group.map((g: any) => [g.model, g.cost]),
      [
        ['h/a', null],
        ['h/b', null],
      ],
    );
  });

  it('the board is the one the same rows give without a price list (only the manifest hash moves)', async () => {
    const board = async (dir: string) => {
      const { app } = demoApp(dir);
      const b = (await app.inject({ url: '/api/gspc' })).json() as any;
      delete b.measured_on.peritem_sha256; // prices.json is a published file: the manifest covers it
      for (const k of Object.keys(b)) if (/attest|signature/.test(k)) delete b[k];
      return b;
    };
    const rows = handRows();
    assert.deepEqual(
      await board(writeCorpus(rows)),
      await board(
        writeCorpus(rows, [
          { model: 'h/a', input_usd_per_mtok: 1, output_usd_per_mtok: 2, read_on: '2026-10-01', source: 'x' },
        ]),
      ),
    );
  });
});

/** Two models, tokens on every row, not separated (b = 1). */
function handRows(): CostRow[] {
  return [0, 1, 2, 3, 4, 5].flatMap((i) =>
    ['h/a', 'h/b'].map((model) => ({
      item: `q${i}`,
      model,
      gold: 'A',
      label: model === 'h/b' && i === 0 ? 'B' : 'A',
      input_tokens: 100,
      output_tokens: 10,
    })),
  );
}
