/**
 * The Inspect AI reader on the real logs of test/fixtures/inspect and test/fixtures/inspect-eee
 * (test/fixtures/README.md states what each must give).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, it } from 'node:test';
import {
  boardCorrect,
  derivedJsonLog,
  eeeFixture,
  inspectFixture,
  readRun,
  readRuns,
  type ReadRun,
} from './helpers.js';

const POPULARITY = inspectFixture('2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval');

/** The parts of a row that must not depend on the container (everything but where it was read and the file hash). */
const comparable = (run: ReadRun) =>
  run.rows.map((r) => ({
    item: r.item,
    model: r.model,
    gold: r.gold,
    label: r.label,
    verdict: { correct: r.verdict?.correct, raw: r.verdict?.raw, metric: r.verdict?.metric },
    provenance: { ...r.provenance, source_sha256: '' },
  }));

describe('Inspect reader: the popularity log graded with match', () => {
  it('gives 10 rows, 8 correct, and every row grades as Inspect graded it (" Yes" vs "Yes")', async () => {
    const run = await readRun(POPULARITY);
    assert.equal(run.format, 'inspect');
    assert.equal(run.task, 'popularity');
    assert.equal(run.model, 'openai/gpt-4o-mini');
    assert.equal(run.rows.length, 10);
    for (const row of run.rows) assert.equal(boardCorrect(row), row.verdict?.correct, row.at);
    const correct = run.rows.filter(boardCorrect).length;
    assert.equal(correct / run.rows.length, 0.8);
    assert.deepEqual(run.reported, {
      metric: 'accuracy',
      value: 0.8,
      denominator: 'all',
      source: `${POPULARITY}!header.json results.scores[0].metrics.accuracy`,
    });
    assert.deepEqual(
      run.rows
        .filter((r) => !boardCorrect(r))
        .map((r) => r.item)
        .sort(),
      ['popularity/3', 'popularity/7'],
    );
    const three = run.rows.find((r) => r.item === 'popularity/3')!;
    assert.equal(three.gold, 'yes');
    assert.equal(three.label, 'no');
    assert.equal(run.labels, null);
  });

  it('takes samples in ZIP order, not id order, with provenance and source hash', async () => {
    const run = await readRun(POPULARITY);
    assert.deepEqual(
      run.rows.map((r) => r.provenance.sample_id),
      [9, 6, 10, 5, 8, 4, 7, 3, 1, 2],
    );
    const sha = createHash('sha256').update(readFileSync(POPULARITY)).digest('hex');
    assert.deepEqual(run.source, { file: POPULARITY, sha256: sha });
    const one = run.rows.find((r) => r.item === 'popularity/1')!;
    assert.deepEqual(one.provenance, {
      harness: 'inspect',
      harness_version: '0.3.58.dev16+g6a87748b; log format 2',
      task: 'popularity',
      sample_id: 1,
      epoch: 1,
      scorer: 'match',
      response: 'Yes',
      source_sha256: sha,
    });
    assert.equal(one.at, `${POPULARITY}!samples/1_epoch_1.json`);
    assert.equal(one.verdict?.raw, 'C');
    assert.equal(one.verdict?.metric, 'match');
  });
});

describe('Inspect reader: containers', () => {
  it('log_formats: .json, deflate .eval and zstd .eval give identical rows', async () => {
    const [json, deflate, zstd] = await Promise.all([
      readRun(inspectFixture('log_formats.json')),
      readRun(inspectFixture('log_formats.eval')),
      readRun(inspectFixture('derived/log_formats.zstd.eval')),
    ]);
    assert.deepEqual(comparable(deflate), comparable(json));
    assert.deepEqual(comparable(zstd), comparable(deflate));
    assert.deepEqual(zstd.reported?.value, deflate.reported?.value);
    assert.equal(deflate.rows.length, 1);
    const row = deflate.rows[0]!;
    assert.equal(row.item, 'popularity/1');
    assert.equal(row.model, 'ollama/llama3.1');
    assert.equal(row.label, 'no');
    assert.equal(row.verdict?.correct, false);
    assert.equal(deflate.reported?.value, 0);
  });

  it('a directory argument reads every .eval and .json in it, in name order (not the .txt)', async () => {
    const runs = await readRuns([dirname(inspectFixture('derived/log_formats.zstd.eval'))]);
    assert.deepEqual(
      runs.map((r) => r.source.file.split('/').pop()),
      ['log_formats.zstd.eval'],
    );
  });
});

describe('Inspect reader: epochs', () => {
  const STREAMING = inspectFixture('log_streaming.eval');
  /** log_streaming.eval's verdicts as a `.json` log (2 samples x 2 epochs: I C, C C; accuracy 0.75), to edit. */
  const STREAMING_JSON = () =>
    derivedJsonLog(
      inspectFixture('log_formats.json'),
      (log) => {
        const s = log.samples[0];
        log.eval.config.epochs = 2;
        const sample = (id: number, epoch: number, value: string) => ({
          ...s,
          id,
          epoch,
          scores: { match: { value } },
        });
        log.samples = [sample(2, 2, 'C'), sample(2, 1, 'C'), sample(1, 1, 'I'), sample(1, 2, 'C')];
        log.results.scores[0].metrics.accuracy.value = 0.75;
      },
      'streaming.json',
    );

  it('log_streaming: 2 samples x 2 epochs give n = 2, the lowest epoch kept by default', async () => {
    const run = await readRun(STREAMING);
    assert.equal(run.rows.length, 2);
    const byItem = Object.fromEntries(run.rows.map((r) => [r.item, r]));
    assert.equal(byItem['popularity/1']!.provenance.epoch, 1);
    assert.equal(byItem['popularity/1']!.verdict?.correct, false);
    assert.equal(byItem['popularity/2']!.provenance.epoch, 1);
    assert.equal(byItem['popularity/2']!.label, 'no'); // "No." with its full stop stripped
    assert.equal(run.reported, null, 'a mean over epochs is not a figure one row per item reproduces');
    // …but it is re-derived from every epoch read: (0.5 + 1.0) / 2 = 0.75, as reductions.json says.
    assert.ok(
      run.notes.includes(
        "Inspect's accuracy 0.75 (each item's 2 epochs averaged, then the mean over 2 items) = the epochs read; " +
          "the board's cell keeps one epoch per item (--epochs first), a different figure",
      ),
      run.notes.join('\n'),
    );
  });

  it('a multi-epoch accuracy the epochs read do not give is refused, as for one epoch', async () => {
    const path = derivedJsonLog(STREAMING_JSON(), (log) => {
      log.results.scores[0].metrics.accuracy.value = 0.5; // epoch 1 alone; Inspect said 0.75
    });
    await assert.rejects(readRun(path), (e: Error) => {
      assert.match(
        e.message,
        /Inspect reported accuracy 0\.5, the mean over 2 items of each item's 2 epochs, but the epochs read give 0\.75: refused/,
      );
      return true;
    });
  });

  it('an epoch reducer other than mean is named and its figure not compared', async () => {
    const path = derivedJsonLog(STREAMING_JSON(), (log) => {
      log.eval.config.epochs_reducer = ['mode'];
      log.results.scores[0].metrics.accuracy.value = 0.5;
    });
    const run = await readRun(path);
    assert.equal(run.rows.length, 2);
    assert.ok(
      run.notes.some((n) => n.includes('reduces 2 epochs per sample with mode') && n.includes('not compared')),
      run.notes.join('\n'),
    );
  });

  it('majority: a 1-1 tie takes the lowest epoch; 2-0 keeps the first agreeing epoch', async () => {
    const run = await readRun(STREAMING, { epochs: 'majority' });
    const byItem = Object.fromEntries(run.rows.map((r) => [r.item, r]));
    assert.equal(byItem['popularity/1']!.verdict?.correct, false);
    assert.equal(byItem['popularity/1']!.provenance.epoch, 1);
    assert.equal(byItem['popularity/2']!.verdict?.correct, true);
    assert.equal(byItem['popularity/2']!.provenance.epoch, 1);
    for (const row of run.rows) assert.equal(boardCorrect(row), row.verdict?.correct);
  });

  it('majority: 2 of 3 correct wins over a wrong first epoch, which first keeps', async () => {
    const path = derivedJsonLog(inspectFixture('log_formats.json'), (log) => {
      const s = log.samples[0];
      log.eval.config.epochs = 3;
      const epoch = (n: number, value: string, answer: string) => ({
        ...s,
        epoch: n,
        scores: { match: { value, answer } },
      });
      log.samples = [epoch(2, 'C', 'Yes'), epoch(1, 'I', 'No'), epoch(3, 'C', 'Yes.')];
      log.results.scores[0].metrics.accuracy.value = 2 / 3; // what Inspect's mean over the 3 epochs gives
    });
    const first = await readRun(path);
    assert.deepEqual(
      first.rows.map((r) => [r.provenance.epoch, r.label, r.verdict?.correct]),
      [[1, 'no', false]],
    );
    const majority = await readRun(path, { epochs: 'majority' });
    assert.deepEqual(
      majority.rows.map((r) => [r.provenance.epoch, r.label, r.verdict?.correct]),
      [[2, 'yes', true]],
    );
  });
});

describe('Inspect reader: choices, ids, numeric scores', () => {
  for (const name of ['mmlu-summary-choices.eval', 'mmlu-no-summary-choices.eval'])
    it(`${name}: choice scorer, letters menu from the sample's choices`, async () => {
      const run = await readRun(inspectFixture(name));
      assert.equal(run.task, 'inspect_evals/mmlu_0_shot');
      assert.equal(run.model, 'openai/gpt-4o');
      assert.deepEqual(run.labels, ['A', 'B', 'C', 'D']);
      assert.equal(run.rows.length, 1);
      const row = run.rows[0]!;
      assert.deepEqual(
        [row.item, row.gold, row.label, row.verdict?.correct],
        ['inspect_evals/mmlu_0_shot/1', 'A', 'C', false],
      );
      assert.equal(row.verdict?.metric, 'choice');
      assert.equal(row.provenance.response, 'ANSWER: C');
    });

  it('Every Eval Ever data_arc_qwen.json: 3 ARC rows for ollama/qwen2.5:0.5b', async () => {
    const run = await readRun(eeeFixture('data_arc_qwen.json'));
    assert.equal(run.task, 'inspect_evals/arc_easy');
    assert.equal(run.model, 'ollama/qwen2.5:0.5b');
    assert.deepEqual(run.labels, ['A', 'B', 'C', 'D']);
    assert.deepEqual(
      run.rows.map((r) => [r.item, r.provenance.sample_id, r.gold, r.label, r.verdict?.correct]),
      [
        ['inspect_evals/arc_easy/1', 1, 'A', 'A', true],
        ['inspect_evals/arc_easy/2', 2, 'B', 'D', false],
        ['inspect_evals/arc_easy/3', 3, 'D', 'A', false],
      ],
    );
    assert.equal(run.reported?.value, 0.3333333333333333);
    for (const row of run.rows) assert.equal(boardCorrect(row), row.verdict?.correct);
  });

  it('log_message_deduplication: version 3, string id "0", numeric closeness_log 0.0 read as incorrect', async () => {
    const run = await readRun(inspectFixture('log_message_deduplication.eval'));
    assert.equal(run.model, 'hardcoded/hardcoded');
    const row = run.rows[0]!;
    assert.equal(run.rows.length, 1);
    assert.equal(row.item, 'inspect_test_utils/guess_number/0');
    assert.equal(row.provenance.sample_id, '0');
    assert.equal(row.provenance.harness_version, '0.3.135.dev2+g715e750e; log format 3');
    assert.equal(row.verdict?.raw, 0);
    assert.equal(row.verdict?.correct, false);
    assert.equal(row.gold, '42.7');
    assert.equal(row.label, 'done', 'no answer in the score: the raw response is the label');
    assert.equal(boardCorrect(row), false);
  });
});
