/**
 * Run settings through `gspc export eee` and back (issue 40 item 2): a model's `runs.json` entry
 * becomes its aggregate record's `generation_config`: the schema's `generation_args` where a
 * setting has exactly its name and type, the harness, version, shots and limit as strings, and
 * the whole entry as `gspc_run_settings`; the record validates against the official schema, and
 * re-importing gives the same entry. A model without settings gets no `generation_config`.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Ajv from 'ajv';
import type { RunSettings } from '../../src/core/board/run-settings.js';
import { eeeExport } from '../../src/export/eee-mapping.js';
import { readExportInput, writeExport } from '../../src/export/export-eee.js';
import type { ExportInput } from '../../src/export/export-input.js';
import type { Fetcher } from '../../src/export/service-input.js';
import { readEee } from '../../src/import/eee/read-eee.js';
import { repoPath } from '../helpers/repo.js';
import { demoApp } from '../helpers/app.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';

const ajv = new Ajv.default({ allErrors: true, strictTypes: false, allowUnionTypes: true });
ajv.addKeyword('version');
const validAggregate = ajv.compile(
  JSON.parse(readFileSync(repoPath('schemas', 'every-eval-ever', 'eval.schema.json'), 'utf8')) as object,
);

const settings: RunSettings = {
  harness: 'inspect',
  harness_version: '0.3.58.dev16+g6a87748b',
  date: '2025-02-11T20:18:04Z',
  limit: 10,
  generation: { temperature: 0.5, max_tokens: 64, stop_seqs: ['\n'] },
  template: { task_args: {}, task_version: 0, plan: [{ solver: 'generate', params: {} }] },
};

const cell = (model: string) => ({
  model,
  own_model: false,
  base_model: true,
  responses: 2,
  parsed: 2,
  correct: 1,
  unparsed: 0,
  accuracy: 0.5,
  interval: [0.1, 0.9] as [number, number],
});

const input: ExportInput = {
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
      rows: ['org/run', 'org/bare'].flatMap((model) => [
        { item: 'q/1', model, gold: 'A', label: 'A' },
        { item: 'q/2', model, gold: 'B', label: 'A' },
      ]),
      cells: [cell('org/bare'), cell('org/run')],
      settings: new Map([['org/run', settings]]),
    },
  ],
  skipped: [],
};

describe('gspc export eee: run settings', () => {
  it("writes a model's settings as generation_config, valid against the schema; a model without none", () => {
    const { files } = eeeExport(input);
    const aggregates = files.filter((f) => f.path.endsWith('.json')).map((f) => JSON.parse(f.text));
    for (const a of aggregates) assert.ok(validAggregate(a), JSON.stringify(validAggregate.errors));
    const of = (model: string) => aggregates.find((a) => a.model_info.id === model).evaluation_results[0];
    assert.equal('generation_config' in of('org/bare'), false);
    assert.deepEqual(of('org/run').generation_config, {
      // stop_seqs has no place of its own in the schema: it travels in the entry only.
      generation_args: { temperature: 0.5, max_tokens: 64 },
      additional_details: {
        harness: 'inspect',
        harness_version: '0.3.58.dev16+g6a87748b',
        limit: '10',
        gspc_run_settings: JSON.stringify({
          date: settings.date,
          generation: { max_tokens: 64, stop_seqs: ['\n'], temperature: 0.5 },
          harness: 'inspect',
          harness_version: settings.harness_version,
          limit: 10,
          template: { plan: [{ params: {}, solver: 'generate' }], task_args: {}, task_version: 0 },
        }),
      },
    });
  });

  it('re-imports with the same settings', async () => {
    const out = tempDir();
    writeExport(input, out);
    const back = new Map<string, unknown>();
    for await (const run of readEee([out], { measured: true })) back.set(run.model, run.settings?.fields);
    assert.deepEqual(back.get('org/run'), settings);
    assert.equal(back.get('org/bare'), undefined);
  });

  it('a release directory and a running service give the same settings (the service checks runs.json against its manifest)', async () => {
    const corpus = demoCopy();
    const entry = { harness: 'lm-eval', shots: 5, generation: { temperature: 0 } };
    writeFileSync(
      join(corpus, 'runs.json'),
      JSON.stringify({
        schema: 'svc.gspc-corpus-runs/1',
        runs: [{ model: 'demo/cirrus-8b', axis: 'governance', ...entry }],
      }),
    );
    const { app, dir } = demoApp(corpus);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    for (const from of [await readExportInput(dir), await readExportInput(base)]) {
      const governance = from.axes.find((a) => a.def.axis === 'governance')!;
      assert.deepEqual([...(governance.settings ?? [])], [['demo/cirrus-8b', entry]]);
      assert.equal(from.axes.find((a) => a.def.axis === 'safety')!.settings, undefined);
    }
    // A runs.json the manifest does not vouch for is refused, as any other file.
    const edited: Fetcher = async (url, init) => {
      const res = await fetch(url, init);
      const body = Buffer.from(await res.arrayBuffer());
      return new URL(url).pathname === '/peritem/runs.json'
        ? new Response(Buffer.concat([body, Buffer.from(' ')]), { status: 200 })
        : new Response(body, { status: res.status });
    };
    await assert.rejects(
      readExportInput(base, edited),
      /runs\.json: its SHA-256 is not the one \/peritem\/manifest\.json lists/,
    );
  });
});
