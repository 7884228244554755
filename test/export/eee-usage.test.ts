/**
 * Tokens and latency through `gspc export eee` and back (issue 40 item 3, decision TU10): a row's
 * input and output tokens become the record's `token_usage` (total their sum) and its latency
 * `performance.latency_ms`; every record validates against the official schema (compiled here);
 * re-importing gives each row the same tokens and latency. A row with one count only has no
 * `token_usage` (the schema needs all three), and a row with none has neither object.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import Ajv from 'ajv';
import { eeeExport } from '../../src/export/eee-mapping.js';
import { writeExport } from '../../src/export/export-eee.js';
import type { ExportInput, ExportRow } from '../../src/export/export-input.js';
import { readEee } from '../../src/import/eee/read-eee.js';
import type { ImportedRow } from '../../src/import/imported.js';
import { repoPath } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';

const ajv = new Ajv.default({ allErrors: true, strictTypes: false, allowUnionTypes: true });
ajv.addKeyword('version');
const validInstance = ajv.compile(
  JSON.parse(readFileSync(repoPath('schemas', 'every-eval-ever', 'instance_level_eval.schema.json'), 'utf8')) as object,
);

const rows: ExportRow[] = [
  { item: 'q/1', model: 'org/solo', gold: 'A', label: 'A', input_tokens: 120, output_tokens: 7, latency_ms: 812.5 },
  { item: 'q/2', model: 'org/solo', gold: 'B', label: 'A', input_tokens: 0, output_tokens: 0 },
  { item: 'q/3', model: 'org/solo', gold: 'B', label: null, latency_ms: 40 },
  { item: 'q/4', model: 'org/solo', gold: 'A', label: 'A', input_tokens: 99 },
  { item: 'q/5', model: 'org/solo', gold: 'A', label: 'A' },
];

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
      rows,
      cells: [
        {
          model: 'org/solo',
          own_model: false,
          base_model: true,
          responses: 5,
          parsed: 4,
          correct: 3,
          unparsed: 1,
          accuracy: 0.75,
          interval: [0.3, 0.95],
        },
      ],
    },
  ],
  skipped: [],
};

describe('gspc export eee: tokens and latency', () => {
  it('writes token_usage and performance from what each row carries, and nothing it does not', () => {
    const { files } = eeeExport(input);
    const records = files[1]!.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const r of records) assert.ok(validInstance(r), JSON.stringify(validInstance.errors));
    assert.deepEqual(records[0].token_usage, { input_tokens: 120, output_tokens: 7, total_tokens: 127 });
    assert.deepEqual(records[0].performance, { latency_ms: 812.5 });
    assert.deepEqual(records[1].token_usage, { input_tokens: 0, output_tokens: 0, total_tokens: 0 });
    assert.equal('performance' in records[1], false);
    assert.equal('token_usage' in records[2], false);
    assert.deepEqual(records[2].performance, { latency_ms: 40 });
    assert.equal('token_usage' in records[3], false, 'one count only: the schema needs all three');
    assert.equal('token_usage' in records[4] || 'performance' in records[4], false);
  });

  it('re-imports with the same tokens and latency', async () => {
    const out = tempDir();
    writeExport(input, out);
    const back: ImportedRow[] = [];
    for await (const run of readEee([out], { measured: true })) for await (const r of run.rows) back.push(r);
    const usage = (item: string) => back.find((r) => r.item === item)!.usage;
    assert.deepEqual(usage('q/1'), { input_tokens: 120, output_tokens: 7, latency_ms: 812.5 });
    assert.deepEqual(usage('q/2'), { input_tokens: 0, output_tokens: 0 });
    assert.deepEqual(usage('q/3'), { latency_ms: 40 });
    assert.equal(usage('q/4'), undefined);
    assert.equal(usage('q/5'), undefined);
  });
});
