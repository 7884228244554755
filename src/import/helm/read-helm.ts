/**
 * The HELM reader: a run directory (`run_spec.json`, `scenario.json`, `scenario_state.json`,
 * `per_instance_stats.json`, `stats.json`) as one run of per-item rows, one per unperturbed
 * instance of one split (docs/import.md, "HELM").
 *
 * In a multiple-choice-joint run the model answers with a letter, which HELM maps to a
 * reference text through the request's `output_mapping`; the rows keep the letters (label = the
 * model's letter, gold = the letters of the references tagged `correct`), so the exact-label
 * menu is the letters the question offered. In a generation run label and gold are texts.
 */
import { join } from 'node:path';
import { GspcError } from '../../core/errors.js';
import type { HarnessReader, ImportedRow, ImportedRun, ReadOptions } from '../imported.js';
import { withFacets } from '../facet-fields.js';
import { type HelmRequestState, type HelmRun, helmRunDirs, readHelmRun } from './helm-files.js';
import { helmNormaliser, type HelmMatchMetric } from './helm-normalise.js';
import { chooseSplit, perInstanceUsage, perInstanceVerdicts, reportedAggregate, verdictMetric } from './helm-stats.js';
import { helmSettings } from './run-settings.js';

/** The adapter methods with one answer per instance in one completion. */
const READ_METHODS = ['multiple_choice_joint', 'generation'] as const;

/**
 * The task: the scenario's name and its arguments (`mmlu:subject=philosophy`). HELM instance ids
 * are per dataset, so `id147` recurs in every MMLU subject; the arguments keep items of different
 * subjects apart when several runs go into one axis.
 */
function taskOf(run: HelmRun): string {
  const args = run.runSpec.scenario_spec?.args ?? {};
  const parts = Object.keys(args)
    .sort()
    .map((k) => `${k}=${typeof args[k] === 'string' ? args[k] : JSON.stringify(args[k])}`);
  return parts.length > 0 ? `${run.scenario.name}:${parts.join(',')}` : run.scenario.name;
}

/**
 * The tags HELM records for a run's items (decision IT8): the `subject` argument of its scenario
 * (`mmlu:subject=philosophy` → `["philosophy"]`), as written; none for a scenario without one.
 */
function subjectTags(run: HelmRun): string[] | undefined {
  const subject = run.runSpec.scenario_spec?.args?.subject;
  return typeof subject === 'string' && subject !== '' ? [subject] : undefined;
}

/** HELM scores the completion with the highest log-probability (a stable sort, as Python's). */
function topCompletion(r: HelmRequestState): string | null {
  const completions = r.result?.completions ?? [];
  if (completions.length === 0) return null;
  return [...completions].sort((a, b) => b.logprob - a.logprob)[0]!.text;
}

interface Answer {
  gold: string | string[];
  label: string | null;
}

function answerOf(r: HelmRequestState, letters: boolean, at: string): Answer {
  const correct = [
    ...new Set(r.instance.references.filter((x) => x.tags.includes('correct')).map((x) => x.output.text)),
  ];
  if (correct.length === 0)
    throw new GspcError('import_refused', `${at}: instance ${r.instance.id} has no reference tagged correct`);
  const pred = topCompletion(r)?.trim() ?? '';
  if (!letters) return { gold: correct.length === 1 ? correct[0]! : correct, label: pred === '' ? null : pred };
  const mapping = r.output_mapping;
  if (mapping === undefined || mapping === null)
    throw new GspcError('import_refused', `${at}: a multiple_choice_joint request state without output_mapping`);
  const gold = Object.keys(mapping).filter((k) => correct.includes(mapping[k]!));
  if (gold.length === 0)
    throw new GspcError(
      'import_refused',
      `${at}: no letter of output_mapping maps to a reference tagged correct (instance ${r.instance.id})`,
    );
  // HELM maps the stripped completion through the mapping; a letter it does not offer maps to
  // None (scored 0 by HELM), which is an unparsed row here, never a wrong one.
  const label = Object.hasOwn(mapping, pred) ? pred : null;
  return { gold: gold.length === 1 ? gold[0]! : gold, label };
}

function runOf(run: HelmRun, opts: ReadOptions): ImportedRun {
  const specFile = join(run.dir, 'run_spec.json');
  const stateFile = join(run.dir, 'scenario_state.json');
  const method = run.runSpec.adapter_spec.method;
  if (!(READ_METHODS as readonly string[]).includes(method))
    throw new GspcError(
      'import_refused',
      `${specFile}: adapter method '${method}' is not read; only ${READ_METHODS.join(' and ')} give one answer per instance in one completion (the multiple_choice_separate methods score each reference by likelihood instead)`,
    );
  const letters = method === 'multiple_choice_joint';
  const model = run.runSpec.adapter_spec.model ?? opts.model;
  if (model === undefined)
    throw new GspcError('import_refused', `${specFile}: adapter_spec.model is missing; name the model with --model`);

  const notes: string[] = [];
  const indexed = run.requestStates.map((r, i) => ({ r, i }));
  const unperturbed = indexed.filter(
    ({ r }) => r.instance.perturbation === undefined || r.instance.perturbation === null,
  );
  if (unperturbed.length < indexed.length)
    notes.push(
      `${indexed.length - unperturbed.length} perturbed request states excluded (robustness and fairness copies)`,
    );
  const trials = new Set(unperturbed.map(({ r }) => r.train_trial_index));
  if (trials.size > 1) notes.push(`${trials.size} train trials in the run; the rows are train trial 0`);
  const firstTrial = unperturbed.filter(({ r }) => r.train_trial_index === 0);

  const counts = new Map<string, number>();
  for (const { r } of firstTrial) counts.set(r.instance.split, (counts.get(r.instance.split) ?? 0) + 1);
  const split = chooseSplit(run, counts, opts.split);
  const why = opts.split !== undefined ? 'asked for' : split === 'test' ? 'the default' : 'the only evaluated split';
  notes.push(
    `split '${split}' (${why}); evaluated splits: ${[...counts].map(([s, n]) => `${s} (${n} instances)`).join(', ')}`,
  );
  const chosen = firstTrial.filter(({ r }) => r.instance.split === split);

  const metric: HelmMatchMetric = verdictMetric(run, split);
  const verdicts = perInstanceVerdicts(run, split, metric);
  const usages = perInstanceUsage(run, split);
  const normalise = helmNormaliser(metric, letters);
  notes.push(`per-item verdicts from HELM's ${metric}`);
  const aggregate = reportedAggregate(run, split, metric, chosen.length);
  if (aggregate.note !== undefined) notes.push(aggregate.note);

  const task = taskOf(run);
  const tags = subjectTags(run);
  const seen = new Set<string>();
  const rows: ImportedRow[] = chosen.map(({ r, i }) => {
    const at = `${stateFile} request_states[${i}]`;
    if (seen.has(r.instance.id))
      throw new GspcError('import_refused', `${at}: instance ${r.instance.id} appears twice in split '${split}'`);
    seen.add(r.instance.id);
    const { gold, label } = answerOf(r, letters, at);
    const value = verdicts.get(`${r.instance.id}\u0000${r.train_trial_index}`);
    const row: ImportedRow = {
      item: `${task}/${r.instance.id}`,
      model,
      gold,
      label,
      provenance: {
        harness: 'helm',
        harness_version: null,
        task,
        sample_id: r.instance.id,
        split,
        response: topCompletion(r),
        source_sha256: run.stateSha256,
      },
      at,
    };
    if (opts.cluster) row.cluster = opts.cluster.of(r, at); // the request state: instance.<field>, …
    if (tags !== undefined) row.tags = tags;
    withFacets(row, opts.facets, r, at);
    const usage = usages.get(`${r.instance.id}\u0000${r.train_trial_index}`);
    if (usage !== undefined) row.usage = usage;
    if (value !== undefined)
      row.verdict = { correct: label === null && value === 0 ? null : value >= 1, raw: value, metric, normalise };
    return row;
  });

  const menu = letters ? [...new Set(chosen.flatMap(({ r }) => Object.keys(r.output_mapping ?? {})))] : null;
  return {
    format: 'helm',
    // HELM's run files do not say when the run was made: --as-of or an existing board.json's.
    as_of: null,
    task,
    model,
    source: { file: stateFile, sha256: run.stateSha256 },
    labels: menu,
    reported: aggregate.reported,
    notes,
    rows,
    settings: {
      fields: helmSettings(run.runSpec.adapter_spec as unknown as Record<string, unknown>),
      source: `${specFile} adapter_spec`,
    },
  };
}

export const readHelm: HarnessReader = async function* (paths, opts) {
  for (const path of paths) for (const dir of helmRunDirs(path)) yield runOf(readHelmRun(dir), opts);
};
