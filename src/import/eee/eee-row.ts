/**
 * One Every Eval Ever instance record as a per-item row (docs/import.md, "Every Eval Ever"):
 * - item: `metadata.gspc_item` when `gspc export eee` wrote it, else `<evaluation_name>/<sample_id>`
 *   (sample ids are per dataset, so the evaluation name keeps two evaluations' items apart);
 * - gold: `input.reference` (one string, or the list of accepted answers);
 * - label: the `extracted_value` of the last terminal `answer_attribution`; none (or an empty
 *   value) is an unparsed row, never a wrong one;
 * - item_hash: `sample_hash` when it is a SHA-256 (the corpus takes 64 hex characters only);
 * - verdict: the record's `evaluation.is_correct`, with `score` kept as the raw value.
 */
import { GspcError } from '../../core/errors.js';
import type { ClusterField } from '../cluster-field.js';
import type { HarnessVerdict, ImportedRow, RowUsage } from '../imported.js';
import { type EeeAttribution, type EeeInstance, GSPC_ITEM_KEY } from './eee-records.js';

const HEX64 = /^[0-9a-f]{64}$/;

/** EEE records only name the extraction method, never a comparison rule: labels are compared as written. */
const asWritten = (s: string) => s;

/** The answer the record's score is about: the last attribution marked terminal. */
export function terminalAnswer(r: EeeInstance): EeeAttribution | undefined {
  return r.answer_attribution.filter((a) => a.is_terminal).at(-1);
}

/** The raw response the answer was read from: the output of a single turn, or the attributed message. */
function responseOf(r: EeeInstance, answer: EeeAttribution | undefined): string | null {
  if (r.interaction_type === 'single_turn') return r.output && r.output.raw.length > 0 ? r.output.raw.join('\n') : null;
  const turn = answer?.turn_idx;
  return r.messages?.find((m) => m.turn_idx === turn)?.content ?? null;
}

export function eeeRow(r: EeeInstance, at: string, sourceSha256: string, cluster?: ClusterField): ImportedRow {
  const reference = [...new Set(r.input.reference.filter((x) => x !== ''))];
  if (reference.length === 0)
    throw new GspcError('import_refused', `${at}: input.reference is empty: no gold answer to grade against`);
  const answer = terminalAnswer(r);
  const label = answer === undefined || answer.extracted_value === '' ? null : answer.extracted_value;
  const verdict: HarnessVerdict = {
    // A record with no extracted answer that is scored wrong is the harness's unparsed; one
    // scored right without an answer is kept as right, so the importer sees the disagreement.
    correct: label === null && !r.evaluation.is_correct ? null : r.evaluation.is_correct,
    raw: r.evaluation.score,
    metric: 'is_correct',
    normalise: asWritten,
  };
  const row: ImportedRow = {
    item: r.metadata?.[GSPC_ITEM_KEY] ?? `${r.evaluation_name}/${r.sample_id}`,
    model: r.model_id,
    gold: reference.length === 1 ? reference[0]! : reference,
    label,
    provenance: {
      harness: 'eee',
      harness_version: r.schema_version,
      task: r.evaluation_name,
      sample_id: r.sample_id,
      ...(answer !== undefined && { scorer: answer.extraction_method }),
      response: responseOf(r, answer),
      source_sha256: sourceSha256,
    },
    verdict,
    at,
  };
  if (typeof r.sample_hash === 'string' && HEX64.test(r.sample_hash)) row.item_hash = r.sample_hash;
  if (cluster) row.cluster = cluster.of(r, at); // the instance record: metadata.<field>, …
  // token_usage and performance.latency_ms as recorded (docs/import.md, "Tokens and latency").
  const usage: RowUsage = {};
  if (r.token_usage) {
    usage.input_tokens = r.token_usage.input_tokens;
    usage.output_tokens = r.token_usage.output_tokens;
  }
  if (typeof r.performance?.latency_ms === 'number') usage.latency_ms = r.performance.latency_ms;
  if (Object.keys(usage).length > 0) row.usage = usage;
  return row;
}
