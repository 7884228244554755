/**
 * The HELM reader on the real run in test/fixtures/helm/mmlu-philosophy-gpt2 (MMLU philosophy,
 * multiple_choice_joint, openai/gpt2; test/fixtures/README.md): one row per unperturbed test
 * instance, the letters as labels, verdicts from exact_match, and the same accuracy as
 * stats.json. Every refusal is exercised on an edited copy of the fixture.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { GspcError } from '../../src/core/errors.js';
import type { ImportedRow, ImportedRun, ReadOptions } from '../../src/import/imported.js';
import { HELM_FILES } from '../../src/import/helm/helm-files.js';
import { helmNormalizeText } from '../../src/import/helm/helm-normalise.js';
import { readHelm } from '../../src/import/helm/read-helm.js';
import { fixturePath } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';

const FIXTURE = fixturePath('helm', 'mmlu-philosophy-gpt2');
const TASK = 'mmlu:subject=philosophy';

async function runs(paths: string[], opts: ReadOptions = {}): Promise<{ run: ImportedRun; rows: ImportedRow[] }[]> {
  const out = [];
  for await (const run of readHelm(paths, opts)) {
    const rows: ImportedRow[] = [];
    for await (const r of run.rows) rows.push(r);
    out.push({ run, rows });
  }
  return out;
}

type Files = Record<(typeof HELM_FILES)[number], any>;

/** A copy of the fixture run with `edit` applied to its parsed files. */
function editedRun(edit: (f: Files) => void, name = 'run'): string {
  const dir = join(tempDir(), name);
  mkdirSync(dir, { recursive: true });
  const files = Object.fromEntries(
    HELM_FILES.map((f) => [f, JSON.parse(readFileSync(join(FIXTURE, f), 'utf8'))]),
  ) as Files;
  edit(files);
  for (const f of HELM_FILES) writeFileSync(join(dir, f), JSON.stringify(files[f]));
  return dir;
}

/** The one run the paths hold. */
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

const inGold = (r: ImportedRow) =>
  r.label !== null && (Array.isArray(r.gold) ? r.gold.includes(r.label) : r.gold === r.label);

describe('HELM reader: the MMLU philosophy run of openai/gpt2', () => {
  it('reads one run of the 9 test instances with the model, letters and verdicts HELM scored', async () => {
    const [only, ...rest] = await runs([FIXTURE]);
    assert.equal(rest.length, 0);
    const { run, rows } = only!;
    assert.equal(run.format, 'helm');
    assert.equal(run.model, 'openai/gpt2');
    assert.equal(run.task, TASK);
    assert.deepEqual(run.labels, ['A', 'B', 'C', 'D']);
    assert.equal(rows.length, 9);
    assert.ok(!rows.some((r) => r.item.endsWith('/id11')), 'the valid-split instance is not imported');
    assert.deepEqual(rows[0], {
      ...rows[0],
      item: `${TASK}/id147`,
      model: 'openai/gpt2',
      gold: 'C',
      label: 'D',
    });
    assert.equal(rows[0]!.provenance.response, ' D');
    assert.equal(rows[0]!.provenance.split, 'test');
    assert.equal(rows[0]!.provenance.sample_id, 'id147');
    assert.equal(run.source.sha256, rows[0]!.provenance.source_sha256);
    // gpt2 answers D to everything; D is right only on id222.
    assert.deepEqual(
      rows.filter(inGold).map((r) => r.item),
      [`${TASK}/id222`],
    );
    for (const r of rows) {
      assert.equal(r.verdict?.metric, 'exact_match');
      assert.equal(r.verdict?.correct, inGold(r), r.item);
    }
  });

  it('has the accuracy stats.json reports for the test split, and says which split it took', async () => {
    const { run, rows } = await oneRun([FIXTURE]);
    assert.deepEqual(run.reported, {
      metric: 'exact_match',
      value: 0.1111111111111111,
      denominator: 'all',
      source: 'stats.json exact_match (split test, no perturbation) mean, count 1',
    });
    assert.equal(rows.filter(inGold).length / rows.length, run.reported?.value);
    assert.ok(
      run.notes.includes("split 'test' (the default); evaluated splits: test (9 instances), valid (1 instances)"),
    );
    assert.ok(run.notes.includes("per-item verdicts from HELM's exact_match"));
  });

  it('takes another split when asked, and accepts a suite directory or one of the run files', async () => {
    const { run, rows } = await oneRun([FIXTURE], { split: 'valid' });
    assert.deepEqual(
      rows.map((r) => [r.item, r.gold, r.label]),
      [[`${TASK}/id11`, 'C', 'D']],
    );
    assert.equal(run.reported?.value, 0);
    assert.ok(run.notes.some((n) => n.startsWith("split 'valid' (asked for)")));
    assert.equal((await runs([fixturePath('helm')]))[0]!.rows.length, 9);
    assert.equal((await runs([join(FIXTURE, 'stats.json')]))[0]!.rows.length, 9);
  });

  it('refuses a split the run did not evaluate, listing the splits it did', async () => {
    await refused(
      [FIXTURE],
      /split 'dev' was not evaluated in this run; evaluated splits: test \(9 instances\), valid \(1 instances\)/,
      {
        split: 'dev',
      },
    );
  });

  it('excludes perturbed instances and says how many', async () => {
    const dir = editedRun((f) => {
      const copy = structuredClone(f['scenario_state.json'].request_states[0]);
      copy.instance.perturbation = { name: 'robustness' };
      copy.result.completions[0].text = ' C';
      f['scenario_state.json'].request_states.push(copy);
    });
    const { run, rows } = await oneRun([dir]);
    assert.equal(rows.length, 9);
    assert.ok(run.notes.includes('1 perturbed request states excluded (robustness and fairness copies)'));
  });

  it('reads a letter the question does not offer as unparsed, as HELM maps it to None', async () => {
    const dir = editedRun((f) => {
      f['scenario_state.json'].request_states[0].result.completions[0].text = ' M';
    });
    const { rows } = await oneRun([dir]);
    assert.equal(rows[0]!.label, null);
    assert.equal(rows[0]!.verdict?.correct, null);
    assert.equal(rows[0]!.provenance.response, ' M');
  });

  it('falls back to quasi_exact_match, and takes train trial 0 of several', async () => {
    const dir = editedRun((f) => {
      for (const p of f['per_instance_stats.json'])
        p.stats = p.stats.filter((s: { name: { name: string } }) => s.name.name !== 'exact_match');
      const again = structuredClone(f['scenario_state.json'].request_states[2]);
      again.train_trial_index = 1;
      f['scenario_state.json'].request_states.push(again);
    });
    const { run, rows } = await oneRun([dir]);
    assert.equal(rows.length, 9);
    assert.equal(rows[0]!.verdict?.metric, 'quasi_exact_match');
    assert.equal(run.reported?.metric, 'quasi_exact_match');
    assert.ok(run.notes.includes('2 train trials in the run; the rows are train trial 0'));
  });
});

describe('HELM reader: quasi_exact_match normalisation', () => {
  it('lower-cases, drops punctuation and articles, collapses whitespace (HELM normalize_text)', () => {
    assert.equal(helmNormalizeText('  The Answer, is:  a CAT!\n'), 'answer is cat');
    assert.equal(helmNormalizeText('An apple-pie'), 'applepie');
    assert.equal(helmNormalizeText('thea theater'), 'thea theater');
    assert.equal(helmNormalizeText('Élan a été'), 'élan été');
  });
});

describe('HELM reader: refusals', () => {
  it('refuses a path that is not a run, a missing file and a file that is not JSON', async () => {
    await refused([join(tempDir(), 'nothing')], /nothing: no such file or directory/);
    await refused([tempDir()], /no run_spec\.json here or in its subdirectories; point at a HELM run directory/);
    await refused([fixturePath('README.md')], /README\.md: not a HELM run directory or one of its files/);
    const missing = editedRun(() => {});
    writeFileSync(join(missing, 'stats.json'), '{');
    await refused([missing], /stats\.json: not valid JSON/);
    const dir = join(tempDir(), 'partial');
    mkdirSync(dir);
    writeFileSync(join(dir, 'run_spec.json'), readFileSync(join(FIXTURE, 'run_spec.json')));
    await refused([dir], /scenario\.json: missing; a HELM run directory holds run_spec\.json, scenario\.json/);
  });

  it('refuses files without the structure HELM writes, naming the file', async () => {
    const cases: [(f: Files) => void, RegExp][] = [
      [(f) => delete f['run_spec.json'].adapter_spec, /run_spec\.json: not a HELM run spec/],
      [(f) => delete f['scenario.json'].name, /scenario\.json: not a HELM scenario \(needs name\)/],
      [(f) => delete f['scenario_state.json'].request_states, /scenario_state\.json: not a HELM scenario state/],
      [(f) => (f['per_instance_stats.json'] = {}), /per_instance_stats\.json: not HELM per-instance stats/],
      [(f) => (f['stats.json'] = [{}]), /stats\.json: not HELM stats/],
    ];
    for (const [edit, message] of cases) await refused([editedRun(edit)], message);
  });

  it('refuses an adapter method without one answer per instance, and a run without a model', async () => {
    await refused(
      [editedRun((f) => (f['run_spec.json'].adapter_spec.method = 'multiple_choice_separate_original'))],
      /adapter method 'multiple_choice_separate_original' is not read; only multiple_choice_joint and generation/,
    );
    const noModel = editedRun((f) => delete f['run_spec.json'].adapter_spec.model);
    await refused([noModel], /adapter_spec\.model is missing; name the model with --model/);
    const { run } = await oneRun([noModel], { model: 'hf/gpt2' });
    assert.equal(run.model, 'hf/gpt2');
  });

  it('refuses a choice between several splits without test, and an unscored split', async () => {
    const noTest = editedRun((f) => {
      for (const r of f['scenario_state.json'].request_states)
        if (r.instance.split === 'test') r.instance.split = 'dev';
    });
    await refused(
      [noTest],
      /no test split and 2 evaluated splits \(dev \(9 instances\), valid \(1 instances\)\); choose one with --split/,
    );
    const onlyValid = editedRun((f) => {
      f['scenario_state.json'].request_states = f['scenario_state.json'].request_states.filter(
        (r: { instance: { split: string } }) => r.instance.split === 'valid',
      );
    });
    const { run } = await oneRun([onlyValid]);
    assert.ok(run.notes.some((n) => n.startsWith("split 'valid' (the only evaluated split)")));
    const unscored = editedRun((f) => {
      for (const p of f['per_instance_stats.json'])
        p.stats = p.stats.filter((s: { name: { name: string } }) => !s.name.name.includes('exact_match'));
    });
    await refused(
      [unscored],
      /no exact_match or quasi_exact_match stat for split 'test', so HELM did not score its instances/,
    );
  });

  it('refuses files of different runs (num_instances differs) and instances without a gold letter', async () => {
    await refused(
      [
        editedRun((f) => {
          for (const s of f['stats.json']) if (s.name.name === 'num_instances' && s.name.split === 'test') s.mean = 10;
        }),
      ],
      /num_instances for split 'test' is 10 but scenario_state\.json has 9 unperturbed instances of it: the files are not of the same run/,
    );
    await refused(
      [editedRun((f) => (f['scenario_state.json'].request_states[0].instance.references[2].tags = []))],
      /request_states\[0\]: instance id147 has no reference tagged correct/,
    );
    await refused(
      [editedRun((f) => delete f['scenario_state.json'].request_states[0].output_mapping)],
      /request_states\[0\]: a multiple_choice_joint request state without output_mapping/,
    );
    await refused(
      [editedRun((f) => (f['scenario_state.json'].request_states[0].output_mapping.C = 'something else'))],
      /request_states\[0\]: no letter of output_mapping maps to a reference tagged correct \(instance id147\)/,
    );
    await refused(
      [editedRun((f) => (f['scenario_state.json'].request_states[2].instance.id = 'id147'))],
      /request_states\[2\]: instance id147 appears twice in split 'test'/,
    );
  });
});
