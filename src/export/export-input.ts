/**
 * What `gspc export eee` exports, whichever way the release was read (a release directory or a
 * running service): per MEASURED model-comparison axis, its definition, its published per-item
 * rows and the board's per-model cells derived from them. Both readers end here, so the mapping
 * sees one shape.
 */
import type { CellFigures } from '../core/board/axis-row.js';
import type { ModelComparisonAxis } from '../core/board/model.js';
import type { RunSettings } from '../core/board/run-settings.js';
import type { CorpusProblem } from '../core/errors.js';
import { forEachJsonlValue } from '../corpus/jsonl-lines.js';

/** A published per-item row, with the raw response when the row carries one (importers keep it). */
export interface ExportRow {
  item: string;
  model: string;
  gold: string | string[];
  label: string | null;
  item_hash?: string;
  response?: string;
  /** Tokens and latency, when the row carries them (docs/formats.md §1). */
  input_tokens?: number;
  output_tokens?: number;
  latency_ms?: number;
}

export interface ExportAxis {
  def: ModelComparisonAxis;
  /** Where the rows are published (`/peritem/<axis>.jsonl`, absolute for a service). */
  rowsUrl: string;
  rows: ExportRow[];
  /** The board's cells of the axis, one per model (CellFigures: responses, parsed, correct, accuracy, interval). */
  cells: CellFigures[];
  /** How each model was run on the axis (the release's `runs.json`), by model id; absent: none recorded. */
  settings?: ReadonlyMap<string, RunSettings>;
}

export interface ExportInput {
  /** The release read: `release <id>` or the service's base URL. */
  origin: string;
  as_of: string;
  issuer: string;
  peritem_sha256: string;
  axes: ExportAxis[];
  /** Axes not exported, each with the reason. */
  skipped: string[];
}

/**
 * The rows of a per-item file the caller has already validated (by the corpus reader): only the
 * fields the export carries are kept.
 */
export function exportRows(bytes: Buffer, file: string): ExportRow[] {
  const rows: ExportRow[] = [];
  const problems: CorpusProblem[] = [];
  forEachJsonlValue(
    bytes,
    file,
    (p) => problems.push(p),
    (v) => {
      const r = v as ExportRow & {
        response?: unknown;
        input_tokens?: unknown;
        output_tokens?: unknown;
        latency_ms?: unknown;
      };
      rows.push({
        item: r.item,
        model: r.model,
        gold: r.gold,
        label: r.label,
        ...(r.item_hash !== undefined && { item_hash: r.item_hash }),
        ...(typeof r.response === 'string' && { response: r.response }),
        ...(typeof r.input_tokens === 'number' && { input_tokens: r.input_tokens }),
        ...(typeof r.output_tokens === 'number' && { output_tokens: r.output_tokens }),
        ...(typeof r.latency_ms === 'number' && { latency_ms: r.latency_ms }),
      });
    },
  );
  if (problems.length > 0) throw new Error(`${file}: ${problems[0]!.reason} (line ${problems[0]!.line})`);
  return rows;
}
