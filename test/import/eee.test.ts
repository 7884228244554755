/**
 * The Every Eval Ever reader on the real demo records in test/fixtures/every-eval-ever/ (from
 * evaleval/every_eval_ever; test/fixtures/README.md), and every refusal on records built from
 * them: each line is validated against the vendored official schema (v0.3.0).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { GspcError } from '../../src/core/errors.js';
import type { ImportedRow, ImportedRun, ReadOptions } from '../../src/import/imported.js';
import { readEee } from '../../src/import/eee/read-eee.js';
import { fixturePath } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';

const SAMPLES = fixturePath('every-eval-ever', 'demo_samples.jsonl');
const AGGREGATE = fixturePath('every-eval-ever', 'demo_aggregate.json');
const RECORD = JSON.parse(readFileSync(SAMPLES, 'utf8')) as Record<string, unknown>;
const AGG = JSON.parse(readFileSync(AGGREGATE, 'utf8')) as Record<string, any>;

async function runs(paths: string[], opts: ReadOptions = {}): Promise<{ run: ImportedRun; rows: ImportedRow[] }[]> {
  const out = [];
  for await (const run of readEee(paths, opts)) {
    const rows: ImportedRow[] = [];
    for await (const r of run.rows) rows.push(r);
    out.push({ run, rows });
  }
  return out;
}

async function oneRun(paths: string[], opts: ReadOptions = {}): Promise<{ run: ImportedRun; rows: ImportedRow[] }> {
  const all = await runs(paths, opts);
  assert.equal(all.length, 1);
  return all[0]!;
}

async function refused(paths: string[], message: RegExp, opts: ReadOptions = {}): Promise<void> {
  await assert.rejects(runs(paths, opts), (e: unknown) => {
    assert.ok(e instanceof GspcError);
    assert.equal(e.code, 'import_refused');
    assert.match(e.message, message);
    return true;
  });
}

/** A folder with `samples.jsonl` (one line per record) and, unless null, `aggregate.json`. */
function folder(records: unknown[], aggregate: unknown = null): { dir: string; samples: string } {
  const dir = tempDir();
  const samples = join(dir, 'samples.jsonl');
  writeFileSync(samples, records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
  if (aggregate !== null) writeFileSync(join(dir, 'aggregate.json'), JSON.stringify(aggregate));
  return { dir, samples };
}

const record = (edit: (r: Record<string, any>) => void = () => {}) => {
  const r = structuredClone(RECORD) as Record<string, any>;
  edit(r);
  return r;
};
const aggregate = (edit: (a: Record<string, any>) => void = () => {}) => {
  const a = structuredClone(AGG) as Record<string, any>;
  delete a.detailed_evaluation_results;
  edit(a);
  return a;
};

describe('Every Eval Ever reader: the demo records', () => {
  it('reads the one record as a row, with the aggregate found beside the instance file', async () => {
    const { run, rows } = await oneRun([SAMPLES], { measured: true });
    assert.equal(run.format, 'eee');
    assert.equal(run.task, 'demo-source.demo_bench');
    assert.equal(run.model, 'demo-org/demo-model');
    assert.equal(run.source.sha256, '6bbefcb149f63071c5d7abeb4c57f23f9a0e517dbc11f7ca4728c8b1c63e6cd8');
    assert.equal(run.labels, null);
    assert.equal(rows.length, 1);
    const { verdict, ...row } = rows[0]!;
    assert.deepEqual(row, {
      item: 'demo-source.demo_bench/demo_0001',
      model: 'demo-org/demo-model',
      gold: '4',
      label: '4',
      item_hash: '9c94305328f8e70341f9d1880f4eaa6ea7f93b8922e6a03a8cdcf1924d28db0b',
      provenance: {
        harness: 'eee',
        harness_version: '0.3.0',
        task: 'demo-source.demo_bench',
        sample_id: 'demo_0001',
        scorer: 'match',
        response: 'The answer is 4.',
        source_sha256: run.source.sha256,
      },
      usage: { input_tokens: 12, output_tokens: 5 }, // token_usage as recorded; no performance, no latency
      at: `${SAMPLES}:1`,
    });
    assert.equal(verdict?.correct, true);
    assert.equal(verdict?.raw, 1);
    assert.equal(verdict?.metric, 'is_correct');
  });

  it('reports the aggregate record score (0.75 in the demo, which its one record does not reproduce)', async () => {
    const { run } = await oneRun([SAMPLES]);
    assert.deepEqual(run.reported, {
      metric: 'accuracy',
      value: 0.75,
      denominator: 'all',
      source: `${AGGREGATE} evaluation_results[demo-source.demo_bench].score_details.score`,
    });
    assert.deepEqual(run.notes, [
      "evaluation 'demo-source.demo_bench' (result 'demo-source.demo_bench') of evaluation_id 'demo-source/demo-org_demo-model/1750000000': 1 records",
    ]);
  });

  it('accepts the folder, or both files named', async () => {
    assert.equal((await oneRun([fixturePath('every-eval-ever')])).rows.length, 1);
    assert.equal((await oneRun([AGGREGATE, SAMPLES])).run.reported?.value, 0.75);
  });

  it('reads no extracted answer as unparsed, keeps the last terminal one, and lists the choices', async () => {
    const attribution = (value: string, terminal: boolean) => ({
      turn_idx: 0,
      source: 'output.raw',
      extracted_value: value,
      extraction_method: 'regex',
      is_terminal: terminal,
    });
    const { samples } = folder([
      record((r) => {
        r.answer_attribution = [];
        r.evaluation = { score: 0, is_correct: false };
      }),
      record((r) => {
        r.sample_id = 'demo_0002';
        r.input.choices = ['3', '4'];
        r.input.reference = ['4', '4.0'];
        r.answer_attribution = [attribution('3', true), attribution('4', true), attribution('5', false)];
      }),
    ]);
    const { run, rows } = await oneRun([samples]);
    assert.deepEqual(
      rows.map((r) => [r.item, r.gold, r.label, r.verdict?.correct]),
      [
        ['demo-source.demo_bench/demo_0001', '4', null, null],
        ['demo-source.demo_bench/demo_0002', ['4', '4.0'], '4', true],
      ],
    );
    assert.deepEqual(run.labels, ['3', '4']);
    assert.ok(
      run.notes.some((n) =>
        n.startsWith("no aggregate record with evaluation_id 'demo-source/demo-org_demo-model/1750000000'"),
      ),
    );
  });

  it('gives one run per evaluation result, and says when the aggregate metric is not an accuracy', async () => {
    const other = record((r) => (r.evaluation_result_id = 'demo-source.demo_bench.f1'));
    const agg = aggregate((a) => {
      const f1 = structuredClone(a.evaluation_results[0]);
      f1.evaluation_result_id = 'demo-source.demo_bench.f1';
      f1.metric_config = { ...f1.metric_config, metric_id: 'f1', metric_name: 'f1', metric_kind: 'f1' };
      a.evaluation_results.push(f1);
    });
    const { samples } = folder([record(), other], agg);
    const all = await runs([samples]);
    assert.equal(all.length, 2);
    assert.equal(all[0]!.run.reported?.value, 0.75);
    assert.equal(all[1]!.run.reported, null);
    assert.ok(all[1]!.run.notes.includes("the aggregate's metric is f1, not an accuracy: not compared with the rows"));
  });
});

describe('Every Eval Ever reader: refusals', () => {
  it('refuses a line that fails the schema with file:line and the schema error', async () => {
    const { samples } = folder([record(), record((r) => delete r.evaluation)]);
    await refused(
      [samples],
      new RegExp(
        `${samples}:2: not an Every Eval Ever instance record \\(schema 0\\.3\\.0\\): \\(record\\) must have required property 'evaluation'`,
      ),
    );
    const bad = folder([record((r) => (r.interaction_type = 'chat'))]);
    await refused(
      [bad.samples],
      /:1: not an Every Eval Ever instance record .*\/interaction_type must be equal to one of the allowed values/,
    );
    const notJson = folder([record(), '{"schema_version": ']);
    await refused([notJson.samples], new RegExp(`${notJson.samples}:2: not valid JSON`));
  });

  it('refuses an answer extracted by llm_judge for a MEASURED axis, and says so when it accepts one', async () => {
    const judged = record((r) => (r.answer_attribution[0].extraction_method = 'llm_judge'));
    const { samples } = folder([judged]);
    await refused(
      [samples],
      new RegExp(
        `${samples}:1: the answer was extracted by a model acting as judge \\(answer_attribution extraction_method llm_judge\\); a MEASURED axis is graded by deterministic predicates only`,
      ),
      { measured: true },
    );
    const { run } = await oneRun([samples], { measured: false });
    assert.ok(
      run.notes.includes('1 records were extracted by llm_judge; accepted because the target axis is not MEASURED'),
    );
  });

  it('refuses a result scored by a model acting as judge for a MEASURED axis', async () => {
    const agg = aggregate((a) => {
      a.evaluation_results[0].metric_config.llm_scoring = {
        judges: [{ model_info: { ...AGG.model_info, name: 'judge', id: 'demo-org/judge' } }],
        input_prompt: 'Is the answer right?',
      };
    });
    const { dir, samples } = folder([record()], agg);
    await refused(
      [samples],
      new RegExp(
        `${join(dir, 'aggregate.json')}: evaluation result 'demo-source.demo_bench' was scored by a model acting as judge \\(metric_config\\.llm_scoring\\); a MEASURED axis is graded by deterministic predicates only`,
      ),
      { measured: true },
    );
  });

  it('refuses an aggregate that describes other bytes, another row count or another model', async () => {
    const changed = folder([record((r) => (r.sample_id = 'demo_0009'))], AGG);
    await refused(
      [changed.samples],
      /samples\.jsonl: its sha256 is [0-9a-f]{64}, but its aggregate record .*aggregate\.json gives 6bbefcb1.* \(detailed_evaluation_results\.checksum\): the aggregate describes other bytes/,
    );
    const rows = folder(
      [record()],
      aggregate(
        (a) =>
          (a.detailed_evaluation_results = { ...AGG.detailed_evaluation_results, checksum: undefined, total_rows: 2 }),
      ),
    );
    await refused(
      [rows.samples],
      /samples\.jsonl: 1 records, but its aggregate record .*aggregate\.json gives total_rows 2/,
    );
    const model = folder(
      [record()],
      aggregate((a) => (a.model_info.id = 'demo-org/other-model')),
    );
    await refused(
      [model.samples],
      /records of model 'demo-org\/demo-model' under evaluation_id '.*', whose aggregate record .*aggregate\.json is of model 'demo-org\/other-model'/,
    );
  });

  it('refuses a sample twice in one evaluation result, and a record without a reference', async () => {
    const twice = folder([record(), record()]);
    await refused(
      [twice.samples],
      /:2: sample 'demo_0001' appears twice for evaluation result 'demo-source\.demo_bench' of demo-org\/demo-model \(first on line 1\)/,
    );
    const noGold = folder([record((r) => (r.input.reference = ['']))]);
    await refused([noGold.samples], /samples\.jsonl:1: input\.reference is empty: no gold answer to grade against/);
  });

  it('refuses files that are not EEE, an invalid named aggregate, two aggregates with one id, and no instance file', async () => {
    await refused([join(tempDir(), 'gone.jsonl')], /gone\.jsonl: no such file or directory/);
    await refused(
      [fixturePath('README.md')],
      /README\.md: not an Every Eval Ever file \(instance records are \.jsonl, aggregate records \.json\)/,
    );
    await refused(
      [AGGREGATE],
      /demo_aggregate\.json: no instance-level file \(\.jsonl\): the rows come from instance records, not from an aggregate alone/,
    );
    const { dir, samples } = folder([record()]);
    const badAgg = join(dir, 'bad.json');
    writeFileSync(badAgg, JSON.stringify(aggregate((a) => delete a.model_info)));
    await refused(
      [samples, badAgg],
      /bad\.json: not an Every Eval Ever aggregate record \(schema eval\.schema\.json\): \(record\) must have required property 'model_info'/,
    );
    writeFileSync(badAgg, '{');
    await refused([samples, badAgg], /bad\.json: not valid JSON/);
    const two = folder([record()], aggregate());
    writeFileSync(join(two.dir, 'again.json'), JSON.stringify(aggregate()));
    await refused(
      [two.samples],
      /evaluation_id 'demo-source\/demo-org_demo-model\/1750000000' is also the id of .*; which aggregate the rows belong to is ambiguous/,
    );
  });

  it('refuses a file that changed between the check and the rows', async () => {
    const { samples } = folder([record()]);
    for await (const run of readEee([samples], {})) {
      writeFileSync(samples, `${JSON.stringify(record((r) => (r.sample_id = 'other')))}\n`);
      await assert.rejects(
        (async () => {
          for await (const _ of run.rows);
        })(),
        new RegExp(`${samples}: changed while it was being imported \\(its SHA-256 differs\\)`),
      );
    }
  });
});
