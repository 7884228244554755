/**
 * GET /api/reported (svc.reported-figures/0.1): figures reported by others, labelled REPORTED,
 * never MEASURED, never in the board's totals; absent → figures null with the reason.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { GspcError, type CorpusProblem } from '../../src/core/errors.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { reportedFiguresDemo, reportedFiles } from '../../demo/status/reported.js';
import { demoApp } from '../helpers/app.js';
import { demoCopy } from '../helpers/tmp.js';

type Json = Record<string, any>;
const write = (dir: string, path: string, text: string) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

function corpus(file?: unknown): string {
  const dir = demoCopy();
  rmSync(join(dir, 'status', 'reported.json'), { force: true });
  if (file !== undefined) write(dir, 'status/reported.json', json(file));
  return dir;
}

const problems = (dir: string): CorpusProblem[] => {
  try {
    readCorpus(dir);
  } catch (e) {
    assert.ok(e instanceof GspcError && e.code === 'corpus_invalid', String(e));
    return e.details!.problems as CorpusProblem[];
  }
  return assert.fail('the corpus was accepted');
};

describe('reported figures (GET /api/reported)', () => {
  const demo = reportedFiguresDemo();
  const withFile = demoApp(corpus(demo)).app;
  const without = demoApp(corpus()).app;

  it('serves the schema, kind REPORTED, quotable_as_measured false and the note; cached per release with an ETag', async () => {
    const r = await withFile.inject({ url: '/api/reported' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(r.headers['cache-control'], 'public, max-age=300');
    assert.equal(r.headers['access-control-allow-origin'], '*');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.equal(
      (await withFile.inject({ url: '/api/reported', headers: { 'if-none-match': r.headers.etag as string } }))
        .statusCode,
      304,
    );
    const doc = r.json() as Json;
    assert.equal(doc.schema, 'svc.reported-figures/0.1');
    assert.equal(doc.kind, 'REPORTED');
    assert.equal(doc.quotable_as_measured, false);
    assert.match(doc.note, /not measurements of this service/);
    assert.match(doc.note, /never counted in the board's totals/);
  });

  it('serves every figure with every field, each labelled REPORTED and never MEASURED', async () => {
    const doc = (await withFile.inject({ url: '/api/reported' })).json() as Json;
    assert.equal(doc.figures.length, demo.figures.length);
    doc.figures.forEach((f: Json, i: number) => {
      for (const k of ['subject', 'metric', 'value', 'unit', 'reported_by', 'source', 'as_of', 'note'])
        assert.deepEqual(f[k], (demo.figures[i] as Json)[k], k);
      assert.equal(f.kind, 'REPORTED');
    });
    // Nowhere in the document is a figure labelled MEASURED (the note may say "never MEASURED").
    const { note: _n, ...rest } = doc;
    assert.doesNotMatch(JSON.stringify(rest), /(^|[^A-Z_])MEASURED/);
  });

  it('reported figures never enter the board: totals and rows are the same with and without them', async () => {
    const a = (await withFile.inject({ url: '/api/gspc' })).json() as Json;
    const b = (await without.inject({ url: '/api/gspc' })).json() as Json;
    assert.deepEqual(a.totals, b.totals);
    assert.deepEqual(a.axes, b.axes);
  });

  it('without status/reported.json: 200 with figures null and the reason (never an empty list)', async () => {
    const doc = (await without.inject({ url: '/api/reported' })).json() as Json;
    assert.equal(doc.schema, 'svc.reported-figures/0.1');
    assert.equal(doc.kind, 'REPORTED');
    assert.equal(doc.figures, null);
    assert.match(doc.reason, /^unread: .*status\/reported\.json/);
  });

  it('an empty list in the file is read: figures [] and no reason', async () => {
    const doc = (await demoApp(corpus({ figures: [] })).app.inject({ url: '/api/reported' })).json() as Json;
    assert.deepEqual(doc.figures, []);
    assert.equal(doc.reason, undefined);
  });

  it('a query parameter is a 400 bad_query', async () => {
    const r = await withFile.inject({ url: '/api/reported?subject=demo%2Fatlas-70b' });
    assert.equal(r.statusCode, 400);
    assert.equal(r.json().code, 'bad_query');
  });
});

describe('status/reported.json rules', () => {
  const bad = (edit: (f: Json) => void) => {
    const f = structuredClone(reportedFiguresDemo()) as Json;
    edit(f);
    return problems(corpus(f)).filter((p) => p.file === 'status/reported.json');
  };

  it('the demo file is valid and deterministic', () => {
    const dir = corpus();
    for (const [p, t] of reportedFiles()) write(dir, p, t);
    assert.equal(readCorpus(dir).status.reported?.figures.length, reportedFiguresDemo().figures.length);
    assert.deepEqual(reportedFiles(), reportedFiles());
  });

  it('refuses a figure that calls itself MEASURED, a kind or status key, a non-number value, a bad date', () => {
    assert.ok(
      bad((f) => {
        f.figures[0].note = 'MEASURED by the vendor';
      }).some((p) => p.field === 'figures.0.note' && /MEASURED/.test(p.reason)),
    );
    assert.ok(
      bad((f) => {
        f.figures[0].kind = 'MEASURED';
      }).some((p) => p.field === 'figures.0' || p.field === 'figures.0.kind'),
    );
    assert.ok(
      bad((f) => {
        f.figures[1].value = '87%';
      }).some((p) => p.field === 'figures.1.value'),
    );
    assert.ok(
      bad((f) => {
        f.figures[1].as_of = 'last year';
      }).some((p) => p.field === 'figures.1.as_of'),
    );
    // UNMEASURED is a different word (the board's status of an unmeasured cell): allowed.
    const ok = structuredClone(reportedFiguresDemo()) as Json;
    ok.figures[0].note = 'UNMEASURED on this board; vendor figure only';
    assert.doesNotThrow(() => readCorpus(corpus(ok)));
  });
});
