/**
 * GET /api/east-west-bench (svc.east-west-bench/0.1): derived from the served per-item rows.
 * A hand-built corpus with a known answer (one SEPARATED, one TIE, UNTESTED rows) is re-derived
 * here from the raw rows with code that shares nothing with the service: its own ranking, its own
 * pairing, Wilson by formula and the exact McNemar p by BigInt binomial sums.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { GspcError, type CorpusProblem } from '../../src/core/errors.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { east_westFiles } from '../../demo/status/east-west.js';
import { demoApp } from '../helpers/app.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';

type Row = { item: string; model: string; gold: string; label: string | null };
type Json = Record<string, any>;

const write = (dir: string, path: string, text: string) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

const OWN = 'own/sentinel';
const GROUPS = { east: ['east/e1', 'east/e2', OWN], west: ['west/w1', 'west/w2'] };

/** Rows where `model` answers item i correctly iff right(i); null label iff unparsed(i). */
function rows(
  axis: string,
  items: number,
  model: string,
  right: (i: number) => boolean,
  unparsed: (i: number) => boolean = () => false,
): Row[] {
  return Array.from({ length: items }, (_, i) => {
    const gold = i % 2 === 0 ? 'A' : 'B';
    return {
      item: `${axis}/${String(i).padStart(3, '0')}`,
      model,
      gold,
      label: unparsed(i) ? null : right(i) ? gold : gold === 'A' ? 'B' : 'A',
    };
  });
}

/** A small corpus whose east-west answer is known by construction. */
function handCorpus(): string {
  const dir = join(tempDir(), 'corpus');
  const axes = ['sep', 'tie', 'west-only', 'aggregate', 'draft'];
  write(
    dir,
    'board.json',
    json({
      schema: 'svc.gspc-corpus/1',
      issuer: 'Test lab (fictitious)',
      doi: '10.0000/test',
      as_of: '2026-11-01T00:00:00Z',
      measured_on: { model: 'test rows', date: 'test', grading: 'exact label' },
      own_models: [OWN],
      axes,
    }),
  );
  const comparison = (axis: string, extra: Json = {}) =>
    write(
      dir,
      `axes/${axis}.json`,
      json({
        axis,
        family: 'test',
        kind: 'model-comparison',
        status: 'MEASURED',
        bench: `bench-${axis}`,
        task: 'pick A or B',
        dataset: `test/${axis}`,
        labels: ['A', 'B'],
        ...extra,
      }),
    );
  const jsonl = (axis: string, all: Row[]) =>
    write(dir, `peritem/${axis}.jsonl`, all.map((r) => JSON.stringify(r)).join('\n') + '\n');
  // sep: west/w1 right on all 20; east/e1 right on 0-9, unparsed on 19 (so 19 paired items, c = 9, b = 0);
  // the own model is perfect and listed east: it must be excluded, not lead the east group.
  comparison('sep');
  jsonl('sep', [
    ...rows(
      'sep',
      20,
      'east/e1',
      (i) => i < 10,
      (i) => i === 19,
    ),
    ...rows('sep', 20, 'east/e2', (i) => i < 5),
    ...rows('sep', 20, 'west/w1', () => true),
    ...rows('sep', 20, 'west/w2', (i) => i < 15),
    ...rows('sep', 20, OWN, () => true),
    ...rows('sep', 20, 'other/x', (i) => i < 3),
  ]);
  // tie: e1 right on 0-7, w1 right on 1-8: b = 1, c = 1, p = 1.
  comparison('tie');
  jsonl('tie', [...rows('tie', 10, 'east/e1', (i) => i <= 7), ...rows('tie', 10, 'west/w1', (i) => i >= 1 && i <= 8)]);
  // west-only: no east model at all.
  comparison('west-only');
  jsonl('west-only', [
    ...rows('west-only', 12, 'west/w1', (i) => i < 9),
    ...rows('west-only', 12, 'west/w2', (i) => i < 4),
  ]);
  // aggregate: both groups, no per-item rows.
  comparison('aggregate', {
    n: 50,
    results: [
      { model: 'east/e1', correct: 40, parsed: 48, total: 50 },
      { model: 'west/w1', correct: 30, parsed: 50, total: 50 },
    ],
  });
  // draft: not MEASURED, not on the bench.
  comparison('draft', { status: 'DRAFT', n: 10 });
  write(dir, 'status/east-west.json', json({ groups: GROUPS, basis: 'Test grouping by model-id prefix.' }));
  return dir;
}

// ---- the independent re-derivation ----
const Z = 1.959963984540054;
function wilson(k: number, n: number): [number, number] {
  const p = k / n;
  const d = 1 + (Z * Z) / n;
  const centre = (p + (Z * Z) / (2 * n)) / d;
  const half = (Z * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n))) / d;
  return [k === 0 ? 0 : Math.max(0, centre - half), k === n ? 1 : Math.min(1, centre + half)];
}
function mcnemarP(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  let term = 1n;
  let tail = 1n;
  for (let i = 0; i < Math.min(b, c); i++) {
    term = (term * BigInt(n - i)) / BigInt(i + 1);
    tail += term;
  }
  return Math.min(1, Number(2n * tail) / 2 ** n);
}
const close = (a: number, b: number, what: string) =>
  assert.ok(Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

function expectedAxis(all: Row[]) {
  const outcome = new Map<string, Map<string, boolean | null>>();
  for (const r of all) {
    if (!outcome.has(r.model)) outcome.set(r.model, new Map());
    outcome.get(r.model)!.set(r.item, r.label === null ? null : r.label === r.gold);
  }
  const figures = (m: string) => {
    const v = [...outcome.get(m)!.values()];
    const parsed = v.filter((x) => x !== null);
    return { model: m, k: parsed.filter(Boolean).length, n: parsed.length, unparsed: v.length - parsed.length };
  };
  const best = (group: string[]) =>
    group
      .filter((m) => m !== OWN && outcome.has(m))
      .map(figures)
      .filter((f) => f.n > 0)
      .sort((x, y) => y.k / y.n - x.k / x.n || y.n - x.n || (x.model < y.model ? -1 : 1))[0];
  const east = best(GROUPS.east);
  const west = best(GROUPS.west);
  if (!east || !west) return { east, west, separation: 'UNTESTED' as const };
  let b = 0;
  let c = 0;
  let paired = 0;
  for (const [item, x] of outcome.get(east.model)!) {
    const y = outcome.get(west.model)!.get(item);
    if (x === null || y === null || y === undefined) continue;
    paired++;
    if (x && !y) b++;
    if (!x && y) c++;
  }
  const p = mcnemarP(b, c);
  return {
    east,
    west,
    b,
    c,
    paired,
    p,
    separation: p < 0.05 ? ('SEPARATED' as const) : ('TIE' as const),
    ahead: p < 0.05 ? (b > c ? 'east' : 'west') : undefined,
  };
}

describe('east-west bench (GET /api/east-west-bench)', () => {
  const dir = handCorpus();
  const { app } = demoApp(dir);
  const get = async (url = '/api/east-west-bench') => app.inject({ url });

  it('serves the schema, the groups and basis from the corpus, with cache headers', async () => {
    const r = await get();
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(r.headers['access-control-allow-origin'], '*');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.equal(r.headers['cache-control'], 'public, max-age=300');
    const etag = r.headers.etag as string;
    assert.equal(
      (await app.inject({ url: '/api/east-west-bench', headers: { 'if-none-match': etag } })).statusCode,
      304,
    );
    const doc = r.json() as Json;
    assert.equal(doc.schema, 'svc.east-west-bench/0.1');
    assert.equal(doc.as_of, '2026-11-01T00:00:00Z');
    assert.deepEqual(doc.groups, GROUPS);
    assert.equal(doc.basis, 'Test grouping by model-id prefix.');
    assert.match(doc.rule, /a tie is not a win/);
    assert.ok(doc.limitations.some((l: string) => /TIE is not a win/.test(l)));
  });

  it('covers every MEASURED model-comparison axis in board order, and only those', async () => {
    const doc = (await get()).json() as Json;
    assert.deepEqual(
      doc.axes.map((a: Json) => a.axis),
      ['sep', 'tie', 'west-only', 'aggregate'],
    );
  });

  it('re-derives each row from the per-item rows: leaders, k/n, Wilson, b, c, exact McNemar p, decision', async () => {
    const doc = (await get()).json() as Json;
    const known = { sep: 'SEPARATED', tie: 'TIE', 'west-only': 'UNTESTED' } as const;
    for (const [axis, want] of Object.entries(known)) {
      const raw = readFileSync(join(dir, 'peritem', `${axis}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Row);
      const e = expectedAxis(raw);
      const a = doc.axes.find((x: Json) => x.axis === axis);
      assert.equal(e.separation, want, `${axis}: the hand corpus is built for ${want}`);
      assert.equal(a.separation, e.separation, axis);
      for (const [g, f] of [
        ['east', e.east],
        ['west', e.west],
      ] as const) {
        if (!f) {
          assert.equal(a.leaders[g], undefined, `${axis}: no ${g} leader key`);
          continue;
        }
        const l = a.leaders[g];
        assert.deepEqual([l.model, l.k, l.n, l.unparsed], [f.model, f.k, f.n, f.unparsed], `${axis} ${g}`);
        assert.equal(l.accuracy, f.k / f.n);
        const [lo, hi] = wilson(f.k, f.n);
        close(l.interval[0], lo, `${axis} ${g} lower`);
        close(l.interval[1], hi, `${axis} ${g} upper`);
      }
      if (e.separation === 'UNTESTED') {
        assert.equal(a.test, undefined);
        assert.match(a.separation_basis, /no public east model/);
        continue;
      }
      assert.deepEqual([a.test.b, a.test.c, a.test.paired_items], [e.b, e.c, e.paired], axis);
      close(a.test.p, e.p!, `${axis} p`);
      assert.equal(a.test.test, 'exact McNemar, two-sided');
      assert.equal(a.test.alpha, 0.05);
      assert.equal(a.ahead, e.ahead, `${axis} ahead`);
    }
  });

  it('knows the answer it was built for: sep is west ahead at p = 2^-8, the own model is excluded, unparsed items are not paired', async () => {
    const sep = ((await get()).json() as Json).axes.find((x: Json) => x.axis === 'sep');
    assert.equal(sep.leaders.east.model, 'east/e1');
    assert.deepEqual([sep.leaders.east.k, sep.leaders.east.n, sep.leaders.east.unparsed], [10, 19, 1]);
    assert.deepEqual([sep.test.b, sep.test.c, sep.test.paired_items], [0, 9, 19]);
    assert.equal(sep.test.p, 2 ** -8);
    assert.equal(sep.ahead, 'west');
    assert.deepEqual(sep.excluded_own_models, [OWN]);
    assert.deepEqual(sep.models_on_axis, { east: 2, west: 2, ungrouped: 1 });
    const tie = ((await get()).json() as Json).axes.find((x: Json) => x.axis === 'tie');
    assert.deepEqual([tie.test.b, tie.test.c, tie.test.p], [1, 1, 1]);
    assert.equal(tie.ahead, undefined, 'a TIE names no group ahead');
  });

  it('an axis without per-item rows is UNTESTED (never a tie), with both leaders from the aggregate results', async () => {
    const agg = ((await get()).json() as Json).axes.find((x: Json) => x.axis === 'aggregate');
    assert.equal(agg.separation, 'UNTESTED');
    assert.match(agg.separation_basis, /no published per-item rows/);
    assert.deepEqual(
      [agg.leaders.east.k, agg.leaders.east.n, agg.leaders.west.k, agg.leaders.west.n],
      [40, 48, 30, 50],
    );
  });

  it('counts are derived from the rows', async () => {
    const doc = (await get()).json() as Json;
    const by = (s: string) => doc.axes.filter((a: Json) => a.separation === s).length;
    assert.deepEqual(doc.counts, {
      axes: 4,
      separated: by('SEPARATED'),
      ties: by('TIE'),
      untested: by('UNTESTED'),
      east_ahead: 0,
      west_ahead: 1,
    });
    assert.deepEqual([doc.counts.separated, doc.counts.ties, doc.counts.untested], [1, 1, 2]);
  });

  it('a query parameter is a 400 bad_query', async () => {
    const r = await get('/api/east-west-bench?axis=sep');
    assert.equal(r.statusCode, 400);
    assert.equal(r.json().code, 'bad_query');
  });
});

describe('east-west bench without a groups file, and the groups file rules', () => {
  it('without status/east-west.json: 200 with null axes, groups and counts and the reason (never an empty bench)', async () => {
    const dir = demoCopy();
    rmSync(join(dir, 'status', 'east-west.json'), { force: true });
    const { app } = demoApp(dir);
    const doc = (await app.inject({ url: '/api/east-west-bench' })).json() as Json;
    assert.equal(doc.schema, 'svc.east-west-bench/0.1');
    for (const k of ['groups', 'basis', 'axes', 'counts']) assert.equal(doc[k], null, k);
    assert.match(doc.reason, /^unread: .*status\/east-west\.json/);
  });

  it('with the demo groups: one row per MEASURED comparison axis of the demo board, counts that add up', async () => {
    const dir = demoCopy();
    for (const [p, t] of east_westFiles()) write(dir, p, t);
    const { app } = demoApp(dir);
    const doc = (await app.inject({ url: '/api/east-west-bench' })).json() as Json;
    const board = (await app.inject({ url: '/api/gspc' })).json() as Json;
    const measured = board.axes
      .filter((r: Json) => r.status === 'MEASURED' && r.kind === 'model-comparison')
      .map((r: Json) => r.axis);
    assert.deepEqual(
      doc.axes.map((a: Json) => a.axis),
      measured,
    );
    assert.equal(doc.counts.separated + doc.counts.ties + doc.counts.untested, measured.length);
    assert.match(doc.basis, /SYNTHETIC DEMO/);
    // The refused one-label bank names no leader, as on the board.
    const refused = board.axes.find((r: Json) => r.bank_state === 'REFUSED_ONE_LABEL_MENU');
    if (refused) assert.deepEqual(doc.axes.find((a: Json) => a.axis === refused.axis).leaders, {});
  });

  const problems = (dir: string): CorpusProblem[] => {
    try {
      readCorpus(dir);
    } catch (e) {
      assert.ok(e instanceof GspcError && e.code === 'corpus_invalid');
      return e.details!.problems as CorpusProblem[];
    }
    return assert.fail('the corpus was accepted');
  };

  it('refuses a model in both groups, an empty group and unknown keys, with the file and field', () => {
    const dir = demoCopy();
    write(dir, 'status/east-west.json', json({ groups: { east: ['a/x', 'b/y'], west: ['b/y'] }, basis: 'x' }));
    assert.ok(
      problems(dir).some(
        (p) => p.file === 'status/east-west.json' && p.field === 'groups' && /both groups/.test(p.reason),
      ),
    );
    write(dir, 'status/east-west.json', json({ groups: { east: [], west: ['b/y'] }, basis: 'x', extra: 1 }));
    const ps = problems(dir);
    assert.ok(ps.some((p) => p.field === 'groups.east'));
    assert.ok(ps.some((p) => /extra/.test(p.reason) || p.field === 'extra'));
  });
});
