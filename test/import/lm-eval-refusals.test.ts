/**
 * What gspc import lm-eval refuses, and what it says: the GSM8K filter trap, a missing model, a
 * harness verdict the board's grading contradicts, a reported aggregate the rows do not give,
 * and "no scored items". A refusal writes nothing.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { GspcError } from '../../src/core/errors.js';
import type { ImportedRun } from '../../src/import/imported.js';
import { importRuns } from '../../src/import/import-runs.js';
import { demoApp } from '../helpers/app.js';
import { tempDir } from '../helpers/tmp.js';
import { fixtureCopy, GSM8K, importQuiet, lmEval, SSH, SSH_RESULTS, SSH_SAMPLES, snapshot } from './helpers.js';

const refusal = (pattern: RegExp) => (e: unknown) => {
  assert.ok(e instanceof GspcError, String(e));
  assert.equal(e.code, 'import_refused');
  assert.match(e.message, pattern);
  return true;
};

describe('gspc import lm-eval: GSM8K, three filters on every doc', () => {
  it('takes one filter (the first): n = 4, all unparsed, never 12 rows, never accuracy 0', async () => {
    const corpus = join(tempDir(), 'corpus');
    const { result, out } = await importQuiet('lm-eval', [GSM8K], { into: corpus, model: 'dummy/lol' });
    assert.deepEqual(result.totals, { rows: 4, models: 1, items: 4, unparsed: 4 });
    assert.match(
      out,
      /rows 4, models 1, items 4, unparsed 4, refused: filter score-first taken \(the first in the file; --filter to choose\); 8 rows of other filters skipped \(maj@64, maj@8\)/,
    );
    const rows = readFileSync(join(corpus, 'peritem', 'gsm8k-cot-self-consistency.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      rows.map((r) => [r.item, r.label, r.gold, r.filter, r.response]),
      [
        ['gsm8k_cot_self_consistency/0', null, '18', 'score-first', 'lol'],
        ['gsm8k_cot_self_consistency/1', null, '3', 'score-first', 'lol'],
        ['gsm8k_cot_self_consistency/2', null, '70000', 'score-first', 'lol'],
        ['gsm8k_cot_self_consistency/3', null, '540', 'score-first', 'lol'],
      ],
    );
    const board = JSON.parse(readFileSync(join(corpus, 'board.json'), 'utf8'));
    assert.equal(board.as_of, '2026-10-01T13:21:10.261566Z', 'from the file name, no results file');
    const { app } = demoApp(corpus);
    const row = (await app.inject({ url: '/api/gspc' })).json().axes[0];
    assert.deepEqual([row.n, row.unparsed_rate, row.accuracy, row.separation], [4, 1, undefined, 'UNTESTED']);
  });

  it('--filter maj@8 takes that filter', async () => {
    const corpus = join(tempDir(), 'corpus');
    const { result } = await importQuiet('lm-eval', [GSM8K], { into: corpus, model: 'dummy/lol', filter: 'maj@8' });
    assert.equal(result.totals.rows, 4);
    const rows = readFileSync(join(corpus, 'peritem', 'gsm8k-cot-self-consistency.jsonl'), 'utf8')
      .trim()
      .split('\n');
    assert.deepEqual(new Set(rows.map((l) => JSON.parse(l).filter)), new Set(['maj@8']));
  });

  it('refuses an unknown filter, listing the filters, and writes nothing', async () => {
    const corpus = join(tempDir(), 'corpus');
    await assert.rejects(
      importQuiet('lm-eval', [GSM8K], { into: corpus, model: 'dummy/lol', filter: 'maj@16' }),
      refusal(/: no rows with filter 'maj@16'; the filters in this file are: score-first, maj@64, maj@8$/),
    );
    assert.equal(existsSync(corpus), false, 'no file, no staged leftover, not even the directory');
  });

  it('refuses a samples file with no model and no --model', async () => {
    await assert.rejects(
      importQuiet('lm-eval', [GSM8K], { into: join(tempDir(), 'c') }),
      refusal(
        /no model: there is no results_\*\.json beside it naming model_name or config\.model_args; pass --model <id>$/,
      ),
    );
  });

  it('refuses --model that contradicts the results file', async () => {
    await assert.rejects(
      importQuiet('lm-eval', [lmEval(SSH)], { into: join(tempDir(), 'c'), model: 'other/model' }),
      refusal(/the results file names the model 'sshleifer\/tiny-gpt2', --model says 'other\/model'/),
    );
  });
});

describe('gspc import: agreement and aggregate checks', () => {
  /** The sshleifer COPA run with line 1 (doc 0: label 0, gold 1, acc 0) claiming acc 1. */
  function tampered(): string {
    const dir = fixtureCopy(SSH);
    const p = join(dir, SSH_SAMPLES);
    const lines = readFileSync(p, 'utf8').split('\n');
    assert.ok(lines[0]!.endsWith('"acc": 0.0}'));
    lines[0] = lines[0]!.replace(/"acc": 0\.0}$/, '"acc": 1.0}');
    writeFileSync(p, lines.join('\n'));
    return dir;
  }

  it('refuses a row the harness scored differently, with file:line, and writes nothing', async () => {
    const dir = tampered();
    const corpus = join(tempDir(), 'corpus');
    await assert.rejects(importQuiet('lm-eval', [dir], { into: corpus }), (e: unknown) => {
      refusal(/^1 row where the harness's verdict and the board's grading \(label ∈ gold\) disagree/)(e);
      assert.ok(
        (e as Error).message.includes(
          `\n${join(dir, SSH_SAMPLES)}:1 copa/0: harness said acc=1 (correct), row grades wrong (label "0", gold "1")`,
        ),
        (e as Error).message,
      );
      return true;
    });
    assert.equal(existsSync(corpus), false);
  });

  it('--accept-disagreement imports it and records the count in the axis definition', async () => {
    const corpus = join(tempDir(), 'corpus');
    const { out } = await importQuiet('lm-eval', [tampered()], { into: corpus, acceptDisagreement: true });
    assert.match(out, /1 disagreements with the harness accepted/);
    assert.match(out, /harness reported acc 0\.6 over 20 = board 12\/20/, 'the board grades the row, not the harness');
    const def = JSON.parse(readFileSync(join(corpus, 'axes', 'copa.json'), 'utf8'));
    assert.deepEqual(def.import_disagreements, { 'sshleifer/tiny-gpt2': 1 });
    // A clean re-import of the same model clears the count.
    await importQuiet('lm-eval', [lmEval(SSH)], { into: corpus });
    assert.equal(JSON.parse(readFileSync(join(corpus, 'axes', 'copa.json'), 'utf8')).import_disagreements, undefined);
  });

  it('refuses a reported aggregate the rows do not give, and leaves an existing corpus untouched', async () => {
    const corpus = join(tempDir(), 'corpus');
    await importQuiet('lm-eval', [lmEval(SSH)], { into: corpus });
    const before = snapshot(corpus);
    const dir = fixtureCopy(SSH);
    const p = join(dir, SSH_RESULTS);
    writeFileSync(p, readFileSync(p, 'utf8').replace('"acc,none": 0.6,', '"acc,none": 0.65,'));
    await assert.rejects(
      importQuiet('lm-eval', [dir], { into: corpus }),
      refusal(
        /harness reported acc 0\.65 over 20 \(results_2026-10-01T23-15-32\.942677\.json results\.copa\["acc,none"\]\) but the imported rows give 12\/20 = 0\.6: refused/,
      ),
    );
    assert.deepEqual(snapshot(corpus), before);
  });

  it('refuses the same run given twice (one row per item and model), and a gold that contradicts the corpus', async () => {
    const corpus = join(tempDir(), 'corpus');
    await assert.rejects(
      importQuiet('lm-eval', [lmEval(SSH), lmEval(SSH, SSH_SAMPLES)], { into: corpus }),
      refusal(/:1 copa\/0: a second row for model sshleifer\/tiny-gpt2 in this import/),
    );
    await importQuiet('lm-eval', [lmEval(SSH)], { into: corpus });
    const p = join(corpus, 'peritem', 'copa.jsonl');
    const lines = readFileSync(p, 'utf8').split('\n');
    lines[0] = lines[0]!.replace('"model":"sshleifer/tiny-gpt2","gold":"1"', '"model":"other/model","gold":"0"');
    writeFileSync(p, lines.join('\n'));
    const before = snapshot(corpus);
    await assert.rejects(
      importQuiet('lm-eval', [lmEval(SSH)], { into: corpus }),
      refusal(
        /^peritem\/copa\.jsonl:1 copa\/0: the corpus has gold "0" for this item \(model other\/model\), the import has "1"/,
      ),
    );
    assert.deepEqual(snapshot(corpus), before);
  });

  it('refuses a run with no scored items: never an accuracy of 0', async () => {
    const run: ImportedRun = {
      format: 'inspect',
      task: 'popularity',
      model: 'openai/gpt-4o-mini',
      source: { file: 'unscored.eval', sha256: '0'.repeat(64) },
      as_of: '2025-02-11T20:17:00Z',
      labels: null,
      reported: null,
      notes: [],
      rows: [1, 2].map((id) => ({
        item: `popularity/${id}`,
        model: 'openai/gpt-4o-mini',
        gold: 'Yes',
        label: null,
        provenance: {
          harness: 'inspect' as const,
          harness_version: null,
          task: 'popularity',
          sample_id: id,
          response: null,
          source_sha256: '0'.repeat(64),
        },
        at: `unscored.eval!samples/${id}_epoch_1.json`,
      })),
    };
    const corpus = join(tempDir(), 'corpus');
    await assert.rejects(
      importRuns(
        corpus,
        (async function* () {
          yield run;
        })(),
      ),
      refusal(/^unscored\.eval: no scored items \(2 rows, none with a harness verdict or a label\)/),
    );
    assert.equal(existsSync(join(corpus, 'peritem')), false);
  });

  it('refuses unknown formats, naming the known ones', async () => {
    await assert.rejects(
      importQuiet('openai-evals', ['x'], { into: join(tempDir(), 'c') }),
      refusal(/^unknown format 'openai-evals': one of lm-eval, inspect, helm, eee$/),
    );
  });
});
