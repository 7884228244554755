/**
 * What a HELM run says about itself, per split: which splits it evaluated, which matching metric
 * it scored each instance with (`per_instance_stats.json`) and the aggregate it reports
 * (`stats.json`). Perturbed stats (those whose name carries a `perturbation`) are never used:
 * the imported rows are the unperturbed instances.
 */
import { join } from 'node:path';
import { GspcError } from '../../core/errors.js';
import type { ReportedAggregate, RowUsage } from '../imported.js';
import type { HelmRun, HelmStat } from './helm-files.js';
import { HELM_MATCH_METRICS, type HelmMatchMetric } from './helm-normalise.js';

const plain = (s: HelmStat, metric: string, split: string) =>
  s.name.name === metric && s.name.split === split && s.name.perturbation === undefined;

/**
 * The split to import: the one asked for, else `test`, else the only evaluated split. A split
 * the run did not evaluate, or a choice between several without `test`, is refused with the list.
 */
export function chooseSplit(run: HelmRun, counts: Map<string, number>, requested: string | undefined): string {
  const listed = [...counts].map(([s, n]) => `${s} (${n} instances)`).join(', ');
  if (requested !== undefined) {
    if (counts.has(requested)) return requested;
    throw new GspcError(
      'import_refused',
      `${join(run.dir, 'scenario_state.json')}: split '${requested}' was not evaluated in this run; evaluated splits: ${listed}`,
    );
  }
  if (counts.has('test')) return 'test';
  if (counts.size === 1) return [...counts.keys()][0]!;
  throw new GspcError(
    'import_refused',
    `${join(run.dir, 'scenario_state.json')}: no test split and ${counts.size} evaluated splits (${listed}); choose one with --split`,
  );
}

/** The matching metric HELM scored the split's instances with: exact_match, else quasi_exact_match. */
export function verdictMetric(run: HelmRun, split: string): HelmMatchMetric {
  const names = new Set(
    run.perInstance.flatMap((p) => p.stats.filter((s) => s.name.split === split).map((s) => s.name.name)),
  );
  const metric = HELM_MATCH_METRICS.find((m) => names.has(m));
  if (metric !== undefined) return metric;
  throw new GspcError(
    'import_refused',
    `${join(run.dir, 'per_instance_stats.json')}: no exact_match or quasi_exact_match stat for split '${split}', so HELM did not score its instances right or wrong (stats present: ${[...names].sort().join(', ') || 'none'})`,
  );
}

/** Per (instance id, train trial): the metric's value HELM recorded for the unperturbed instance. */
export function perInstanceVerdicts(run: HelmRun, split: string, metric: HelmMatchMetric): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of run.perInstance) {
    if (p.perturbation !== undefined) continue;
    const stat = p.stats.find((s) => plain(s, metric, split));
    const value = stat?.mean ?? (stat && stat.count > 0 ? (stat.sum ?? 0) / stat.count : undefined);
    if (value !== undefined) out.set(`${p.instance_id}\u0000${p.train_trial_index}`, value);
  }
  return out;
}

/**
 * Per (instance id, train trial): the tokens and time HELM recorded for the unperturbed instance
 * (docs/import.md, "Tokens and latency"): `num_prompt_tokens` (input), `num_output_tokens` (what
 * the model generated, without an echoed prompt; `num_completion_tokens` would count it) and
 * `inference_runtime` (seconds, in milliseconds rounded to 0.001 ms). A stat is read only with
 * count 1 (one request's value: its `sum`); HELM writes count 0 for what it did not measure, and
 * that is unknown, never 0.
 */
export function perInstanceUsage(run: HelmRun, split: string): Map<string, RowUsage> {
  const out = new Map<string, RowUsage>();
  const one = (p: HelmRun['perInstance'][number], name: string): number | undefined => {
    const stat = p.stats.find((s) => plain(s, name, split));
    return stat !== undefined && stat.count === 1 ? stat.sum : undefined;
  };
  for (const p of run.perInstance) {
    if (p.perturbation !== undefined) continue;
    const usage: RowUsage = {};
    const input = one(p, 'num_prompt_tokens');
    const output = one(p, 'num_output_tokens');
    const seconds = one(p, 'inference_runtime');
    if (input !== undefined) usage.input_tokens = input;
    if (output !== undefined) usage.output_tokens = output;
    if (seconds !== undefined) usage.latency_ms = Math.round(seconds * 1e6) / 1e3;
    if (Object.keys(usage).length > 0) out.set(`${p.instance_id}\u0000${p.train_trial_index}`, usage);
  }
  return out;
}

/**
 * The aggregate HELM reports for the split, and what the reader has to say about it. HELM
 * merges one mean per train trial, so `count` is the number of trials: with one trial the mean
 * is over the same instances as the rows; with several it averages trials the rows (trial 0)
 * do not all come from, and it is not compared. `num_instances` must count the rows.
 */
export function reportedAggregate(
  run: HelmRun,
  split: string,
  metric: HelmMatchMetric,
  rows: number,
): { reported: ReportedAggregate | null; note?: string } {
  const file = join(run.dir, 'stats.json');
  const instances = run.stats.find((s) => plain(s, 'num_instances', split));
  if (instances?.mean !== undefined && instances.count === 1 && instances.mean !== rows)
    throw new GspcError(
      'import_refused',
      `${file}: num_instances for split '${split}' is ${instances.mean} but scenario_state.json has ${rows} unperturbed instances of it: the files are not of the same run`,
    );
  const stat = run.stats.find((s) => plain(s, metric, split));
  if (stat?.mean === undefined)
    return { reported: null, note: `stats.json has no ${metric} mean for split '${split}': no aggregate to compare` };
  if (stat.count !== 1)
    return {
      reported: null,
      note: `stats.json's ${metric} for split '${split}' averages ${stat.count} train trials; the rows are trial 0, so it is not compared`,
    };
  return {
    reported: {
      metric,
      value: stat.mean,
      // HELM scores an unmappable or empty prediction 0: its mean divides by every instance.
      denominator: 'all',
      source: `stats.json ${metric} (split ${split}, no perturbation) mean, count 1`,
    },
  };
}
