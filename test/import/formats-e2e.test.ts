/**
 * `gspc import` end to end for Inspect AI, HELM and Every Eval Ever on the real fixtures
 * (test/fixtures/README.md): imported into a corpus, published, served, and read back from
 * GET /api/gspc; and `gspc export eee` of the demo release re-imported into a board with the same
 * cells. The readers' own tests (test/import/inspect/, helm.test.ts, eee.test.ts) check every
 * field and refusal; this file checks that the framework, the readers and the board agree.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { exportEee } from '../../src/export/export-eee.js';
import { publishRelease } from '../../src/release/publish.js';
import { demoApp, testSigning } from '../helpers/app.js';
import { fixturePath } from '../helpers/repo.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';
import { importQuiet } from './helpers.js';

type Row = { axis: string; accuracy?: number; n?: number; status: string; separation?: string; leader?: string };

async function servedRow(corpus: string, axis: string): Promise<Row> {
  const { app } = demoApp(corpus);
  const res = await app.inject({ url: `/api/gspc?axis=${axis}` });
  assert.equal(res.statusCode, 200, res.body);
  return (res.json() as { axes: Row[] }).axes[0]!;
}

describe('gspc import: Inspect AI, HELM and Every Eval Ever, published and served', () => {
  it('Inspect: the popularity run is served at 0.8 (8/10, as Inspect graded " Yes" against "Yes"), not 0', async () => {
    const corpus = join(tempDir(), 'corpus');
    const log = fixturePath('inspect', '2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval');
    const { result, out } = await importQuiet('inspect', [log], { into: corpus, axis: 'popularity' });
    assert.equal(result.totals.rows, 10);
    assert.match(out, /validate: ok/);
    const row = await servedRow(corpus, 'popularity');
    assert.equal(row.status, 'MEASURED');
    assert.equal(row.n, 10);
    assert.equal(row.accuracy, 0.8);
  });

  it('Inspect: the zstd and the deflate copy of one log import to the same corpus bytes', async () => {
    const a = join(tempDir(), 'a');
    const b = join(tempDir(), 'b');
    await importQuiet('inspect', [fixturePath('inspect', 'log_formats.eval')], {
      into: a,
      axis: 'formats',
      allowIncomplete: false,
    });
    await importQuiet('inspect', [fixturePath('inspect', 'derived', 'log_formats.zstd.eval')], {
      into: b,
      axis: 'formats',
    });
    const rowsOf = (c: string) =>
      readFileSync(join(c, 'peritem', 'formats.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => {
          const { source_sha256: _s, ...rest } = JSON.parse(l) as Record<string, unknown>;
          return rest;
        });
    assert.deepEqual(rowsOf(a), rowsOf(b));
  });

  it('Inspect: a log with no scored samples is refused as "no scored items", never served at 0', async () => {
    const log = fixturePath('inspect', '2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval');
    await assert.rejects(importQuiet('inspect', [log], { into: join(tempDir(), 'c') }), /no scored items/);
  });

  it('HELM: the MMLU philosophy run is served with the accuracy stats.json reports for the test split', async () => {
    const dir = fixturePath('helm', 'mmlu-philosophy-gpt2');
    const corpus = join(tempDir(), 'corpus');
    const { result, out } = await importQuiet('helm', [dir], {
      into: corpus,
      axis: 'philosophy',
      asOf: '2026-11-01T00:00:00Z',
    });
    assert.match(out, /validate: ok/);
    const stats = JSON.parse(readFileSync(join(dir, 'stats.json'), 'utf8')) as {
      name: { name: string; split: string; perturbation?: unknown };
      mean: number;
    }[];
    const em = stats.find((s) => s.name.name === 'exact_match' && s.name.split === 'test' && !s.name.perturbation)!;
    const row = await servedRow(corpus, 'philosophy');
    assert.equal(row.n, result.totals.items);
    // The board's accuracy is over parsed rows; with every row parsed it is HELM's exact_match mean.
    if (result.totals.unparsed === 0)
      assert.ok(Math.abs(row.accuracy! - em.mean) < 1e-12, `${row.accuracy} vs ${em.mean}`);
  });

  it('--as-of takes an instant in UTC or a date (midnight UTC), and refuses a day that does not exist', async () => {
    const dir = fixturePath('helm', 'mmlu-philosophy-gpt2');
    const corpus = join(tempDir(), 'corpus');
    await importQuiet('helm', [dir], { into: corpus, asOf: '2025-06-30' });
    assert.equal(
      (JSON.parse(readFileSync(join(corpus, 'board.json'), 'utf8')) as { as_of: string }).as_of,
      '2025-06-30T00:00:00Z',
    );
    for (const wrong of ['2025-02-30', '2025-06-30T12:00:00', '30/06/2025'])
      await assert.rejects(
        importQuiet('helm', [dir], { into: join(tempDir(), 'c'), asOf: wrong }),
        new RegExp(
          `--as-of ${wrong}: must be an ISO 8601 UTC instant ending in Z \\(2025-06-30T12:00:00Z\\) or a date`,
        ),
      );
  });

  it('Every Eval Ever: the demo record is refused because its aggregate (0.75) disagrees with its one row (1/1)', async () => {
    const dir = fixturePath('every-eval-ever');
    await assert.rejects(
      importQuiet('eee', [join(dir, 'demo_samples.jsonl'), join(dir, 'demo_aggregate.json')], {
        into: join(tempDir(), 'c'),
      }),
      /0\.75/,
    );
  });

  it('Every Eval Ever: the export of the demo release re-imports into a board with the same cells', async () => {
    const { dir: release } = publishRelease(demoCorpus, tempDir(), testSigning().inputs);
    const out = join(tempDir(), 'eee');
    await exportEee(release, out);
    const files: string[] = [];
    const walk = (d: string) => {
      for (const n of readdirSync(d)) {
        const p = join(d, n);
        if (statSync(p).isDirectory()) walk(p);
        else files.push(p);
      }
    };
    walk(out);
    // The operator's board.json (own models, issuer) is board configuration, not part of an EEE
    // record: the re-import starts from the original's, with no axes yet.
    const corpus = join(tempDir(), 'corpus');
    mkdirSync(corpus);
    const board = JSON.parse(readFileSync(join(demoCorpus, 'board.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(corpus, 'board.json'), `${JSON.stringify({ ...board, axes: [] }, null, 2)}\n`);
    await importQuiet('eee', files.sort(), { into: corpus });
    const { app: original } = demoApp(demoCorpus);
    const before = (await original.inject({ url: '/api/gspc' })).json() as { axes: Row[] };
    for (const axis of readdirSync(join(corpus, 'axes')).map((f) => f.replace(/\.json$/, ''))) {
      const was = before.axes.find((a) => a.axis === axis)!;
      const now = await servedRow(corpus, axis);
      assert.deepEqual([now.n, now.accuracy], [was.n, was.accuracy], `axis ${axis}: the re-imported board differs`);
      // Which models may be the separation basis (`base_models`, own models) is board
      // configuration, not part of an EEE record: the separation is compared where the original
      // axis left the basis open (every non-own model), as a re-import does.
      const def = JSON.parse(readFileSync(join(demoCorpus, 'axes', `${axis}.json`), 'utf8')) as {
        base_models?: unknown;
      };
      if (def.base_models === undefined) assert.equal(now.separation, was.separation, `axis ${axis} separation`);
    }
  });
});
