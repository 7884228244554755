/**
 * Issue 41's "done when": a real lm-eval group output imports with its subtasks as tags. The
 * fixture (test/fixtures/README.md, `negotiationtom-group-qwen3-8b/`) is one `lm_eval --tasks
 * negotiationtom --limit 20 --log_samples` run of Qwen/Qwen3-8B, bytes as upstream: a results file
 * whose `group_subtasks` is `{"negotiationtom": [belief, desire, intention]}` and the three
 * subtasks' samples. No real MMLU group output with samples was found (decision MG1), so this is
 * the group case tested on real bytes; MMLU's deeper tree is the same rule one level down
 * (item-tags-import.test.ts). Everything is imported through `gspc import`, as the other lm-eval
 * tests do.
 */
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { readSample } from '../../src/import/lm-eval/sample-row.js';
import { tempDir } from '../helpers/tmp.js';
import { importQuiet, lmEval, snapshot } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- corpus rows and lm-eval records */
type Json = any;

const RUN = 'negotiationtom-group-qwen3-8b';
const TIME = '2026-07-08T16-04-34.219874';
const RESULTS = `results_${TIME}.json`;
const GROUP = 'negotiationtom';
const SUBTASKS = ['negotiationtom_belief', 'negotiationtom_desire', 'negotiationtom_intention'] as const;
/** The two multiple-choice subtasks (`acc`); intention is generation, scored by a set comparison. */
const MC = ['negotiationtom_belief', 'negotiationtom_desire'] as const;

const samplesFile = (task: string) => `samples_${task}_${TIME}.jsonl`;
const jsonl = (path: string): Json[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
const results = (): Json => JSON.parse(readFileSync(lmEval(RUN, RESULTS), 'utf8'));
const axisOf = (task: string) => task.replace(/_/g, '-');
const rowsOf = (corpus: string, task: string): Json[] => jsonl(join(corpus, 'peritem', `${axisOf(task)}.jsonl`));

/** A writable copy of the run holding the results file and the named subtasks' samples only. */
function copyOf(tasks: readonly string[], edit?: (results: Json) => void): string {
  const dir = join(tempDir(), RUN);
  cpSync(lmEval(RUN), dir, { recursive: true });
  for (const f of readdirSync(dir))
    if (f.startsWith('samples_') && !tasks.some((t) => f === samplesFile(t))) rmSync(join(dir, f));
  if (edit) {
    const j = results();
    edit(j);
    writeFileSync(join(dir, RESULTS), JSON.stringify(j));
  }
  return dir;
}

describe('gspc import: a real lm-eval group run (negotiationtom, Qwen/Qwen3-8B, --limit 20)', () => {
  it('the fixture is what the README says: a group of three subtasks, 20 samples each', () => {
    const j = results();
    assert.deepEqual(j.group_subtasks, { [GROUP]: [...SUBTASKS] });
    assert.equal(j.model_name, 'Qwen/Qwen3-8B');
    assert.equal(j.config.limit, 20);
    for (const t of SUBTASKS) {
      assert.deepEqual(j['n-samples'][t], { original: t.endsWith('intention') ? 4618 : 13812, effective: 20 });
      assert.equal(jsonl(lmEval(RUN, samplesFile(t))).length, 20, t);
    }
  });

  it('the multiple-choice subtasks import with their subtask and group as tags, counts and accuracy as the harness reports', async () => {
    const corpus = join(tempDir(), 'mc');
    const { result } = await importQuiet('lm-eval', [copyOf(MC)], { into: corpus, asOf: '2026-07-09' });
    const j = results();
    assert.equal(result.runs.length, 2);
    for (const task of MC) {
      const samples = jsonl(lmEval(RUN, samplesFile(task)));
      const rows = rowsOf(corpus, task);
      // Per-subtask item count = the samples, one row per doc_id, all for the named model.
      assert.equal(rows.length, samples.length, task);
      assert.deepEqual(rows.map((r) => r.item).sort(), samples.map((s) => `${task}/${s.doc_id}`).sort());
      for (const r of rows) {
        assert.equal(r.model, 'Qwen/Qwen3-8B');
        assert.deepEqual(r.tags, [task, GROUP], r.item);
      }
      // The board's accuracy over the imported rows is the harness's own number for the subtask.
      const table = readCorpus(corpus).tables.get(axisOf(task))!;
      const right = rows.filter(
        (r) => r.label !== null && (Array.isArray(r.gold) ? r.gold : [r.gold]).includes(r.label),
      );
      assert.equal(right.length / rows.length, j.results[task]['acc,none'], task);
      assert.equal(right.length, samples.filter((s) => s.acc === 1).length);
      // The corpus keeps a tag set sorted.
      table.items.forEach((_, idx) => assert.deepEqual(table.facets.tagsOf(idx), [GROUP, task].sort()));
      const run = result.runs.find((r) => r.run.task === task)!;
      assert.equal(run.rows, 20);
      assert.equal(run.correct / run.rows, j.results[task]['acc,none']);
      assert.equal(run.disagreements, 0);
      assert.equal(
        run.reported,
        `harness reported acc ${j.results[task]['acc,none']} over 20 = board ${run.correct}/20`,
      );
    }
    // belief 9/20 = 0.45, desire 12/20 = 0.6; the group's acc 0.525 is their size-weighted mean.
    assert.equal(j.results.negotiationtom_belief['acc,none'], 0.45);
    assert.equal(j.results.negotiationtom_desire['acc,none'], 0.6);
    assert.equal((9 + 12) / 40, j.results[GROUP]['acc,none']);
  });

  it('the generation subtask: the harness scores a set of strategy names (letter A is Build-Rapport), which label ∈ gold cannot repeat: refused, with or without --accept-disagreement', async () => {
    const task = 'negotiationtom_intention';
    const samples = jsonl(lmEval(RUN, samplesFile(task)));
    assert.equal(samples.filter((s) => s.exact_match === 1).length / 20, results().results[task]['exact_match,none']);
    const corpus = join(tempDir(), 'intention');
    await assert.rejects(
      importQuiet('lm-eval', [copyOf([task])], { into: corpus, asOf: '2026-07-09' }),
      /4 rows where the harness's verdict and the board's grading \(label ∈ gold\) disagree.*\n.*samples_negotiationtom_intention_[^ ]+:11 negotiationtom_intention\/10: harness said exact_match=1 \(correct\), row grades wrong \(label "A {2}", gold "Build-Rapport"\)/,
    );
    // Accepting the disagreements leaves rows that do not add up to the harness's 0.2: still refused.
    await assert.rejects(
      importQuiet('lm-eval', [copyOf([task])], { into: corpus, asOf: '2026-07-09', acceptDisagreement: true }),
      /harness reported exact_match 0\.2 over 20 .* but the imported rows give 0\/20 = 0: refused/,
    );
  });

  it('a run of part of the group imports with a note naming the subtasks it lacks', async () => {
    const corpus = join(tempDir(), 'part');
    const { result, out } = await importQuiet('lm-eval', [copyOf(['negotiationtom_belief'])], {
      into: corpus,
      asOf: '2026-07-09',
    });
    assert.equal(result.runs.length, 1);
    const note = `${RESULTS}: group negotiationtom lists 2 subtasks with no samples in this import (negotiationtom_desire, negotiationtom_intention): its tags name part of the group`;
    assert.ok(result.runs[0]!.run.notes.includes(note), JSON.stringify(result.runs[0]!.run.notes));
    assert.ok(out.includes(`note: ${note}`));
    for (const r of rowsOf(corpus, 'negotiationtom_belief')) assert.deepEqual(r.tags, ['negotiationtom_belief', GROUP]);
    // The whole group: no such note.
    const whole = await importQuiet('lm-eval', [copyOf(MC, (j) => (j.group_subtasks = { [GROUP]: [...MC] }))], {
      into: join(tempDir(), 'whole'),
      asOf: '2026-07-09',
    });
    for (const s of whole.result.runs) assert.ok(!s.run.notes.some((n) => n.includes('no samples in this import')));
  });

  it('refused: another model run whose results file puts the subtask under another group, at the corpus row, writing nothing', async () => {
    const corpus = join(tempDir(), 'contradict');
    await importQuiet('lm-eval', [copyOf(['negotiationtom_belief'])], { into: corpus, asOf: '2026-07-09' });
    const before = snapshot(corpus);
    const other = copyOf(['negotiationtom_belief'], (j) => {
      j.model_name = 'Qwen/Qwen3-8B-second-run';
      j.group_subtasks = { tom: ['negotiationtom_belief'] };
    });
    await assert.rejects(
      importQuiet('lm-eval', [other], { into: corpus, asOf: '2026-07-09' }),
      /peritem\/negotiationtom-belief\.jsonl:1 negotiationtom_belief\/0: the corpus has tags \["negotiationtom","negotiationtom_belief"\].*the import has tags \["negotiationtom_belief","tom"\]/,
    );
    assert.deepEqual(snapshot(corpus), before);
  });
});

describe('lm-eval ≥ 0.4.3 writes an integer target as its decimal text (decision MG2)', () => {
  /** A multiple-choice line: continuations ` <choice>`, the model's log-likelihoods favour choice 1. */
  const line = (target: unknown, choices: string[]) => ({
    target,
    arguments: Object.fromEntries(choices.map((c, i) => [`gen_args_${i}`, { arg_0: 'Q:', arg_1: ` ${c}` }])),
    filtered_resps: choices.map((_, i) => [i === 1 ? '-1.0' : '-9.0', 'False']),
    metrics: ['acc'],
    acc: 0,
  });

  it('the real belief line 1: target "3" beside the letters A–D is choice index 3', () => {
    const s = jsonl(lmEval(RUN, samplesFile('negotiationtom_belief')))[0];
    assert.equal(s.target, '3');
    assert.equal(s.doc.gold, 3);
    const r = readSample(s, 'x:1');
    assert.equal(r.gold, '3');
    assert.equal(r.label, '0');
    assert.equal(r.correct, false);
  });

  it('text first, then the index; an index out of range or two readings that differ are refused', () => {
    assert.equal(readSample(line('3', ['A', 'B', 'C', 'D']), 'x:1').gold, '3');
    assert.equal(readSample(line('B', ['A', 'B', 'C', 'D']), 'x:1').gold, '1');
    assert.equal(readSample(line(2, ['A', 'B', 'C', 'D']), 'x:1').gold, '2');
    assert.equal(readSample(line('2', ['0', '1', '2', '3']), 'x:1').gold, '2', 'both readings agree');
    assert.throws(
      () => readSample(line('4', ['A', 'B', 'C', 'D']), 'x:1'),
      /x:1: target "4" is not one of the 4 choices/,
    );
    assert.throws(() => readSample(line('03', ['A', 'B', 'C', 'D']), 'x:1'), /target "03" is not one of the 4 choices/);
    assert.throws(
      () => readSample(line('2', ['1', '2', '3', '4']), 'x:1'),
      /x:1: target "2" is choice 1's text and, as lm-eval writes an integer target, choice index 2: ambiguous/,
    );
  });
});
