/**
 * How an Every Eval Ever aggregate record says a result was produced (issue 40 item 2;
 * docs/import.md, "Run settings"): the library that ran it (`eval_library`, its name in this
 * board's spelling where it is one of the harnesses `gspc import` reads), its version, the
 * evaluation time, and the result's `generation_config.generation_args` (sampling and length
 * settings, whether reasoning was used; its `prompt_template` as the template). `unknown` is
 * unknown. A record `gspc export eee` wrote (`eval_library.name` `gspc`) names the board, not the
 * harness that ran the model: its settings are the `runs.json` entry the export carried whole in
 * `generation_config.additional_details.gspc_run_settings` (src/export/eee-run-settings.ts), and
 * nothing else of it.
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

type GenerationConfig = { generation_args?: Record<string, unknown>; additional_details?: Record<string, unknown> };

/** The entry a gspc export carried, or nothing when it carried none or it is not a JSON object. */
function exportedSettings(config: GenerationConfig | undefined): RunSettings {
  const text = config?.additional_details?.gspc_run_settings;
  if (typeof text !== 'string') return {};
  try {
    const v: unknown = JSON.parse(text);
    // Each field is checked against the corpus schema when it is merged (runs-file.ts).
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as RunSettings) : {};
  } catch {
    return {};
  }
}

export function eeeSettings(agg: EeeAggregate, result: EeeResult | undefined): RunSettings {
  const lib = agg.eval_library;
  const config = (result as { generation_config?: GenerationConfig } | undefined)?.generation_config;
  if (lib.name === 'gspc') return exportedSettings(config);
  const s: RunSettings = {};
  const name = lib.name.trim().toLowerCase();
  if (name !== '' && name !== 'unknown') s.harness = HARNESS_NAMES[name] ?? lib.name;
  if (lib.version !== '' && lib.version.toLowerCase() !== 'unknown') s.harness_version = lib.version;
  const date = dateOf(agg.evaluation_timestamp);
  if (date !== undefined) s.date = date;
  const args = config?.generation_args;
  if (args !== undefined && args !== null) {
    const generation: Record<string, SettingValue> = {};
    for (const f of GENERATION_FIELDS)
      if (args[f] !== undefined && args[f] !== null) generation[f] = args[f] as SettingValue;
    if (Object.keys(generation).length > 0) s.generation = generation;
    if (typeof args.prompt_template === 'string') s.template = { prompt_template: args.prompt_template };
  }
  return s;
}
