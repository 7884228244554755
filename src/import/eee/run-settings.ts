/**
 * How an Every Eval Ever aggregate record says a result was produced (issue 40 item 2;
 * docs/import.md, "Run settings"): the library that ran it (`eval_library`, its name in this
 * board's spelling where it is one of the harnesses `gspc import` reads), its version, the
 * evaluation time, and the result's `generation_config.generation_args` (sampling and length
 * settings, whether reasoning was used; its `prompt_template` as the template). `unknown` is
 * unknown. A record `gspc export eee` wrote (`eval_library.name` `gspc`) says how the board
 * published a result, not how the model was run: it gives no settings.
 */
import type { RunSettings, SettingValue } from '../../core/board/run-settings.js';
import type { EeeAggregate, EeeResult } from './eee-records.js';

/** Library names as Every Eval Ever records spell them, in this board's spelling. */
const HARNESS_NAMES: Record<string, string> = {
  lm_eval: 'lm-eval',
  'lm-eval': 'lm-eval',
  'lm-evaluation-harness': 'lm-eval',
  inspect_ai: 'inspect',
  inspect: 'inspect',
  helm: 'helm',
  'crfm-helm': 'helm',
};

const GENERATION_FIELDS = ['temperature', 'top_p', 'top_k', 'max_tokens', 'reasoning'] as const;

/** `evaluation_timestamp`: Unix seconds as text (what the schema's examples write), or an ISO 8601 time. */
function dateOf(ts: string | undefined): string | undefined {
  if (ts === undefined) return undefined;
  const t = /^\d+(\.\d+)?$/.test(ts) ? Number(ts) * 1000 : /^\d{4}-\d{2}-\d{2}T/.test(ts) ? Date.parse(ts) : Number.NaN;
  return Number.isFinite(t) ? new Date(t).toISOString().replace(/\.000Z$/, 'Z') : undefined;
}

export function eeeSettings(agg: EeeAggregate, result: EeeResult | undefined): RunSettings {
  const lib = agg.eval_library;
  if (lib.name === 'gspc') return {};
  const s: RunSettings = {};
  const name = lib.name.trim().toLowerCase();
  if (name !== '' && name !== 'unknown') s.harness = HARNESS_NAMES[name] ?? lib.name;
  if (lib.version !== '' && lib.version.toLowerCase() !== 'unknown') s.harness_version = lib.version;
  const date = dateOf(agg.evaluation_timestamp);
  if (date !== undefined) s.date = date;
  const args = (result as { generation_config?: { generation_args?: Record<string, unknown> } } | undefined)
    ?.generation_config?.generation_args;
  if (args !== undefined && args !== null) {
    const generation: Record<string, SettingValue> = {};
    for (const f of GENERATION_FIELDS)
      if (args[f] !== undefined && args[f] !== null) generation[f] = args[f] as SettingValue;
    if (Object.keys(generation).length > 0) s.generation = generation;
    if (typeof args.prompt_template === 'string') s.template = { prompt_template: args.prompt_template };
  }
  return s;
}
