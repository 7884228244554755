/**
 * A model's run settings on an axis (`runs.json`, issue 40 item 2) as an Every Eval Ever result's
 * `generation_config`: the schema's own `generation_args` where a setting has exactly its name and
 * type (`temperature`, `top_p`, `top_k` numbers, `max_tokens` a whole number ≥ 1; harnesses that
 * name them otherwise, lm-eval's `max_gen_toks`, are not renamed: that would state an equivalence
 * nobody recorded), and in `additional_details` (strings only) the harness, its version, the shots
 * and the limit, and the whole entry as `gspc_run_settings` (its RFC 8785 JSON), which
 * `gspc import eee` reads back. Nothing when the model has no settings.
 */
import type { RunSettings } from '../core/board/run-settings.js';
import { canonicalJson } from '../core/crypto/canonical-json.js';

/** The `additional_details` key holding the whole entry (read back by src/import/eee/run-settings.ts). */
export const GSPC_RUN_SETTINGS_KEY = 'gspc_run_settings';

export function generationConfig(settings: RunSettings | undefined): object | undefined {
  if (settings === undefined) return undefined;
  const g = settings.generation ?? {};
  const args: Record<string, number> = {};
  for (const k of ['temperature', 'top_p', 'top_k'] as const) if (typeof g[k] === 'number') args[k] = g[k];
  if (typeof g.max_tokens === 'number' && Number.isInteger(g.max_tokens) && g.max_tokens >= 1)
    args.max_tokens = g.max_tokens;
  const details: Record<string, string> = {};
  if (settings.harness !== undefined) details.harness = settings.harness;
  if (settings.harness_version !== undefined) details.harness_version = settings.harness_version;
  if (settings.shots !== undefined) details.shots = String(settings.shots);
  if (settings.limit !== undefined) details.limit = String(settings.limit);
  details[GSPC_RUN_SETTINGS_KEY] = canonicalJson(settings);
  return { ...(Object.keys(args).length > 0 && { generation_args: args }), additional_details: details };
}
