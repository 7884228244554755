/**
 * `gspc export eee` on the demo release: every record validates against the official Every Eval
 * Ever schema (compiled here, independently of the code under test), each aggregate carries the
 * board cell's accuracy, and importing the export with the EEE reader gives back the same per-item
 * rows (item, model, gold, label). The service path is checked against the release path, and
 * each of its refusals is provoked through the fetcher.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import Ajv from 'ajv';
import { GspcError } from '../../src/core/errors.js';
import { eeeExport, stableUuid } from '../../src/export/eee-mapping.js';
import { exportEee, readExportInput, writeExport } from '../../src/export/export-eee.js';
import type { ExportInput } from '../../src/export/export-input.js';
import type { Fetcher } from '../../src/export/service-input.js';
import { readEee } from '../../src/import/eee/read-eee.js';
import type { ImportedRow } from '../../src/import/imported.js';
import { type LoadedRelease, loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { demoApp, testSigning } from '../helpers/app.js';
import { repoPath } from '../helpers/repo.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

const ajv = new Ajv.default({ allErrors: true, strictTypes: false, allowUnionTypes: true });
ajv.addKeyword('version');
const schema = (f: string) => JSON.parse(readFileSync(repoPath('schemas', 'every-eval-ever', f), 'utf8')) as object;
const validInstance = ajv.compile(schema('instance_level_eval.schema.json'));
const validAggregate = ajv.compile(schema('eval.schema.json'));

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => (statSync(join(dir, e)).isDirectory() ? filesUnder(join(dir, e)) : [join(dir, e)]));
}

const key = (r: { item: string; model: string; gold: unknown; label: string | null }) =>
  JSON.stringify([r.item, r.model, r.gold, r.label]);

const inGold = (r: ImportedRow) =>
  r.label !== null && (Array.isArray(r.gold) ? r.gold.includes(r.label) : r.gold === r.label);

/** The board's MEASURED comparison axes that publish per-item rows (aggregate-only axes are not exported). */
const withRows = (release: LoadedRelease) =>
  release.source.axes.filter(
    (a) => a.cells !== undefined && release.corpus.files.some((f) => f.path === `peritem/${a.row.axis}.jsonl`),
  );

async function reimport(dir: string): Promise<{ rows: ImportedRow[]; reported: Map<string, number> }> {
  const rows: ImportedRow[] = [];
  const reported = new Map<string, number>();
  for await (const run of readEee([dir], { measured: true })) {
    assert.equal(run.reported?.denominator, 'scored');
    reported.set(`${run.task} ${run.model}`, run.reported!.value);
    for await (const r of run.rows) rows.push(r);
  }
  return { rows, reported };
}

describe('gspc export eee: the demo release', () => {
  const signing = testSigning();
  const dataDir = tempDir();
  const out = tempDir();
  let releaseDir = '';
  before(async () => {
    releaseDir = publishRelease(demoCorpus, dataDir, signing.inputs).dir;
    await exportEee(releaseDir, out);
  });

  it('writes records that validate against the official schema, in the datastore layout', () => {
    const files = filesUnder(out);
    assert.ok(files.length > 0);
    for (const f of files) {
      const rel = f.slice(out.length + 1);
      assert.match(
        rel,
        /^data\/[^/]+\/[^/]+\/[^/]+\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}(\.json|_samples\.jsonl)$/,
      );
      if (f.endsWith('.json'))
        assert.ok(
          validAggregate(JSON.parse(readFileSync(f, 'utf8'))),
          `${rel} ${JSON.stringify(validAggregate.errors)}`,
        );
      else
        for (const line of readFileSync(f, 'utf8').trimEnd().split('\n'))
          assert.ok(validInstance(JSON.parse(line)), `${rel} ${JSON.stringify(validInstance.errors)}`);
    }
  });

  it("carries each MEASURED cell's accuracy, counts and interval, and nothing else", () => {
    const release = loadRelease(releaseDir);
    const expected = new Map<string, { accuracy: number | null; interval: [number, number] | null; parsed: number }>();
    for (const a of withRows(release)) for (const c of a.cells ?? []) expected.set(`${a.row.axis} ${c.model}`, c);
    const aggregates = filesUnder(out)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(f, 'utf8')));
    assert.equal(aggregates.length, [...expected.values()].filter((c) => c.accuracy !== null).length);
    for (const agg of aggregates) {
      const result = agg.evaluation_results[0];
      const cell = expected.get(`${result.evaluation_name} ${agg.model_info.id}`);
      assert.ok(cell, `${result.evaluation_name} ${agg.model_info.id} is a board cell`);
      assert.equal(result.score_details.score, cell.accuracy);
      assert.deepEqual(result.score_details.uncertainty.confidence_interval, {
        lower: cell.interval![0],
        upper: cell.interval![1],
        confidence_level: 0.95,
        method: 'wilson',
      });
      assert.equal(result.score_details.details.parsed, String(cell.parsed));
      assert.equal(result.score_details.details.denominator, 'parsed');
    }
  });

  it('re-imports as the same per-item rows, unparsed rows included, with the same accuracies', async () => {
    const release = loadRelease(releaseDir);
    const exported = new Set(withRows(release).map((a) => a.row.axis));
    const original = release.corpus.files
      .filter((f) => exported.has(/^peritem\/(.+)\.jsonl$/.exec(f.path)?.[1] ?? ''))
      .flatMap((f) => f.bytes.toString('utf8').trimEnd().split('\n'))
      .map((l) => JSON.parse(l) as ImportedRow);
    const { rows, reported } = await reimport(out);
    assert.ok(
      original.some((r) => r.label === null),
      'the demo has unparsed rows',
    );
    assert.deepEqual(rows.map(key).sort(), original.map(key).sort());
    for (const r of rows) assert.equal(r.verdict?.correct, r.label === null ? null : inGold(r));
    for (const a of withRows(release))
      for (const c of a.cells ?? []) assert.equal(reported.get(`${a.row.axis} ${c.model}`), c.accuracy ?? undefined);
  });

  const again = tempDir();
  it('writes the same bytes when exported again', async () => {
    await exportEee(releaseDir, again);
    const read = (d: string) => filesUnder(d).map((f) => [f.slice(d.length), readFileSync(f, 'utf8')]);
    assert.deepEqual(read(again), read(out));
  });

  it('reads the same release from a running service, checked against the board', async () => {
    const { app, dir } = demoApp(demoCorpus, signing);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const fromService = await readExportInput(`${base}/ignored/path`);
    const fromDir = await readExportInput(dir);
    assert.equal(fromService.origin, base);
    assert.equal(fromService.peritem_sha256, fromDir.peritem_sha256);
    assert.deepEqual(fromService.skipped, fromDir.skipped);
    assert.ok(fromDir.skipped.includes('continuity: aggregate results only, no per-item rows to export'));
    const samples = (i: ExportInput) => eeeExport(i).files.filter((f) => f.path.endsWith('.jsonl'));
    assert.deepEqual(samples(fromService), samples(fromDir));

    const via =
      (edit: (path: string, body: Buffer) => Response | Buffer): Fetcher =>
      async (url, init) => {
        const res = await fetch(url, init);
        const body = Buffer.from(await res.arrayBuffer());
        const edited = edit(new URL(url).pathname, body);
        return edited instanceof Response ? edited : new Response(edited, { status: res.status });
      };
    const refused = (fetcher: Fetcher, code: string, message: RegExp) =>
      assert.rejects(readExportInput(base, fetcher), (e: unknown) => {
        assert.ok(e instanceof GspcError);
        assert.equal(e.code, code);
        assert.match(e.message, message);
        return true;
      });
    await refused(
      via((p, b) => (p === '/peritem/manifest.json' ? Buffer.concat([b, Buffer.from(' ')]) : b)),
      'release_invalid',
      /manifest\.json does not hash to the board's measured_on\.peritem_sha256: the rows are not the board's/,
    );
    await refused(
      via((p, b) => (p === '/peritem/governance.jsonl' ? Buffer.concat([b, b]) : b)),
      'release_invalid',
      /\/peritem\/governance\.jsonl: its SHA-256 is not the one \/peritem\/manifest\.json lists/,
    );
    await refused(
      via((p, b) => {
        if (p !== '/api/gspc') return b;
        const board = JSON.parse(b.toString('utf8'));
        const row = board.axes.find((r: { leader?: string }) => r.leader !== undefined);
        row.accuracy = 0.5;
        return Buffer.from(JSON.stringify(board));
      }),
      'release_invalid',
      /\/api\/gspc: [a-z-]+'s leader \S+ is served with accuracy 0\.5, but its per-item rows give 0\.\d+/,
    );
    await refused(
      via((p, b) =>
        p === '/api/gspc' ? new Response(null, { status: 302, headers: { location: 'http://elsewhere/' } }) : b,
      ),
      'release_not_found',
      /GET http:\/\/127\.0\.0\.1:\d+\/api\/gspc: HTTP 302/,
    );
    await refused(
      via((p, b) => (p === '/api/gspc' ? Buffer.alloc(17 * 1024 * 1024, 32) : b)),
      'release_invalid',
      /GET .*\/api\/gspc: body larger than 16777216 bytes/,
    );
    await refused(
      async () => {
        throw Object.assign(new Error('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
      },
      'release_not_found',
      /GET .*\/api\/gspc: ECONNREFUSED/,
    );
    await assert.rejects(readExportInput('ftp://example.invalid/'), /not a release directory/);
  });
});

describe('gspc export eee: the mapping', () => {
  const cell = { own_model: false, base_model: true, responses: 2, parsed: 1, correct: 1, unparsed: 1 };
  const input = (accuracy: number | null): ExportInput => ({
    origin: 'release r-test',
    as_of: '2026-11-01T00:00:00Z',
    issuer: 'Test Lab',
    peritem_sha256: 'a'.repeat(64),
    axes: [
      {
        def: {
          axis: 'quiz',
          family: 'test',
          kind: 'model-comparison',
          status: 'MEASURED',
          bench: 'quiz-bench',
          task: 'answer the quiz',
          dataset: 'test/quiz',
          labels: ['A', 'B'],
        },
        rowsUrl: '/peritem/quiz.jsonl',
        rows: [
          { item: 'q/1', model: 'solo', gold: 'A', label: 'A', response: 'A.' },
          { item: 'q/2', model: 'solo', gold: ['A', 'B'], label: null },
        ],
        cells: [{ ...cell, model: 'solo', accuracy, interval: accuracy === null ? null : [0.2, 1] }],
      },
    ],
    skipped: ['other: UNMEASURED, so the board has no cells on it'],
  });

  it('writes an unparsed row with no extracted answer, and a model without a developer under unknown/', () => {
    const { files } = eeeExport(input(1));
    const uuid = stableUuid(`gspc-export\n${'a'.repeat(64)}\nquiz/solo/1793491200`);
    assert.deepEqual(
      files.map((f) => f.path),
      [`data/quiz/unknown/solo/${uuid}.json`, `data/quiz/unknown/solo/${uuid}_samples.jsonl`],
    );
    const [right, unparsed] = files[1]!.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(right.answer_attribution[0].extracted_value, 'A');
    assert.deepEqual(right.output.raw, ['A.']);
    assert.deepEqual(unparsed.answer_attribution, []);
    assert.deepEqual(unparsed.evaluation, { score: 0, is_correct: false });
    assert.deepEqual(unparsed.metadata, { gspc_item: 'q/2', gspc_outcome: 'unparsed' });
    assert.deepEqual(unparsed.input, { raw: '', reference: ['A', 'B'], choices: ['A', 'B'] });
  });

  it('leaves out a cell with no parsed response (no accuracy, never 0), saying why', () => {
    const { files, skipped } = eeeExport(input(null));
    assert.equal(files.length, 0);
    assert.deepEqual(skipped, [
      'other: UNMEASURED, so the board has no cells on it',
      'quiz × solo: no parsed response, so no accuracy (never 0)',
    ]);
  });

  it('writes nothing when a record would not validate', () => {
    const out = tempDir();
    assert.throws(
      () => writeExport(input(Number.NaN), out),
      /the export does not validate against the Every Eval Ever schema, so nothing was written: data\/quiz\/unknown\/solo\/[0-9a-f-]+\.json: \/evaluation_results\/0\/score_details\/score must be number/,
    );
    assert.deepEqual(readdirSync(out), []);
  });
});
