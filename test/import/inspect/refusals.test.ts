/**
 * What the Inspect reader refuses, and what it reads as unparsed, each on a real log or on a
 * copy of one changed in the one field at stake (no public log has a P verdict or a 0.37 score).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseJson } from '../../../src/import/inspect/lenient-json.js';
import { readHeader } from '../../../src/import/inspect/log-shape.js';
import { repoPath } from '../../helpers/repo.js';
import { tempDir } from '../../helpers/tmp.js';
import { assertRefused, derivedJsonLog, eeeFixture, inspectFixture, readRun, readRuns } from './helpers.js';

const LOG_FORMATS = inspectFixture('log_formats.json');
const NAN_LOG = inspectFixture('log_with_nan.txt');

/** log_formats.json with its one sample's match score set to `score`. */
const withScore = (score: unknown) =>
  derivedJsonLog(LOG_FORMATS, (log) => {
    log.samples[0].scores.match = score;
  });

describe('Inspect reader: refusals', () => {
  it('a run with empty scores is "no scored items", never accuracy 0', async () => {
    const file = inspectFixture('2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval');
    await assertRefused(readRun(file), file, 'no scored items', 'results.scores is empty');
  });

  it('samples that all lack the scorer\'s score: "no scored items" once the rows are read', async () => {
    const path = withScore(undefined);
    await assertRefused(readRun(path), path, 'no scored items', 'no sample has a match score');
  });

  it('a cancelled run is refused by default and gives its 3 rows with allowIncomplete', async () => {
    const file = inspectFixture('2025-05-12T20-28-13-04-00_popularity.json');
    await assertRefused(readRun(file), file, 'cancelled', '--allow-incomplete');
    const run = await readRun(file, { allowIncomplete: true });
    assert.deepEqual(
      run.rows.map((r) => [r.item, r.gold, r.label, r.verdict?.correct]),
      [
        ['popularity/1', 'yes', 'yes', true],
        ['popularity/2', 'no', 'no', true],
        ['popularity/3', 'yes', 'no', false],
      ],
    );
    assert.equal(run.reported?.value, 0.6666666666666666);
    assert.ok(run.notes.some((n) => n.includes('cancelled')));
  });

  it('an errored run is refused like a cancelled one', async () => {
    const path = derivedJsonLog(LOG_FORMATS, (log) => {
      log.status = 'error';
    });
    await assertRefused(readRun(path), path, 'status is error');
  });

  it('a model-judged log is refused for a MEASURED axis, with the reason', async () => {
    const file = eeeFixture('data_with_llm_scoring.json');
    await assertRefused(
      readRun(file, { measured: true }),
      file,
      'simpleqa_scorer',
      'grader_model google/gemini-2.0-flash-001',
      'grading is by deterministic predicates only',
    );
    // Not for a MEASURED axis: no judge refusal, but the file holds no samples at all.
    await assertRefused(readRun(file), file, 'no scored items', 'holds no samples');
  });

  it("Inspect's model_graded_fact scorer is detected by name", async () => {
    const path = derivedJsonLog(NAN_LOG, (log) => {
      log.results.metrics.accuracy.value = 1;
    });
    await assertRefused(readRun(path, { measured: true }), 'model_graded_fact is graded by a model');
  });

  it('a file that is not an Inspect log: a clear error naming the file', async () => {
    const results = repoPath(
      'test',
      'fixtures',
      'lm-eval',
      'sshleifer__tiny-gpt2',
      'results_2026-10-01T23-15-32.942677.json',
    );
    await assertRefused(readRun(results), results, 'not an Inspect AI log');
    const readme = repoPath('test', 'fixtures', 'README.md');
    await assertRefused(readRun(readme), readme, 'not an Inspect AI log');
    const missing = join(tempDir(), 'nothing.eval');
    await assertRefused(readRun(missing), missing, 'no such file');
    const empty = tempDir();
    await assertRefused(readRuns([empty]), empty, 'no .eval or .json log');
  });

  it('a ZIP without header.json or a journal is not an Inspect log', async () => {
    const dir = tempDir();
    const zip = join(dir, 'other.eval');
    // log_formats.eval with its header and journal renamed (same lengths): still a valid ZIP, but not a log.
    const text = readFileSync(inspectFixture('log_formats.eval')).toString('latin1');
    const renamed = text.replaceAll('header.json', 'headerXjson').replaceAll('start.json', 'startXjson');
    writeFileSync(zip, Buffer.from(renamed, 'latin1'));
    await assertRefused(readRun(zip), zip, 'without header.json');
  });
});

describe('Inspect reader: verdicts', () => {
  it('P (partial credit) is refused: no exact-label equivalent', async () => {
    const path = withScore({ value: 'P', answer: 'No' });
    await assertRefused(readRun(path), `${path}!samples[0] scores.match`, 'P (partial credit');
  });

  it('a non-binary number (0.37) is refused; 1 and 1.0 are correct, 0 incorrect', async () => {
    const path = withScore({ value: 0.37, answer: 'No' });
    await assertRefused(readRun(path), 'the score 0.37 is neither 0 nor 1');
    for (const [value, correct] of [
      [1, true],
      [0, false],
      [true, true],
      ['yes', true],
    ] as const) {
      const run = await readRun(withScore({ value, answer: 'Yes' }));
      assert.equal(run.rows[0]!.verdict?.correct, correct, String(value));
    }
  });

  it('N, an empty value and NaN are unparsed: label null, verdict null', async () => {
    for (const value of ['N', '', Number.NaN]) {
      const run = await readRun(withScore({ value, answer: 'Yes' }));
      assert.equal(run.rows[0]!.label, null, String(value));
      assert.equal(run.rows[0]!.verdict?.correct, null, String(value));
    }
  });

  it('a bare NaN score in the file (Python json) reads as unparsed', async () => {
    const path = withScore({ value: 0, answer: 'Yes' });
    writeFileSync(path, readFileSync(path, 'utf8').replace('"match":{"value":0,', '"match":{"value":NaN,'));
    const run = await readRun(path);
    assert.ok(Number.isNaN(run.rows[0]!.verdict?.raw));
    assert.equal(run.rows[0]!.label, null);
  });
});

describe('Inspect reader: log_with_nan.txt (version 1, bare NaN accuracy)', () => {
  it('parses NaN-tolerantly: the accuracy is NaN, not an error and not 0', () => {
    const header = readHeader(parseJson(readFileSync(NAN_LOG, 'utf8'), NAN_LOG), NAN_LOG);
    assert.equal(header.version, 1);
    assert.equal(header.results?.[0]?.name, 'model_graded_fact');
    assert.ok(Number.isNaN(header.results?.[0]?.accuracy));
  });

  it('as a whole it is refused: it holds no samples', async () => {
    await assertRefused(readRun(NAN_LOG), NAN_LOG, 'no scored items');
  });

  it('with a version-1 sample added, the NaN aggregate is "not reported" (null), never 0', async () => {
    const path = derivedJsonLog(NAN_LOG, (log) => {
      log.samples = [{ id: 1, epoch: 1, target: 'Paris', score: { value: 'C', answer: 'Paris' } }];
    });
    writeFileSync(path, readFileSync(path, 'utf8').replace('"value":null', '"value":NaN'));
    const run = await readRun(path);
    assert.equal(run.reported, null);
    assert.ok(run.notes.some((n) => n.includes('no finite accuracy') && n.includes('NaN')));
    assert.deepEqual(
      run.rows.map((r) => [r.item, r.gold, r.label, r.verdict?.correct, r.provenance.harness_version]),
      [['wikipedia/1', 'Paris', 'Paris', true, 'inspect_ai (version not stated); log format 1']],
    );
  });
});
