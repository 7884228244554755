/**
 * The reader of `GET /api/cost?axis=quiz` who shares no code with src/ (issue 40 item 4; used by
 * test/board/cost-rederived.test.ts): from the published rows (`/peritem/quiz.jsonl`), the
 * published price list (`/peritem/prices.json`) and the pairs of `/api/models?axis=quiz` (the
 * document the rule names), every figure is computed by the formulas of docs/methodology.md §11 and
 * compared with the served one: the price that applies, each row's cost, the coverage, the total,
 * the cost per item and per correct answer with their 95% intervals, dominance, the leader's group
 * with its costs and how each stands with the leader, and the cheapest of them.
 */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { AS_OF, type CostRow } from './cost-corpus.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */
export const Z = 1.959963984540054;

export const close = (a: number | null, b: number | null, what: string, tol = 1e-9) => {
  if (a === null || b === null) return assert.equal(a, b, what);
  assert.ok(Math.abs(a - b) <= tol * Math.max(1e-6, Math.abs(b)), `${what}: served ${a}, re-derived ${b}`);
};
const closePair = (a: [number, number] | null, b: [number, number] | null, what: string) => {
  close(a?.[0] ?? null, b?.[0] ?? null, `${what} lower`);
  close(a?.[1] ?? null, b?.[1] ?? null, `${what} upper`);
};

/** R = Σx/Σy; residuals summed per unit, squared, summed, rooted, over Σy; lower held at 0; none below two units. */
function ratio(xs: number[], ys: number[], units: string[]) {
  const sx = xs.reduce((a, b) => a + b, 0);
  const sy = ys.reduce((a, b) => a + b, 0);
  if (sy === 0) return null;
  const r = sx / sy;
  const perUnit: Record<string, number> = {};
  xs.forEach((x, i) => {
    perUnit[units[i]!] = (perUnit[units[i]!] ?? 0) + x - r * ys[i]!;
  });
  const u = Object.keys(perUnit).length;
  if (u < 2) return { r, interval: null, units: u };
  const se = Math.sqrt(Object.values(perUnit).reduce((a, e) => a + e * e, 0)) / sy;
  return { r, interval: [Math.max(0, r - Z * se), r + Z * se] as [number, number], units: u };
}

export async function getJson(app: FastifyInstance, url: string): Promise<any> {
  const r = await app.inject({ url });
  assert.equal(r.statusCode, 200, url);
  return r.json();
}

/** Re-derives every figure of /api/cost?axis=quiz and returns the served document. */
export async function rederive(app: FastifyInstance): Promise<any> {
  const doc = await getJson(app, '/api/cost?axis=quiz');
  assert.equal(doc.schema, 'svc.gspc-cost/0.2');
  assert.equal(doc.as_of, AS_OF);
  const models = await getJson(app, '/api/models?axis=quiz');
  const rowsText = (await app.inject({ url: '/peritem/quiz.jsonl' })).body;
  const rows = rowsText
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as CostRow);
  const pricesFile = await app.inject({ url: '/peritem/prices.json' });
  const prices: any[] = pricesFile.statusCode === 200 ? JSON.parse(pricesFile.body).prices : [];
  const clustered = rows.every((r) => typeof r.cluster === 'string');
  assert.equal(doc.clustered, clustered);
  assert.deepEqual(
    doc.models.map((m: any) => m.model),
    models.models.map((m: any) => m.model),
    'the models of /api/models, in its order',
  );
  const day = AS_OF.slice(0, 10);
  const perItem = new Map<string, number | null>();
  /** Whether a model's cost covers every one of its rows: only such a cost is compared. */
  const whole = new Map<string, boolean>();
  for (const mm of models.models) {
    const m = doc.models.find((x: any) => x.model === mm.model);
    const what = mm.model;
    assert.deepEqual(
      [m.own, m.rank, m.accuracy, m.interval, m.rows],
      [mm.own, mm.rank, mm.accuracy, mm.interval, mm.rows],
    );
    // The price: the latest read on or before the release's day.
    const mine = prices.filter((p) => p.model === mm.model);
    assert.equal(m.prices_listed, mine.length, `${what} prices listed`);
    const usable = mine.filter((p) => p.read_on <= day).sort((a, b) => (a.read_on < b.read_on ? 1 : -1));
    const price = usable[0] ?? null;
    if (price === null) {
      assert.equal(m.price, null, `${what}: no price applies`);
      assert.ok(typeof m.price_reason === 'string');
    } else {
      const { model: _, ...rest } = price;
      assert.deepEqual(m.price, rest, `${what} price`);
    }
    // The rows that carry both counts, and what each cost.
    const own = rows.filter((r) => r.model === mm.model);
    const costed = own.filter((r) => typeof r.input_tokens === 'number' && typeof r.output_tokens === 'number');
    assert.equal(m.rows_with_tokens, costed.length, `${what} rows with tokens`);
    assert.equal(m.rows, own.length, `${what} rows`);
    whole.set(mm.model, costed.length === own.length);
    if (price === null || costed.length === 0) {
      assert.equal(m.cost, null, `${what}: no price or no tokens is no cost, never 0`);
      assert.ok(typeof m.cost_reason === 'string' && m.cost_reason.length > 0, `${what}: says why`);
      perItem.set(mm.model, null);
      continue;
    }
    const xs = costed.map(
      (r) => (r.input_tokens! * price.input_usd_per_mtok + r.output_tokens! * price.output_usd_per_mtok) / 1e6,
    );
    const right = costed.map((r): number => (r.label !== null && r.label === r.gold ? 1 : 0));
    const units = costed.map((r, i) => (clustered ? `c:${r.cluster}` : `r:${i}`));
    const item = ratio(
      xs,
      xs.map(() => 1),
      units,
    )!;
    const correct = ratio(xs, right, units);
    const c = m.cost;
    assert.equal(c.rows, costed.length, what);
    close(
      c.total_usd,
      xs.reduce((a, b) => a + b, 0),
      `${what} total`,
    );
    close(c.per_item_usd, item.r, `${what} per item`);
    closePair(c.per_item_interval, item.interval, `${what} per item interval`);
    assert.equal(c.units, item.units, `${what} units`);
    assert.equal(
      c.correct,
      right.reduce((a, b) => a + b, 0),
      `${what} correct`,
    );
    close(c.per_correct_usd, correct?.r ?? null, `${what} per correct`);
    closePair(c.per_correct_interval, correct?.interval ?? null, `${what} per correct interval`);
    perItem.set(mm.model, c.per_item_usd);
  }
  // Dominance: separated (Holm, the public pairs of /api/models), better, and no more expensive,
  // each cost over every row of its model; unknown when a model above might dominate.
  const rankOf = new Map<string, number>(models.models.map((m: any) => [m.model, m.rank]));
  const full = (x: string) => (perItem.get(x) != null && whole.get(x) === true ? perItem.get(x)! : null);
  const byRank = (a: string, b: string) => rankOf.get(a)! - rankOf.get(b)!;
  for (const mm of models.models) {
    const m = doc.models.find((x: any) => x.model === mm.model);
    const cost = full(mm.model);
    if (mm.own || mm.rank === null || cost === null) {
      assert.equal(m.dominated, null, `${mm.model}: not compared`);
      assert.deepEqual(m.dominated_by, []);
      if (!mm.own && mm.rank !== null && perItem.get(mm.model) != null)
        assert.match(m.dominance_reason, /covers only part of its rows/, `${mm.model}: partial`);
      continue;
    }
    const mine = models.pairs.filter((p: any) => !p.own && (p.first === mm.model || p.second === mm.model));
    const other = (p: any) => (p.first === mm.model ? p.second : p.first);
    const above = mine
      .filter((p: any) => p.state === 'SEPARATED' && p.better !== mm.model)
      .map((p: any) => p.better as string);
    const by = above.filter((b: string) => full(b) !== null && full(b)! <= cost).sort(byRank);
    const noCost = above.filter((b: string) => perItem.get(b) == null).sort(byRank);
    const partial = above.filter((b: string) => perItem.get(b) != null && whole.get(b) !== true).sort(byRank);
    const untested = mine
      .filter((p: any) => p.state === 'UNTESTED' && rankOf.get(other(p))! < mm.rank)
      .map(other)
      .filter((b: string) => full(b) === null || full(b)! <= cost)
      .sort(byRank);
    assert.deepEqual(m.dominated_by, by, `${mm.model} dominated by`);
    const unknown = noCost.length + partial.length + untested.length > 0;
    assert.equal(m.dominated, by.length > 0 ? true : unknown ? null : false, `${mm.model} dominated`);
    const unknownLists = by.length === 0 && unknown;
    assert.deepEqual(m.separated_above_without_cost, unknownLists && noCost.length ? noCost : undefined);
    assert.deepEqual(m.separated_above_partial_cost, unknownLists && partial.length ? partial : undefined);
    assert.deepEqual(m.untested_above, unknownLists && untested.length ? untested : undefined);
  }
  assert.equal(doc.dominated, doc.models.filter((m: any) => m.dominated === true).length);
  assert.equal(doc.costed, [...perItem.values()].filter((v) => v !== null).length);
  // The leader's group, named with its cost, and its cheapest member.
  assert.deepEqual(
    doc.leader_group.map((g: any) => g.model),
    models.leader_group,
  );
  assert.equal(doc.leader, models.leader_group[0] ?? null);
  const leader = models.leader_group[0];
  for (const g of doc.leader_group) {
    assert.deepEqual(g.cost, doc.models.find((m: any) => m.model === g.model).cost, `${g.model} group cost`);
    const pair =
      g.model === leader
        ? undefined
        : models.pairs.find(
            (p: any) => !p.own && [p.first, p.second].includes(leader) && [p.first, p.second].includes(g.model),
          );
    assert.equal(g.with_leader, g.model === leader ? 'leader' : pair.state, `${g.model} with the leader`);
    assert.equal(g.untested_reason, pair?.state === 'UNTESTED' ? pair.reason : undefined);
  }
  // The cheapest: among the leader and its TIEs, each with a cost over every one of its rows.
  const stateWith = (x: string) => doc.leader_group.find((g: any) => g.model === x).with_leader;
  const compared = models.leader_group.filter((x: string) => stateWith(x) !== 'UNTESTED' && full(x) !== null);
  const cheapest = compared.reduce((a: string | null, x: string) => (a === null || full(x)! < full(a)! ? x : a), null);
  assert.equal(doc.cheapest_not_separated?.model ?? null, cheapest, 'the cheapest not separated from the leader');
  if (cheapest !== null) {
    assert.deepEqual(
      doc.cheapest_not_separated.without_cost,
      models.leader_group.filter((x: string) => perItem.get(x) == null),
    );
    assert.deepEqual(
      doc.cheapest_not_separated.partial_cost,
      models.leader_group.filter((x: string) => perItem.get(x) != null && whole.get(x) !== true),
    );
  } else assert.ok(typeof doc.cheapest_reason === 'string');
  assert.deepEqual(
    doc.cheaper_untested,
    models.leader_group.filter(
      (x: string) =>
        stateWith(x) === 'UNTESTED' && full(x) !== null && (cheapest === null || full(x)! < full(cheapest)!),
    ),
    'cheaper, but never compared with the leader',
  );
  return doc;
}
