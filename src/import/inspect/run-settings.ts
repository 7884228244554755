/**
 * How an Inspect log says the task was run (issue 40 item 2; docs/import.md, "Run settings"):
 * the generation settings of the eval (`plan.config`, then `eval.model_generate_config` for what
 * it leaves unset), only those that change what the model is asked or may answer; the template
 * (the task's arguments, its version, and the solver plan's steps, which hold the system message
 * and the prompt templates); `eval.config.limit`; `eval.packages.inspect_ai`; `eval.created`.
 * Inspect records no shot count of its own: a task that takes one has it in its arguments.
 */
import { createHash } from 'node:crypto';
import type { RunSettings, SettingValue } from '../../core/board/run-settings.js';

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * GenerateConfig fields that change the answer a model can give. Left out: how the run was
 * carried out (max_connections, max_retries, timeout, cache settings) and the seed (which changes
 * which sample is drawn, not what is asked).
 */
const GENERATION_FIELDS = [
  'system_message',
  'max_tokens',
  'temperature',
  'top_p',
  'top_k',
  'stop_seqs',
  'frequency_penalty',
  'presence_penalty',
  'logit_bias',
  'num_choices',
  'best_of',
  'reasoning_effort',
  'reasoning_tokens',
  'response_schema',
] as const;

/** A plan larger than this is kept as the SHA-256 of its JSON text (the corpus holds values of at most 4 kB). */
const PLAN_MAX_CHARS = 4096;

export function inspectSettings(
  doc: Json,
  evalSpec: Json,
  version: string | null,
  created: string | null,
): RunSettings {
  const s: RunSettings = { harness: 'inspect' };
  if (version !== null) s.harness_version = version;
  if (created !== null) s.date = created;
  const config = isObject(evalSpec.config) ? evalSpec.config : {};
  if (typeof config.limit === 'number') s.limit = config.limit;
  const plan = isObject(doc.plan) ? doc.plan : {};
  const planConfig = isObject(plan.config) ? plan.config : {};
  const modelConfig = isObject(evalSpec.model_generate_config) ? evalSpec.model_generate_config : {};
  const generation: Record<string, SettingValue> = {};
  for (const f of GENERATION_FIELDS) {
    const v = planConfig[f] ?? modelConfig[f];
    if (v !== undefined && v !== null) generation[f] = v as SettingValue;
  }
  if (Object.keys(generation).length > 0) s.generation = generation;
  const template: Record<string, SettingValue> = {};
  if (isObject(evalSpec.task_args)) template.task_args = evalSpec.task_args as Record<string, SettingValue>;
  if (evalSpec.task_version !== undefined) template.task_version = evalSpec.task_version as SettingValue;
  if (Array.isArray(plan.steps)) {
    // The solver and its parameters of each step (what `params_passed` repeats is left out).
    const steps = plan.steps.filter(isObject).map((st) => ({ solver: st.solver, params: st.params ?? {} }));
    const text = JSON.stringify(steps);
    if (text.length <= PLAN_MAX_CHARS) template.plan = steps as unknown as SettingValue;
    else template.plan_sha256 = createHash('sha256').update(text).digest('hex');
  }
  if (Object.keys(template).length > 0) s.template = template;
  return s;
}
