/**
 * Tokens and latency of one Inspect sample (docs/import.md, "Tokens and latency"), only as the
 * log records them:
 * - tokens: `model_usage[<eval.model>]`'s `input_tokens` and `output_tokens`. Only the evaluated
 *   model's entry: a sample's `model_usage` also holds the usage of a model acting as judge or of
 *   other roles, which is not what the evaluated model spent. An empty `model_usage` (older
 *   serialisers keep it in the header only) or one without that model is unknown, never 0.
 * - latency: `working_time` (seconds) in milliseconds, rounded to 0.001 ms (the product in
 *   doubles is not exact: 1.659 × 1000 = 1659.0000000000002). Inspect's working time excludes
 *   what the sample spent waiting (rate limits, retries, a connection pool), which `total_time`
 *   includes: a wait says how busy the run was, not how long the model took. Logs before
 *   per-sample timing have none: unknown.
 * Values that are there but are not numbers are passed on as they are, so the importer refuses
 * them at the sample (corpus-row.ts) rather than dropping them quietly.
 */
import type { RowUsage } from '../imported.js';

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

export function sampleUsage(record: Json, model: string): RowUsage | undefined {
  const usage: RowUsage = {};
  const all = record['model_usage'];
  const mine = isObject(all) ? all[model] : undefined;
  if (isObject(mine)) {
    if (mine['input_tokens'] !== undefined && mine['input_tokens'] !== null)
      usage.input_tokens = mine['input_tokens'] as number;
    if (mine['output_tokens'] !== undefined && mine['output_tokens'] !== null)
      usage.output_tokens = mine['output_tokens'] as number;
  }
  const seconds = record['working_time'];
  if (seconds !== undefined && seconds !== null)
    usage.latency_ms = typeof seconds === 'number' ? Math.round(seconds * 1e6) / 1e3 : (seconds as number);
  return Object.keys(usage).length > 0 ? usage : undefined;
}
