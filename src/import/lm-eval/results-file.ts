/**
 * The `results_<time>.json` lm-eval writes beside the samples: the model's name, the harness
 * version, when the run finished, and the aggregate it reports per task as
 * `results.<task>["<metric>,<filter>"]`. Small (kilobytes), so it is read whole.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { GspcError } from '../../core/errors.js';
import type { ReportedAggregate } from '../imported.js';
import type { RecordedCard } from '../../core/board/model-card.js';
import { lmEvalCard } from './model-card.js';
import type { RunSettings } from '../../core/board/run-settings.js';
import { lmEvalSettings } from './run-settings.js';
import { groupLeaves, groupTags } from './group-tags.js';

export interface LmEvalResults {
  path: string;
  /** `model_name`, else `config.model_args.pretrained` (object or `k=v,…` string), else null. */
  model: string | null;
  version: string | null;
  /** From `date` (Unix seconds), else null. */
  as_of: string | null;
  tasks: Record<string, Record<string, unknown>>;
  /** What `config` records about the model (model-card.ts). */
  card: RecordedCard;
  /** How it ran a task (run-settings.ts): shots, limit, generation and template settings, version, date. */
  settings: (task: string) => RunSettings;
  /** The task and the groups above it in `group_subtasks`, when the run was of a group (group-tags.ts). */
  tags: (task: string) => string[] | undefined;
  /** The leaf tasks under these groups in `group_subtasks` (group-tags.ts). */
  leaves: (groups: readonly string[]) => string[];
}

function modelFromArgs(args: unknown): string | null {
  if (args && typeof args === 'object' && typeof (args as { pretrained?: unknown }).pretrained === 'string')
    return (args as { pretrained: string }).pretrained;
  if (typeof args === 'string') {
    for (const part of args.split(',')) {
      const [k, v] = part.split('=');
      if ((k?.trim() === 'pretrained' || k?.trim() === 'model') && v) return v.trim();
    }
  }
  return null;
}

export function readResults(path: string): LmEvalResults {
  let j: Record<string, unknown>;
  try {
    j = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new GspcError('import_refused', `${path}: not a JSON results file (${(e as Error).message})`);
  }
  const config = (j.config ?? {}) as Record<string, unknown>;
  const model =
    typeof j.model_name === 'string' && j.model_name !== '' ? j.model_name : modelFromArgs(config.model_args);
  const date = typeof j.date === 'number' && Number.isFinite(j.date) ? new Date(j.date * 1000).toISOString() : null;
  const version = typeof j.lm_eval_version === 'string' ? j.lm_eval_version : null;
  return {
    path,
    model,
    version,
    as_of: date,
    tasks: (j.results ?? {}) as Record<string, Record<string, unknown>>,
    card: lmEvalCard(j.config),
    settings: (task) => lmEvalSettings(j, task, version, date),
    tags: (task) => groupTags(j.group_subtasks, task),
    leaves: (groups) => groupLeaves(j.group_subtasks, groups),
  };
}

/** `results.<task>["<metric>,<filter>"]`: lm-eval averages over every sample, unparsed ones scoring 0. */
export function reportedAggregate(
  r: LmEvalResults,
  task: string,
  metric: string,
  filter: string,
): ReportedAggregate | null {
  const key = `${metric},${filter}`;
  const value = r.tasks[task]?.[key];
  if (value === undefined) return null;
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new GspcError('import_refused', `${r.path}: results.${task}["${key}"] is not a number`);
  return { metric, value, denominator: 'all', source: `${basename(r.path)} results.${task}["${key}"]` };
}
