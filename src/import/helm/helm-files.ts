/**
 * The five JSON files of a HELM run directory (`benchmark_output/runs/<suite>/<run>/`), read and
 * typed as far as the HELM reader uses them. HELM writes each file whole with `json.dump`, so
 * they are parsed whole; a missing or unparsable file refuses the run, naming the file.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { GspcError } from '../../core/errors.js';

export const HELM_FILES = [
  'run_spec.json',
  'scenario.json',
  'scenario_state.json',
  'per_instance_stats.json',
  'stats.json',
] as const;

export interface HelmReference {
  output: { text: string };
  tags: string[];
}

export interface HelmInstance {
  id: string;
  split: string;
  references: HelmReference[];
  /** Present on the perturbed copies HELM adds for robustness and fairness. */
  perturbation?: unknown;
}

export interface HelmCompletion {
  text: string;
  logprob: number;
}

export interface HelmRequestState {
  instance: HelmInstance;
  train_trial_index: number;
  /** Letter → reference text, in multiple-choice-joint runs. */
  output_mapping?: Record<string, string> | null;
  /** Set (with one request per reference) by the multiple-choice-separate methods. */
  reference_index?: number | null;
  result?: { success?: boolean; completions?: HelmCompletion[] } | null;
}

/** A HELM stat: `name` names the metric, the split and (for perturbed instances) the perturbation. */
export interface HelmStat {
  name: { name: string; split?: string; perturbation?: unknown };
  count: number;
  sum?: number;
  mean?: number;
}

export interface HelmRun {
  dir: string;
  runSpec: { name: string; scenario_spec?: { args?: Record<string, unknown> }; adapter_spec: HelmAdapterSpec };
  scenario: { name: string };
  requestStates: HelmRequestState[];
  perInstance: { instance_id: string; train_trial_index: number; perturbation?: unknown; stats: HelmStat[] }[];
  stats: HelmStat[];
  /** SHA-256 of scenario_state.json, the file the rows come from. */
  stateSha256: string;
}

export interface HelmAdapterSpec {
  method: string;
  model?: string;
}

function readJson(dir: string, name: string): { value: unknown; bytes: Buffer } {
  const path = join(dir, name);
  if (!existsSync(path))
    throw new GspcError(
      'import_refused',
      `${path}: missing; a HELM run directory holds ${HELM_FILES.join(', ')} (point at benchmark_output/runs/<suite>/<run>/)`,
    );
  const bytes = readFileSync(path);
  try {
    return { value: JSON.parse(bytes.toString('utf8')), bytes };
  } catch (e) {
    throw new GspcError('import_refused', `${path}: not valid JSON (${(e as Error).message})`);
  }
}

function need(ok: boolean, path: string, what: string): void {
  if (!ok) throw new GspcError('import_refused', `${path}: ${what}`);
}

/** Reads one run directory; every structural gap is refused with the file that has it. */
export function readHelmRun(dir: string): HelmRun {
  const runSpec = readJson(dir, 'run_spec.json').value as HelmRun['runSpec'];
  need(
    typeof runSpec?.name === 'string' && typeof runSpec.adapter_spec?.method === 'string',
    join(dir, 'run_spec.json'),
    'not a HELM run spec (needs name and adapter_spec.method)',
  );
  const scenario = readJson(dir, 'scenario.json').value as HelmRun['scenario'];
  need(typeof scenario?.name === 'string', join(dir, 'scenario.json'), 'not a HELM scenario (needs name)');
  const state = readJson(dir, 'scenario_state.json');
  const requestStates = (state.value as { request_states?: unknown }).request_states;
  need(
    Array.isArray(requestStates) &&
      requestStates.every((r) => typeof r?.instance?.id === 'string' && Array.isArray(r.instance.references)),
    join(dir, 'scenario_state.json'),
    'not a HELM scenario state (needs request_states[] with instance.id and instance.references)',
  );
  const perInstance = readJson(dir, 'per_instance_stats.json').value;
  need(
    Array.isArray(perInstance) &&
      perInstance.every((p) => typeof p?.instance_id === 'string' && Array.isArray(p.stats)),
    join(dir, 'per_instance_stats.json'),
    'not HELM per-instance stats (needs a list of {instance_id, stats[]})',
  );
  const stats = readJson(dir, 'stats.json').value;
  need(
    Array.isArray(stats) && stats.every((s) => typeof s?.name?.name === 'string'),
    join(dir, 'stats.json'),
    'not HELM stats (needs a list of {name: {name, split}, count, mean})',
  );
  return {
    dir,
    runSpec,
    scenario,
    requestStates: requestStates as HelmRequestState[],
    perInstance: perInstance as HelmRun['perInstance'],
    stats: stats as HelmStat[],
    stateSha256: createHash('sha256').update(state.bytes).digest('hex'),
  };
}

/**
 * The run directories a path names: a run directory itself, one of its five files, or a suite
 * directory (`runs/<suite>/`) whose subdirectories are runs. Anything else is refused.
 */
export function helmRunDirs(path: string): string[] {
  if (!existsSync(path)) throw new GspcError('import_refused', `${path}: no such file or directory`);
  if (!statSync(path).isDirectory()) {
    if ((HELM_FILES as readonly string[]).includes(basename(path))) return [dirname(path)];
    throw new GspcError(
      'import_refused',
      `${path}: not a HELM run directory or one of its files (${HELM_FILES.join(', ')})`,
    );
  }
  if (existsSync(join(path, 'run_spec.json'))) return [path];
  const runs = readdirSync(path, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(path, e.name, 'run_spec.json')))
    .map((e) => join(path, e.name))
    .sort();
  if (runs.length === 0)
    throw new GspcError(
      'import_refused',
      `${path}: no run_spec.json here or in its subdirectories; point at a HELM run directory (benchmark_output/runs/<suite>/<run>/)`,
    );
  return runs;
}
