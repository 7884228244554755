/**
 * How lm-eval says it ran a task (issue 40 item 2; docs/import.md, "Run settings"), from the
 * results file beside the samples: the shots (`n-shot.<task>`, else `configs.<task>.num_fewshot`),
 * the limit (`config.limit`), the generation settings (`configs.<task>.generation_kwargs`, which
 * lm-eval writes after applying `--gen_kwargs`; else `config.gen_kwargs`), the template
 * (`configs.<task>`'s prompt fields, and the chat template's and system instruction's hashes lm-eval
 * writes), the version and the date. A trimmed results file without `configs` or `n-shot` records
 * no shots or template: they stay unknown.
 */
import type { RunSettings, SettingValue } from '../../core/board/run-settings.js';

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The fields of a task config that say how an item is put to the model. */
const TEMPLATE_FIELDS = [
  'output_type',
  'description',
  'doc_to_text',
  'doc_to_target',
  'doc_to_choice',
  'target_delimiter',
  'fewshot_delimiter',
] as const;

/** The run-level fields lm-eval writes about the prompt: null means none was applied. */
const RUN_TEMPLATE_FIELDS = ['chat_template_sha', 'system_instruction_sha', 'fewshot_as_multiturn'] as const;

/** `--gen_kwargs` as lm-eval records it: an object, or the command line's `k=v,k=v` text. */
function genKwargs(v: unknown): Record<string, SettingValue> | undefined {
  if (isObject(v)) return Object.keys(v).length > 0 ? (v as Record<string, SettingValue>) : undefined;
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const out: Record<string, SettingValue> = {};
  for (const part of v.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return undefined; // not the k=v form: not read rather than misread
    const raw = part.slice(eq + 1).trim();
    // lm-eval parses each value as a Python literal; numbers and booleans are the cases it writes.
    const num = Number(raw);
    out[part.slice(0, eq).trim()] =
      raw === 'True' || raw === 'true'
        ? true
        : raw === 'False' || raw === 'false'
          ? false
          : raw !== '' && Number.isFinite(num)
            ? num
            : raw;
  }
  return out;
}

export function lmEvalSettings(j: Json, task: string, version: string | null, date: string | null): RunSettings {
  const config = isObject(j.config) ? j.config : {};
  const taskConfig = isObject(j.configs) && isObject(j.configs[task]) ? j.configs[task] : undefined;
  const s: RunSettings = { harness: 'lm-eval' };
  if (version !== null) s.harness_version = version;
  if (date !== null) s.date = date;
  const nShot = isObject(j['n-shot']) ? j['n-shot'][task] : undefined;
  const shots = typeof nShot === 'number' ? nShot : taskConfig?.num_fewshot;
  if (typeof shots === 'number') s.shots = shots;
  if (typeof config.limit === 'number') s.limit = config.limit;
  const generation = isObject(taskConfig?.generation_kwargs)
    ? (taskConfig.generation_kwargs as Record<string, SettingValue>)
    : genKwargs(config.gen_kwargs);
  if (generation !== undefined && Object.keys(generation).length > 0) s.generation = generation;
  const template: Record<string, SettingValue> = {};
  for (const f of TEMPLATE_FIELDS) if (taskConfig?.[f] !== undefined) template[f] = taskConfig[f] as SettingValue;
  for (const f of RUN_TEMPLATE_FIELDS) if (f in j) template[f] = j[f] as SettingValue;
  if (Object.keys(template).length > 0) s.template = template;
  return s;
}
