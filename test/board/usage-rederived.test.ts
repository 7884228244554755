/**
 * `GET /api/usage?axis=` re-derived by a reader who shares no code with src/ (issue 40 item 3):
 * random corpora whose rows carry input tokens, output tokens and latency, each field missing on
 * some rows and on every row of one model, with and without clusters; every figure (coverage,
 * totals, means, per correct answer, their 95% intervals, the units) is computed here from the
 * published rows alone by the formulas of docs/methodology.md §10. A model with no such row shows
 * null, never 0; the board beside it is the one the same rows give without the usage fields.
 */
import assert from 'node:assert/strict';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { prng } from '../../demo/generate.js';
import { demoApp } from '../helpers/app.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */
const Z = 1.959963984540054;
const FIELDS = ['input_tokens', 'output_tokens', 'latency_ms'] as const;

interface Row {
  item: string;
  model: string;
  gold: string | string[];
  label: string | null;
  cluster?: string;
  input_tokens?: number | null;
  output_tokens?: number | null;
  latency_ms?: number | null;
}

const close = (a: number | null, b: number | null, what: string, tol = 1e-9) => {
  if (a === null || b === null) return assert.equal(a, b, what);
  assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: served ${a}, re-derived ${b}`);
};

/**
 * R = Σx/Σy with its interval: residuals x − R·y summed per unit (a row, or a cluster), squared,
 * summed, rooted, over Σy; z = 1.96…; the lower bound held at 0; none below two units.
 */
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

async function rederive(app: FastifyInstance, axis: string): Promise<any> {
  const get = async (url: string) => {
    const r = await app.inject({ url });
    assert.equal(r.statusCode, 200, url);
    return r;
  };
  const doc = (await get(`/api/usage?axis=${axis}`)).json() as any;
  assert.equal(doc.schema, 'svc.gspc-usage/0.1');
  const rows = (await get(`/peritem/${axis}.jsonl`)).body
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Row);
  const clustered = rows.every((r) => typeof r.cluster === 'string');
  assert.equal(doc.clustered, clustered);
  const models = [...new Set(rows.map((r) => r.model))].sort();
  assert.deepEqual(
    doc.models.map((m: any) => m.model),
    models,
  );
  for (const model of models) {
    const mine = rows.filter((r) => r.model === model);
    const m = doc.models.find((x: any) => x.model === model);
    const right = (r: Row) =>
      r.label !== null && (Array.isArray(r.gold) ? r.gold.includes(r.label) : r.gold === r.label);
    assert.equal(m.rows, mine.length);
    assert.equal(m.correct, mine.filter(right).length);
    for (const f of FIELDS) {
      const carry = mine.filter((r) => typeof r[f] === 'number');
      assert.equal(m.coverage[f], carry.length, `${model} ${f} coverage`);
      if (carry.length === 0) {
        assert.equal(m[f], null, `${model} ${f}: no row carries it, so null (never 0)`);
        continue;
      }
      const xs = carry.map((r) => r[f] as number);
      const units = carry.map((r, i) => (clustered ? `c:${r.cluster}` : `r:${i}`));
      const mean = ratio(
        xs,
        xs.map(() => 1),
        units,
      )!;
      const perCorrect = ratio(
        xs,
        carry.map((r) => (right(r) ? 1 : 0)),
        units,
      );
      const g = m[f];
      const what = `${model} ${f}`;
      assert.equal(g.rows, carry.length, what);
      close(
        g.total,
        xs.reduce((a, b) => a + b, 0),
        `${what} total`,
      );
      close(g.mean, mean.r, `${what} mean`);
      assert.equal(g.units, mean.units, `${what} units`);
      close(g.mean_interval?.[0] ?? null, mean.interval?.[0] ?? null, `${what} mean lower`);
      close(g.mean_interval?.[1] ?? null, mean.interval?.[1] ?? null, `${what} mean upper`);
      assert.equal(g.correct, carry.filter(right).length, what);
      close(g.per_correct, perCorrect?.r ?? null, `${what} per correct`);
      close(g.per_correct_interval?.[0] ?? null, perCorrect?.interval?.[0] ?? null, `${what} per correct lower`);
      close(g.per_correct_interval?.[1] ?? null, perCorrect?.interval?.[1] ?? null, `${what} per correct upper`);
      if (f !== 'latency_ms') assert.ok(Number.isInteger(g.total), `${what}: tokens add up to a whole number`);
    }
  }
  return doc;
}

/**
 * The demo corpus with `care` replaced by random rows with usage: five models, one carrying no
 * usage at all, each field missing on about a tenth of the others' rows (absent or null), some
 * unparsed rows, missing rows; odd seeds put items in passages of four (clusters).
 */
function randomCorpus(seed: number, withUsage = true): string {
  const next = prng(seed);
  const dir = join(tempDir(), 'corpus');
  cpSync(demoCorpus, dir, { recursive: true });
  const models = ['u/alpha', 'u/beta', 'u/gamma', 'u/delta', 'u/silent'];
  const labels = ['A', 'B', 'C'];
  const rows: string[] = [];
  for (let i = 0; i < 90; i++) {
    const item = `care/${String(i).padStart(4, '0')}`;
    const gold = labels[Math.floor(next() * 3)]!;
    const promptLength = 40 + Math.floor(next() * 400);
    models.forEach((model, k) => {
      if (next() < 0.06) return;
      const label = next() < 0.06 ? null : next() < 0.4 + 0.1 * k ? gold : labels.find((l) => l !== gold)!;
      const row: Row = { item, model, gold, label };
      if (seed % 2 === 1) row.cluster = `passage-${Math.floor(i / 4)}`;
      // Drawn for every row, kept or not, so the rows without usage are the same rows.
      const usage: Partial<Row> = {};
      const drop = () => (next() < 0.1 ? (next() < 0.5 ? 'absent' : 'null') : 'keep');
      const inDrop = drop();
      if (inDrop !== 'absent') usage.input_tokens = inDrop === 'keep' ? promptLength + k : null;
      const outDrop = drop();
      const out = Math.floor(next() * 300 * (k + 1));
      if (outDrop !== 'absent') usage.output_tokens = outDrop === 'keep' ? out : null;
      const msDrop = drop();
      const ms = Math.round(next() * 9000000) / 1000;
      if (msDrop !== 'absent') usage.latency_ms = msDrop === 'keep' ? ms : null;
      if (withUsage && model !== 'u/silent') Object.assign(row, usage);
      rows.push(JSON.stringify(row));
    });
  }
  writeFileSync(join(dir, 'peritem', 'care.jsonl'), `${rows.join('\n')}\n`);
  writeAxis(dir);
  return dir;
}

/** `care` as a MEASURED axis over the labels A, B, C. */
function writeAxis(dir: string): void {
  writeFileSync(
    join(dir, 'axes', 'care.json'),
    JSON.stringify({
      axis: 'care',
      family: 'behavioural',
      kind: 'model-comparison',
      status: 'MEASURED',
      title: 'Random usage',
      bench: 'random',
      task: 'random rows',
      dataset: 'random',
      labels: ['A', 'B', 'C'],
    }),
  );
}

describe('/api/usage re-derived from the rows on random corpora', () => {
  for (const seed of [1, 2, 3, 4])
    it(`seed ${seed} (${seed % 2 === 1 ? 'clustered' : 'independent rows'})`, async () => {
      const { app } = demoApp(randomCorpus(seed));
      const doc = await rederive(app, 'care');
      const silent = doc.models.find((m: any) => m.model === 'u/silent');
      assert.deepEqual([silent.input_tokens, silent.output_tokens, silent.latency_ms], [null, null, null]);
      assert.ok(
        doc.models.some((m: any) => m.input_tokens !== null && m.input_tokens.rows < m.rows),
        'some rows lack a field: the figures are over the rows that carry it',
      );
      if (seed % 2 === 1)
        assert.ok(doc.models.every((m: any) => m.input_tokens === null || m.input_tokens.units < m.input_tokens.rows));
    });

  it('the board is the one the same rows give without their usage fields', async () => {
    const board = async (dir: string) => {
      const { app } = demoApp(dir);
      const b = (await app.inject({ url: '/api/gspc' })).json() as any;
      delete b.measured_on.peritem_sha256; // the rows' bytes differ: that is their hash's job
      for (const k of Object.keys(b)) if (/attest|signature/.test(k)) delete b[k];
      return b;
    };
    assert.deepEqual(await board(randomCorpus(3)), await board(randomCorpus(3, false)));
  });

  it('every demo axis: models without usage rows show null, never 0; aggregate-only and unknown axes', async () => {
    const { app } = demoApp();
    for (const axis of ['governance', 'continuity']) {
      const doc = (await app.inject({ url: `/api/usage?axis=${axis}` })).json() as any;
      assert.ok(doc.models.length >= 2, axis);
      for (const m of doc.models) {
        assert.deepEqual([m.input_tokens, m.output_tokens, m.latency_ms], [null, null, null], `${axis} ${m.model}`);
        assert.deepEqual(m.coverage, { input_tokens: 0, output_tokens: 0, latency_ms: 0 });
      }
    }
    const unknown = await app.inject({ url: '/api/usage?axis=nope' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, 'unknown_axis');
    assert.equal((await app.inject({ url: '/api/usage' })).statusCode, 400);
  });

  it('a worked example: docs/methodology.md §10', async () => {
    const dir = join(tempDir(), 'corpus');
    cpSync(demoCorpus, dir, { recursive: true });
    const rows = [
      { item: 'care/1', model: 'w/one', gold: 'A', label: 'A', output_tokens: 100 },
      { item: 'care/2', model: 'w/one', gold: 'A', label: 'B', output_tokens: 300 },
      { item: 'care/3', model: 'w/one', gold: 'B', label: 'B', output_tokens: 200 },
      { item: 'care/4', model: 'w/one', gold: 'B', label: null, output_tokens: 400 },
      { item: 'care/5', model: 'w/one', gold: 'C', label: 'C' },
      { item: 'care/1', model: 'w/two', gold: 'A', label: 'A' },
    ];
    writeFileSync(join(dir, 'peritem', 'care.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    writeAxis(dir);
    const { app } = demoApp(dir);
    const doc = await rederive(app, 'care');
    const one = doc.models.find((m: any) => m.model === 'w/one');
    assert.deepEqual(one.coverage, { input_tokens: 0, output_tokens: 4, latency_ms: 0 });
    const o = one.output_tokens;
    assert.equal(o.total, 1000);
    assert.equal(o.mean, 250);
    // SE = √(150² + 50² + 50² + 150²)/4 = √50000/4 = 55.9017…; 250 ± 1.96·55.9017
    close(o.mean_interval[0], 250 - Z * (Math.sqrt(50000) / 4), 'lower');
    close(o.mean_interval[0], 140.4347, 'lower, as printed', 1e-6);
    close(o.mean_interval[1], 359.5653, 'upper, as printed', 1e-6);
    assert.equal(o.correct, 2);
    assert.equal(o.per_correct, 500);
    // residuals 100 − 500, 300, 200 − 500, 400: (−400)² + 300² + (−300)² + 400² = 500000; SE = √500000/2
    close(o.per_correct_interval[0], 0, 'per correct lower, held at 0');
    close(o.per_correct_interval[1], 500 + Z * (Math.sqrt(500000) / 2), 'per correct upper');
    close(o.per_correct_interval[1], 1192.9519, 'per correct upper, as printed', 1e-6);
    const two = doc.models.find((m: any) => m.model === 'w/two');
    assert.equal(two.output_tokens, null);
  });
});
