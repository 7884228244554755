/**
 * Run settings from an import (issue 40 item 2): `runs.json` holds, per (model, axis), what the
 * harness recorded about how it ran the task, and nothing else. The real fixtures: lm-eval's COPA
 * results give the limit, the version and the date (the trimmed files carry no n-shot, configs or
 * gen_kwargs values: shots and generation stay unknown); HELM gives its adapter settings; Inspect
 * its limit, generation config, task arguments and plan; Every Eval Ever its evaluation time. Runs
 * of one (model, axis) that disagree leave the setting out (decision RS6); a second import of the
 * same runs changes no byte.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { readResults } from '../../src/import/lm-eval/results-file.js';
import { fixturePath } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';
import { HF, SSH, SSH_RESULTS, importQuiet, lmEval, snapshot } from './helpers.js';
import { withShots } from './lm-eval-shots.js';

const runsOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'runs.json'), 'utf8')) as { schema: string; runs: Record<string, unknown>[] };

describe('run settings from lm-eval', () => {
  it('the real COPA results give the harness, version, date and limit; shots and generation stay unknown', async () => {
    const into = join(tempDir(), 'c');
    const { out } = await importQuiet('lm-eval', [lmEval(SSH), lmEval(HF)], { into });
    assert.deepEqual(runsOf(into), {
      schema: 'svc.gspc-corpus-runs/1',
      runs: [
        {
          model: 'hf-internal-testing/tiny-random-gpt2',
          axis: 'copa',
          harness: 'lm-eval',
          harness_version: '0.4.13',
          date: new Date(1790921740.5439 * 1000).toISOString(),
          limit: 20,
        },
        {
          model: 'sshleifer/tiny-gpt2',
          axis: 'copa',
          harness: 'lm-eval',
          harness_version: '0.4.13',
          date: new Date(1790921714.0712206 * 1000).toISOString(),
          limit: 20,
        },
      ],
    });
    assert.match(out, /runs\.json created: sshleifer\/tiny-gpt2 on copa: harness, harness_version, date, limit; /);
    // Read back; the same runs again change no byte.
    assert.equal(readCorpus(into).runSettings.length, 2);
    const before = snapshot(into);
    const again = await importQuiet('lm-eval', [lmEval(SSH), lmEval(HF)], { into });
    assert.deepEqual(snapshot(into), before);
    assert.equal(again.result.settings.state, 'unchanged');
  });

  it('--as-of before the run: the date is left out with a note, so the corpus still reads (decision RS10)', async () => {
    const into = join(tempDir(), 'c');
    const { out } = await importQuiet('lm-eval', [lmEval(SSH)], { into, asOf: '2026-01-01' });
    const [entry] = runsOf(into).runs;
    assert.equal(entry!.date, undefined);
    assert.deepEqual(Object.keys(entry!), ['model', 'axis', 'harness', 'harness_version', 'limit']);
    assert.match(
      out,
      /date 2026-10-02T\S+ left out of sshleifer\/tiny-gpt2 on copa: after the corpus's as_of 2026-01-01T00:00:00Z/,
    );
    assert.equal(readCorpus(into).runSettings.length, 1);
  });

  it('a real full results file (lm-eval, MMLU abstract algebra) gives its shots and prompt template; no limit or generation was given', () => {
    const file = fixturePath('lm-eval', 'mmlu-abstract-algebra-results', 'results_2025-01-21T00-40-03.356274.json');
    assert.deepEqual(readResults(file).settings('mmlu_abstract_algebra'), {
      harness: 'lm-eval',
      date: new Date(1737419939.4888458 * 1000).toISOString(),
      shots: 0,
      template: {
        output_type: 'multiple_choice',
        description: 'The following are multiple choice questions (with answers) about abstract algebra.\n\n',
        doc_to_text:
          '{{question.strip()}}\nA. {{choices[0]}}\nB. {{choices[1]}}\nC. {{choices[2]}}\nD. {{choices[3]}}\nAnswer:',
        doc_to_target: 'answer',
        doc_to_choice: ['A', 'B', 'C', 'D'],
        target_delimiter: ' ',
        fewshot_delimiter: '\n\n',
        chat_template_sha: null,
        system_instruction_sha: null,
        fewshot_as_multiturn: false,
      },
    });
    // Another task of the same file: nothing of it is recorded but the run's own fields.
    assert.deepEqual(Object.keys(readResults(file).settings('copa')), ['harness', 'date', 'template']);
  });

  it("a full results file's n-shot, template fields and --gen_kwargs are read", async () => {
    const dir = withShots(SSH, 5);
    const file = join(dir, SSH_RESULTS);
    const results = JSON.parse(readFileSync(file, 'utf8'));
    results.config.gen_kwargs = 'temperature=0,max_gen_toks=16,do_sample=False';
    results.chat_template_sha = null;
    writeFileSync(file, JSON.stringify(results));
    const into = join(tempDir(), 'c');
    await importQuiet('lm-eval', [dir], { into });
    const [entry] = runsOf(into).runs;
    assert.equal(entry!.shots, 5);
    assert.deepEqual(entry!.generation, { temperature: 0, max_gen_toks: 16, do_sample: false });
    assert.deepEqual(entry!.template, {
      output_type: 'multiple_choice',
      target_delimiter: ' ',
      fewshot_delimiter: '\n\n',
      chat_template_sha: null,
    });
  });

  it('an entry that would pass 16,384 characters loses its template, with a note (an agent answer carries an entry whole)', async () => {
    const dir = withShots(SSH, 5);
    const file = join(dir, SSH_RESULTS);
    const results = JSON.parse(readFileSync(file, 'utf8'));
    for (const f of ['description', 'doc_to_text', 'doc_to_target', 'target_delimiter', 'fewshot_delimiter'])
      results.configs.copa[f] = `${f} `.repeat(500).slice(0, 3500);
    writeFileSync(file, JSON.stringify(results));
    const into = join(tempDir(), 'c');
    const { out } = await importQuiet('lm-eval', [dir], { into });
    const [entry] = runsOf(into).runs;
    assert.equal(entry!.template, undefined);
    assert.equal(entry!.shots, 5);
    assert.match(
      out,
      /note: sshleifer\/tiny-gpt2 on copa: template left out \(unknown\): the entry would be longer than 16384 characters/,
    );
    assert.equal(readCorpus(into).runSettings.length, 1, 'the corpus reads');
  });

  it('two runs of one model on one axis that disagree leave the setting out, with a note (decision RS6)', async () => {
    const into = join(tempDir(), 'c');
    await importQuiet('lm-eval', [withShots(SSH, 0)], { into });
    assert.equal(runsOf(into).runs[0]!.shots, 0);
    const { out } = await importQuiet('lm-eval', [withShots(SSH, 5)], { into });
    const [entry] = runsOf(into).runs;
    assert.equal(entry!.shots, undefined);
    assert.equal(entry!.limit, 20, 'what the runs agree on is kept');
    assert.match(
      out,
      /note: sshleifer\/tiny-gpt2 on copa: shots left out \(unknown\): 0 \(runs\.json\) but 5 \(results_.*\(copa\)\)/,
    );
  });
});

describe('run settings from HELM, Inspect and Every Eval Ever', () => {
  it('HELM gives its adapter settings: shots, limit, generation and the prompt template', async () => {
    const into = join(tempDir(), 'c');
    await importQuiet('helm', [fixturePath('helm', 'mmlu-philosophy-gpt2')], { into, asOf: '2026-01-01' });
    const [entry] = runsOf(into).runs;
    assert.deepEqual(
      { ...entry, template: undefined },
      {
        model: 'openai/gpt2',
        axis: entry!.axis,
        harness: 'helm',
        shots: 5,
        limit: 10,
        generation: { temperature: 0, max_tokens: 1, stop_sequences: ['\n'], num_outputs: 5 },
        template: undefined,
      },
    );
    const template = entry!.template as Record<string, unknown>;
    assert.equal(template.method, 'multiple_choice_joint');
    assert.equal(
      template.instructions,
      'The following are multiple choice questions (with answers) about philosophy.\n',
    );
    assert.equal(template.input_prefix, 'Question: ');
    assert.equal(template.output_prefix, 'Answer: ');
    assert.deepEqual(template.substitutions, []);
  });

  it('Inspect gives its version, date, limit, task arguments and plan; run-keeping settings such as max_connections are not read', async () => {
    const into = join(tempDir(), 'c');
    const file = fixturePath('inspect', '2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval');
    await importQuiet('inspect', [file], { into, asOf: '2026-01-01' });
    const [entry] = runsOf(into).runs;
    assert.deepEqual(entry, {
      model: 'openai/gpt-4o-mini',
      axis: 'popularity',
      harness: 'inspect',
      harness_version: '0.3.58.dev16+g6a87748b',
      date: '2025-02-11T20:18:04Z',
      limit: 10,
      template: {
        task_args: {},
        task_version: 0,
        plan: [
          {
            solver: 'system_message',
            params: {
              template:
                '\nPlease note: In the following EXERCISE, it is important that you only respond with exactly "Yes" or "No"\n',
            },
          },
          { solver: 'generate', params: {} },
        ],
      },
    });
    const other = join(tempDir(), 'c');
    await importQuiet('inspect', [fixturePath('inspect', 'log_formats.eval')], { into: other, asOf: '2026-01-01' });
    assert.deepEqual(runsOf(other).runs[0]!.generation, { temperature: 1 });
  });

  /** The EEE fixture with its aggregate's score set to what its one record gives, and edited as given. */
  function eeeCopy(edit: (agg: Record<string, any>) => void): string {
    const dir = tempDir();
    cpSync(fixturePath('every-eval-ever', 'demo_samples.jsonl'), join(dir, 'demo_samples.jsonl'));
    const agg = JSON.parse(readFileSync(fixturePath('every-eval-ever', 'demo_aggregate.json'), 'utf8'));
    agg.evaluation_results[0].score_details.score = 1;
    edit(agg);
    writeFileSync(join(dir, 'demo_aggregate.json'), JSON.stringify(agg));
    return dir;
  }

  it("Every Eval Ever: the aggregate's evaluation time, library and generation_config; unknown stays unknown; a gspc export gives none", async () => {
    const into = join(tempDir(), 'c');
    await importQuiet('eee', [eeeCopy(() => {})], { into, asOf: '2026-01-01' });
    // The fixture's library and version are both `unknown`.
    assert.deepEqual(runsOf(into).runs, [
      { model: 'demo-org/demo-model', axis: 'demo-source-demo-bench', date: '2025-06-15T15:06:40Z' },
    ]);

    const full = join(tempDir(), 'c');
    const dir = eeeCopy((agg) => {
      agg.eval_library = { name: 'inspect_ai', version: '0.3.162' };
      agg.evaluation_results[0].generation_config = {
        generation_args: {
          temperature: 0.7,
          max_tokens: 64,
          prompt_template: 'Q: {question}\nA:',
          execution_command: 'inspect eval x',
        },
      };
    });
    await importQuiet('eee', [dir], { into: full, asOf: '2026-01-01' });
    assert.deepEqual(runsOf(full).runs[0], {
      model: 'demo-org/demo-model',
      axis: 'demo-source-demo-bench',
      harness: 'inspect',
      harness_version: '0.3.162',
      date: '2025-06-15T15:06:40Z',
      generation: { temperature: 0.7, max_tokens: 64 },
      template: { prompt_template: 'Q: {question}\nA:' },
    });

    const exported = join(tempDir(), 'c');
    await importQuiet('eee', [eeeCopy((agg) => (agg.eval_library.name = 'gspc'))], {
      into: exported,
      asOf: '2026-01-01',
    });
    assert.equal(existsSync(join(exported, 'runs.json')), false);
  });
});
