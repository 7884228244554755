/**
 * Tokens and latency from real harness output (issue 40 item 3): each reader writes what the
 * harness recorded, and nothing it did not. The expected figures are read from the fixtures in
 * this file, with its own ZIP reader and JSON walks (no code of src/import): the Inspect logs'
 * per-model token totals on /api/usage equal the sums of their samples' `model_usage`, HELM's rows
 * carry its per-instance stats, Every Eval Ever's rows its `token_usage` and `performance`; a log
 * that records no per-sample usage gives null on /api/usage, never 0.
 */
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { inflateRawSync } from 'node:zlib';
import { runImport } from '../../src/cli/import-command.js';
import type { ImportedRow } from '../../src/import/imported.js';
import { readEee } from '../../src/import/eee/read-eee.js';
import { demoApp } from '../helpers/app.js';
import { fixturePath } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';
import { importQuiet } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- fixture JSON and served documents */
type Json = any;

/** Every entry of a deflate/stored ZIP by name, from its central directory. */
function unzip(path: string): Map<string, Buffer> {
  const b = readFileSync(path);
  let eocd = b.length - 22;
  while (b.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  const count = b.readUInt16LE(eocd + 10);
  let p = b.readUInt32LE(eocd + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const method = b.readUInt16LE(p + 10);
    const size = b.readUInt32LE(p + 20);
    const nameLen = b.readUInt16LE(p + 28);
    const extraLen = b.readUInt16LE(p + 30);
    const commentLen = b.readUInt16LE(p + 32);
    const local = b.readUInt32LE(p + 42);
    const name = b.toString('utf8', p + 46, p + 46 + nameLen);
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const data = b.subarray(start, start + size);
    out.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** The samples of an Inspect log (`.eval` or `.json`) and its model, read here. */
function inspectLog(path: string): { model: string; samples: Json[] } {
  if (path.endsWith('.json')) {
    const log = JSON.parse(readFileSync(path, 'utf8'));
    return { model: log.eval.model, samples: log.samples };
  }
  const zip = unzip(path);
  const header = JSON.parse(zip.get('header.json')!.toString('utf8'));
  const samples = [...zip.keys()]
    .filter((n) => n.startsWith('samples/'))
    .map((n) => JSON.parse(zip.get(n)!.toString('utf8')));
  return { model: header.eval.model, samples };
}

function rowsOf(corpus: string): Json[] {
  const dir = join(corpus, 'peritem');
  return readdirSync(dir).flatMap((f) =>
    readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l)),
  );
}

async function usageOf(corpus: string, axis: string): Promise<Json> {
  const { app } = demoApp(corpus);
  const r = await app.inject({ url: `/api/usage?axis=${axis}` });
  assert.equal(r.statusCode, 200);
  return r.json();
}

describe('tokens and latency from Inspect logs', () => {
  const logs: { file: string; axis: string; opts?: Json }[] = [
    { file: '2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval', axis: 'popularity' },
    { file: 'log_streaming.eval', axis: 'popularity' },
    { file: 'mmlu-summary-choices.eval', axis: 'inspect-evals-mmlu-0-shot' },
    { file: '2025-05-12T20-28-13-04-00_popularity.json', axis: 'popularity', opts: { allowIncomplete: true } },
  ];
  for (const { file, axis, opts } of logs)
    it(`${file}: per-model token totals on /api/usage = the sums of the imported samples' model_usage`, async () => {
      const corpus = join(tempDir(), 'c');
      await importQuiet('inspect', [fixturePath('inspect', file)], { into: corpus, asOf: '2026-01-01', ...opts });
      const { model, samples } = inspectLog(fixturePath('inspect', file));
      const rows = rowsOf(corpus);
      // The rows are one epoch per item (--epochs first): sum the samples those rows are.
      const kept = samples.filter((s) =>
        rows.some((r) => r.sample_id === s.id && r.epoch === s.epoch && r.model === model),
      );
      assert.equal(kept.length, rows.length);
      const expected = { input: 0, output: 0, latency: 0, timed: 0 };
      for (const s of kept) {
        expected.input += s.model_usage[model].input_tokens;
        expected.output += s.model_usage[model].output_tokens;
        if (typeof s.working_time === 'number') {
          expected.latency += s.working_time * 1000;
          expected.timed++;
        }
      }
      const doc = await usageOf(corpus, axis);
      const m = doc.models.find((x: Json) => x.model === model);
      assert.equal(m.input_tokens.total, expected.input);
      assert.equal(m.output_tokens.total, expected.output);
      assert.equal(m.input_tokens.rows, rows.length);
      assert.equal(m.coverage.input_tokens, rows.length);
      if (expected.timed === 0) {
        assert.equal(m.latency_ms, null, 'no working_time in this log: latency unknown, not 0');
        assert.equal(m.coverage.latency_ms, 0);
      } else {
        assert.equal(m.coverage.latency_ms, expected.timed);
        assert.ok(
          Math.abs(m.latency_ms.total - expected.latency) < 1e-6,
          `${m.latency_ms.total} vs ${expected.latency}`,
        );
      }
    });

  it('the real popularity log: 620 input and 20 output tokens, as its header totals for the run', async () => {
    const file = fixturePath('inspect', '2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval');
    const header = JSON.parse(unzip(file).get('header.json')!.toString('utf8'));
    assert.deepEqual(header.stats.model_usage['openai/gpt-4o-mini'], {
      input_tokens: 620,
      output_tokens: 20,
      total_tokens: 640,
    });
    const corpus = join(tempDir(), 'c');
    await importQuiet('inspect', [file], { into: corpus, asOf: '2026-01-01' });
    const m = (await usageOf(corpus, 'popularity')).models[0];
    assert.equal(m.input_tokens.total, 620);
    assert.equal(m.output_tokens.total, 20);
    assert.equal(m.input_tokens.mean, 62);
    assert.equal(m.output_tokens.correct, 8);
    assert.equal(m.output_tokens.per_correct, 20 / 8);
  });

  it('a log whose samples record no model_usage (log_formats.eval: {}) gives null on /api/usage, never 0', async () => {
    const corpus = join(tempDir(), 'c');
    await importQuiet('inspect', [fixturePath('inspect', 'log_formats.eval')], { into: corpus, asOf: '2026-01-01' });
    for (const r of rowsOf(corpus)) {
      assert.equal('input_tokens' in r, false);
      assert.equal('latency_ms' in r, false);
    }
    const m = (await usageOf(corpus, 'popularity')).models[0];
    assert.equal(m.model, 'ollama/llama3.1');
    assert.deepEqual(
      [m.input_tokens, m.output_tokens, m.latency_ms, m.coverage],
      [null, null, null, { input_tokens: 0, output_tokens: 0, latency_ms: 0 }],
    );
  });

  it('data_arc_qwen.json: latency is working_time in ms, rounded to 0.001 ms', async () => {
    const file = fixturePath('inspect-eee', 'data_arc_qwen.json');
    const corpus = join(tempDir(), 'c');
    await importQuiet('inspect', [file], { into: corpus, asOf: '2026-01-01' });
    const { samples } = inspectLog(file);
    const rows = rowsOf(corpus);
    assert.equal(rows.length, samples.length);
    for (const r of rows) {
      const s = samples.find((x) => x.id === r.sample_id);
      assert.equal(r.latency_ms, Number((s.working_time * 1000).toFixed(3)));
      assert.equal(r.input_tokens, s.model_usage['ollama/qwen2.5:0.5b'].input_tokens);
      assert.equal(r.output_tokens, s.model_usage['ollama/qwen2.5:0.5b'].output_tokens);
    }
  });
});

describe('a recorded value the corpus would refuse', () => {
  it('refuses the import at the sample, and writes nothing', async () => {
    const log = JSON.parse(readFileSync(fixturePath('inspect', '2025-05-12T20-28-13-04-00_popularity.json'), 'utf8'));
    log.samples[2].model_usage['openai/gpt-4o-mini'].input_tokens = -1;
    log.samples[1].working_time = 'slow';
    const file = join(tempDir(), 'bad.json');
    writeFileSync(file, JSON.stringify(log));
    const corpus = join(tempDir(), 'c');
    await assert.rejects(
      importQuiet('inspect', [file], { into: corpus, asOf: '2026-01-01', allowIncomplete: true }),
      /popularity\/2: latency slow ms as the harness recorded it is not a finite number from 0 to 1,000,000,000/,
    );
    // Finite but past the corpus's cap (decision TU11): 1e300 seconds is refused, never written.
    log.samples[1].working_time = 1e300;
    writeFileSync(file, JSON.stringify(log));
    await assert.rejects(
      importQuiet('inspect', [file], { into: corpus, asOf: '2026-01-01', allowIncomplete: true }),
      /popularity\/2: latency 1e\+303 ms as the harness recorded it is not a finite number from 0 to 1,000,000,000/,
    );
    log.samples[1].working_time = 1.5;
    writeFileSync(file, JSON.stringify(log));
    await assert.rejects(
      importQuiet('inspect', [file], { into: corpus, asOf: '2026-01-01', allowIncomplete: true }),
      /popularity\/3: input_tokens -1 as the harness recorded it is not a whole number of tokens from 0 to 1,000,000,000/,
    );
    assert.throws(() => readdirSync(corpus), /ENOENT/);
  });
});

describe('coverage said before it is public', () => {
  it('a model whose rows carry a field in part: gspc import prints how many, as gspc validate does', async () => {
    const log = JSON.parse(readFileSync(fixturePath('inspect', '2025-05-12T20-28-13-04-00_popularity.json'), 'utf8'));
    delete log.samples[0].working_time; // a sample Inspect did not time
    const file = join(tempDir(), 'part.json');
    writeFileSync(file, JSON.stringify(log));
    const corpus = join(tempDir(), 'c');
    let err = '';
    await runImport(
      'inspect',
      [file],
      { into: corpus, asOf: '2026-01-01', allowIncomplete: true },
      { out: () => {}, err: (t) => (err += t), tty: false },
    );
    assert.match(
      err,
      /peritem\/popularity\.jsonl latency_ms: model 'openai\/gpt-4o-mini': 2 of 3 rows carry it; \/api\/usage gives its latency_ms over those 2, the other 1 are unknown \(not 0\)/,
    );
    assert.doesNotMatch(err, /input_tokens: model/, 'every row carries its tokens: nothing to say');
    const m = (await usageOf(corpus, 'popularity')).models[0];
    assert.deepEqual(m.coverage, { input_tokens: 3, output_tokens: 3, latency_ms: 2 });
  });
});

describe('tokens and latency from HELM and Every Eval Ever', () => {
  it("HELM: num_prompt_tokens, num_output_tokens and inference_runtime of each test instance's per_instance_stats", async () => {
    const run = fixturePath('helm', 'mmlu-philosophy-gpt2');
    const corpus = join(tempDir(), 'c');
    await importQuiet('helm', [run], { into: corpus, asOf: '2026-01-01' });
    const stats = JSON.parse(readFileSync(join(run, 'per_instance_stats.json'), 'utf8')) as Json[];
    const stat = (id: string, name: string) =>
      stats.find((p) => p.instance_id === id)!.stats.find((s: Json) => s.name.name === name && s.name.split === 'test');
    const rows = rowsOf(corpus);
    assert.equal(rows.length, 9);
    let input = 0;
    for (const r of rows) {
      assert.equal(r.input_tokens, stat(r.sample_id, 'num_prompt_tokens').sum);
      assert.equal(r.output_tokens, stat(r.sample_id, 'num_output_tokens').sum);
      assert.equal(r.latency_ms, Number((stat(r.sample_id, 'inference_runtime').sum * 1000).toFixed(3)));
      input += r.input_tokens;
    }
    const m = (await usageOf(corpus, 'mmlu-subject-philosophy')).models[0];
    assert.equal(m.input_tokens.total, input);
    assert.equal(m.output_tokens.total, 9);
    assert.equal(m.latency_ms.rows, 9);
  });

  it('HELM: a stat HELM did not measure (count 0) is unknown, never 0', async () => {
    const run = join(tempDir(), 'mmlu-philosophy-gpt2');
    cpSync(fixturePath('helm', 'mmlu-philosophy-gpt2'), run, { recursive: true });
    const path = join(run, 'per_instance_stats.json');
    const stats = JSON.parse(readFileSync(path, 'utf8')) as Json[];
    const id59 = stats.find((p) => p.instance_id === 'id59')!;
    for (const s of id59.stats)
      if (s.name.name === 'inference_runtime' || s.name.name === 'num_output_tokens')
        Object.assign(s, { count: 0, sum: 0, sum_squared: 0 });
    writeFileSync(path, JSON.stringify(stats));
    const corpus = join(tempDir(), 'c');
    await importQuiet('helm', [run], { into: corpus, asOf: '2026-01-01' });
    const row = rowsOf(corpus).find((r) => r.sample_id === 'id59');
    assert.equal(row.input_tokens, 336);
    assert.equal('output_tokens' in row, false);
    assert.equal('latency_ms' in row, false);
    const m = (await usageOf(corpus, 'mmlu-subject-philosophy')).models[0];
    assert.deepEqual(m.coverage, { input_tokens: 9, output_tokens: 8, latency_ms: 8 });
    assert.equal(m.output_tokens.total, 8);
  });

  const eeeRows = async (paths: string[]): Promise<ImportedRow[]> => {
    const rows: ImportedRow[] = [];
    for await (const run of readEee(paths, {})) for await (const r of run.rows) rows.push(r);
    return rows;
  };

  it('EEE: token_usage as recorded; no performance, no latency', async () => {
    const record = JSON.parse(readFileSync(fixturePath('every-eval-ever', 'demo_samples.jsonl'), 'utf8'));
    const [row] = await eeeRows([fixturePath('every-eval-ever', 'demo_samples.jsonl')]);
    assert.deepEqual(row!.usage, {
      input_tokens: record.token_usage.input_tokens,
      output_tokens: record.token_usage.output_tokens,
    });
  });

  it('EEE: performance.latency_ms when a record has it; a record without token_usage has no tokens', async () => {
    const base = JSON.parse(readFileSync(fixturePath('every-eval-ever', 'demo_samples.jsonl'), 'utf8'));
    const timed = { ...structuredClone(base), performance: { latency_ms: 812.5, time_to_first_token_ms: 90 } };
    const bare = { ...structuredClone(base), sample_id: 'demo_0002' };
    delete bare.token_usage;
    const samples = join(tempDir(), 'samples.jsonl');
    writeFileSync(samples, `${JSON.stringify(timed)}\n${JSON.stringify(bare)}\n`);
    const rows = await eeeRows([samples]);
    assert.deepEqual(rows[0]!.usage, { input_tokens: 12, output_tokens: 5, latency_ms: 812.5 });
    assert.equal(rows[1]!.usage, undefined);
  });
});
