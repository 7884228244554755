/**
 * A published board as Every Eval Ever records (schema v0.3.0): per MEASURED model-comparison
 * axis and model, one aggregate record carrying the board cell's accuracy and one instance
 * record per per-item row. A pure function of its input: no clock, no randomness, so the same
 * release always exports the same bytes (docs/import.md, "Export to Every Eval Ever").
 *
 * Where EEE has no place for what the board knows, the record says so rather than inventing:
 * the board publishes no item texts (`input.raw` is empty); an unparsed row has no extracted
 * answer (`answer_attribution` is empty) and is `is_correct: false` because the schema has no
 * third state, while the accuracy, as on the board, divides by parsed rows only
 * (`score_details.details.denominator = "parsed"`).
 */
import { createHash } from 'node:crypto';
import type { CellFigures } from '../core/board/axis-row.js';
import { GSPC_ITEM_KEY } from '../import/eee/eee-records.js';
import { EEE_SCHEMA_VERSION } from '../import/eee/eee-schema.js';
import type { ExportAxis, ExportInput, ExportRow } from './export-input.js';
import { generationConfig } from './eee-run-settings.js';

export interface ExportFile {
  /** Relative to the output directory, `data/<axis>/<developer>/<model>/<uuid>{.json,_samples.jsonl}`. */
  path: string;
  text: string;
}

/** How the board extracts nothing itself: the label is the one the corpus row states. */
export const EXTRACTION_METHOD = 'corpus_label';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * A UUID in the version-4 layout the schema's `file_path` pattern requires, derived from a hash
 * instead of randomness so a re-export writes the same names.
 */
export function stableUuid(name: string): string {
  const h = sha256(name);
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A path segment of the datastore layout: safe characters only (the UUID keeps names unique). */
const segment = (s: string) => (/^\.+$/.test(s) ? '_' : s.replace(/[^A-Za-z0-9._-]/g, '_'));

/** `developer/model` ids split as EEE's datastore does; an id without a developer gets `unknown`. */
function developerAndName(model: string): { developer: string; name: string } {
  const slash = model.indexOf('/');
  return slash === -1
    ? { developer: 'unknown', name: model }
    : { developer: model.slice(0, slash), name: model.slice(slash + 1) };
}

const inGold = (r: ExportRow) =>
  r.label !== null && (Array.isArray(r.gold) ? r.gold.includes(r.label) : r.gold === r.label);

function instanceRecord(axis: ExportAxis, evaluationId: string, r: ExportRow): object {
  const correct = inGold(r);
  return {
    schema_version: EEE_SCHEMA_VERSION,
    evaluation_id: evaluationId,
    model_id: r.model,
    evaluation_name: axis.def.axis,
    evaluation_result_id: axis.def.axis,
    sample_id: r.item,
    sample_hash: r.item_hash ?? null,
    interaction_type: 'single_turn',
    input: {
      raw: '',
      reference: Array.isArray(r.gold) ? r.gold : [r.gold],
      choices: axis.def.labels ?? null,
    },
    output: { raw: r.response === undefined ? [] : [r.response] },
    answer_attribution:
      r.label === null
        ? []
        : [
            {
              turn_idx: 0,
              source: 'output.raw',
              extracted_value: r.label,
              extraction_method: EXTRACTION_METHOD,
              is_terminal: true,
            },
          ],
    evaluation: { score: correct ? 1 : 0, is_correct: correct },
    ...usageOf(r),
    metadata: { [GSPC_ITEM_KEY]: r.item, gspc_outcome: r.label === null ? 'unparsed' : correct ? 'correct' : 'wrong' },
  };
}

/**
 * A row's tokens and latency as EEE's `token_usage` and `performance` (decision TU10), so a round
 * trip keeps them. `token_usage` requires all three counts: it is written only when the row
 * carries both, with `total_tokens` their sum (what the row measures; cache tokens it never
 * carried). A row with one count only has no `token_usage`: the schema has no place for one.
 */
function usageOf(r: ExportRow): object {
  return {
    ...(r.input_tokens !== undefined &&
      r.output_tokens !== undefined && {
        token_usage: {
          input_tokens: r.input_tokens,
          output_tokens: r.output_tokens,
          total_tokens: r.input_tokens + r.output_tokens,
        },
      }),
    ...(r.latency_ms !== undefined && { performance: { latency_ms: r.latency_ms } }),
  };
}

function aggregateRecord(
  input: ExportInput,
  axis: ExportAxis,
  cell: CellFigures & { accuracy: number },
  ids: { evaluationId: string; timestamp: string; samplesPath: string; samples: string; rows: number },
): object {
  const { developer, name } = developerAndName(cell.model);
  const generation = generationConfig(axis.settings?.get(cell.model));
  const details: Record<string, string> = {
    correct: String(cell.correct),
    parsed: String(cell.parsed),
    unparsed: String(cell.unparsed),
    responses: String(cell.responses),
    denominator: 'parsed',
  };
  return {
    schema_version: EEE_SCHEMA_VERSION,
    evaluation_id: ids.evaluationId,
    evaluation_timestamp: ids.timestamp,
    retrieved_timestamp: ids.timestamp,
    source_metadata: {
      source_name: 'gspc board',
      source_type: 'evaluation_run',
      source_organization_name: input.issuer,
      // The board measures other makers' models; its own models are first-party measurements.
      evaluator_relationship: cell.own_model ? 'first_party' : 'third_party',
      additional_details: { board: input.origin, as_of: input.as_of, peritem_sha256: input.peritem_sha256 },
    },
    eval_library: {
      name: 'gspc',
      version: 'unknown',
      additional_details: {
        grading: 'exact label match (label in gold); unparsed rows are reported, never scored as wrong',
      },
    },
    model_info: {
      name,
      id: cell.model,
      developer,
      additional_details: {
        deployment_type: 'unknown',
        model_availability: 'unknown',
        own_model: String(cell.own_model),
      },
    },
    evaluation_results: [
      {
        evaluation_result_id: axis.def.axis,
        evaluation_name: axis.def.axis,
        source_data: {
          dataset_name: axis.def.dataset,
          source_type: 'url',
          url: [axis.rowsUrl],
          additional_details: { bench: axis.def.bench },
        },
        metric_config: {
          evaluation_description: axis.def.task,
          metric_id: 'accuracy',
          metric_name: 'accuracy',
          metric_kind: 'accuracy',
          metric_unit: 'proportion',
          lower_is_better: false,
          score_type: 'continuous',
          min_score: 0,
          max_score: 1,
        },
        score_details: {
          score: cell.accuracy,
          details,
          ...(cell.interval !== null && {
            uncertainty: {
              confidence_interval: {
                lower: cell.interval[0],
                upper: cell.interval[1],
                confidence_level: 0.95,
                method: 'wilson',
              },
              num_samples: cell.parsed,
            },
          }),
        },
        ...(generation !== undefined && { generation_config: generation }),
      },
    ],
    detailed_evaluation_results: {
      format: 'jsonl',
      file_path: ids.samplesPath,
      hash_algorithm: 'sha256',
      checksum: sha256(ids.samples),
      total_rows: ids.rows,
    },
  };
}

/** Every file of the export, and what was left out and why. */
export function eeeExport(input: ExportInput): { files: ExportFile[]; skipped: string[] } {
  const files: ExportFile[] = [];
  const skipped = [...input.skipped];
  // The schema's timestamps are Unix seconds; the release's as-of is used, never the clock.
  const timestamp = String(Math.floor(Date.parse(input.as_of) / 1000));
  for (const axis of input.axes) {
    for (const cell of axis.cells) {
      if (cell.accuracy === null) {
        skipped.push(`${axis.def.axis} × ${cell.model}: no parsed response, so no accuracy (never 0)`);
        continue;
      }
      const evaluationId = `${axis.def.axis}/${cell.model}/${timestamp}`;
      const uuid = stableUuid(`gspc-export\n${input.peritem_sha256}\n${evaluationId}`);
      const { developer, name } = developerAndName(cell.model);
      const dir = `data/${segment(axis.def.axis)}/${segment(developer)}/${segment(name)}`;
      const rows = axis.rows.filter((r) => r.model === cell.model);
      const samples = rows.map((r) => `${JSON.stringify(instanceRecord(axis, evaluationId, r))}\n`).join('');
      const samplesPath = `${dir}/${uuid}_samples.jsonl`;
      const aggregate = aggregateRecord(
        input,
        axis,
        { ...cell, accuracy: cell.accuracy },
        {
          evaluationId,
          timestamp,
          samplesPath,
          samples,
          rows: rows.length,
        },
      );
      files.push(
        { path: `${dir}/${uuid}.json`, text: `${JSON.stringify(aggregate, null, 2)}\n` },
        { path: samplesPath, text: samples },
      );
    }
  }
  return { files, skipped };
}
