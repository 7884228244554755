/**
 * An imported row as the corpus writes it (docs/formats.md §1): the four graded fields, the
 * optional item hash, then the provenance as extra fields the derivation ignores. The field
 * order is fixed so the same run always gives the same bytes.
 */
import { GspcError } from '../core/errors.js';
import { USAGE_MAX } from '../corpus/peritem-rows.js';
import { itemDateProblem, tagsProblem } from '../corpus/item-facet-fields.js';
import type { ImportedRow } from './imported.js';

const MAX_ID = 512;
const MODEL_ID = /^[^\s\u0000-\u001f]{1,200}$/;

/** The row in the board's terms: the scorer's normalisation applied to label and gold. */
export interface GradedRow {
  gold: string | string[];
  label: string | null;
}

/**
 * Applies the harness scorer's normalisation (when the row has a verdict) and checks what the
 * corpus reader would refuse, so a refused row is reported with its source line, not later as
 * a corpus line the operator never wrote.
 */
export function gradedRow(row: ImportedRow): GradedRow {
  // No closures in here: this runs once per row of a million-row import.
  const norm = row.verdict?.normalise;
  if (row.item.length === 0 || row.item.length > MAX_ID) refuseRow(row, `item id must be 1 to ${MAX_ID} characters`);
  if (!MODEL_ID.test(row.model))
    refuseRow(row, `model '${row.model}' must be an id without spaces (at most 200 characters)`);
  let gold: string | string[];
  if (Array.isArray(row.gold)) {
    gold = norm ? row.gold.map(norm) : row.gold;
    if (gold.length === 0 || gold.includes('')) refuseRow(row, 'empty gold (after the scorer normalisation)');
  } else {
    gold = norm ? norm(row.gold) : row.gold;
    if (gold === '') refuseRow(row, 'empty gold (after the scorer normalisation)');
  }
  if (row.usage !== undefined) checkUsage(row);
  if (row.tags !== undefined) {
    const wrong = tagsProblem(row.tags);
    if (wrong !== undefined) refuseRow(row, `tags ${JSON.stringify(row.tags).slice(0, 200)}: ${wrong}`);
  }
  if (row.item_date !== undefined) {
    const wrong = itemDateProblem(row.item_date);
    if (wrong !== undefined) refuseRow(row, `item_date ${JSON.stringify(row.item_date)}: ${wrong}`);
  }
  // An answer that normalises to nothing is no label at all: unparsed, never an empty label.
  let label = row.label;
  if (label !== null && norm) label = norm(label);
  return { gold, label: label === '' ? null : label };
}

const MAX_TEXT = USAGE_MAX.toLocaleString('en');

/** The corpus reader's rules for tokens and latency (docs/formats.md §1), checked at the source line. */
function checkUsage(row: ImportedRow): void {
  const u = row.usage!;
  for (const f of ['input_tokens', 'output_tokens'] as const) {
    const v = u[f];
    if (v !== undefined && !(Number.isSafeInteger(v) && v >= 0 && v <= USAGE_MAX))
      refuseRow(
        row,
        `${f} ${String(v)} as the harness recorded it is not a whole number of tokens from 0 to ${MAX_TEXT}`,
      );
  }
  const ms = u.latency_ms;
  if (ms !== undefined && !(ms >= 0 && ms <= USAGE_MAX))
    refuseRow(row, `latency ${String(ms)} ms as the harness recorded it is not a finite number from 0 to ${MAX_TEXT}`);
}

function refuseRow(row: ImportedRow, why: string): never {
  throw new GspcError('import_refused', `${row.at} ${row.item}: ${why}`);
}

/** A gold as one comparable string: rows of an item must agree on it (a list is compared as JSON). */
export function goldKey(gold: unknown): string {
  return typeof gold === 'string' ? `s${gold}` : `a${JSON.stringify(gold)}`;
}

/** A `goldKey` back as JSON text, for messages. */
export function goldText(key: string): string {
  return key.startsWith('s') ? JSON.stringify(key.slice(1)) : key.slice(1);
}

/** label ∈ gold: the project's grading, exactly (docs/methodology.md). */
export function gradesCorrect(r: GradedRow): boolean | null {
  if (r.label === null) return null;
  return Array.isArray(r.gold) ? r.gold.includes(r.label) : r.gold === r.label;
}

/** The JSONL line (without newline). */
export function corpusLine(row: ImportedRow, g: GradedRow): string {
  const p = row.provenance;
  const out: Record<string, unknown> = { item: row.item, model: row.model, gold: g.gold, label: g.label };
  if (row.item_hash !== undefined) out.item_hash = row.item_hash;
  if (row.cluster !== undefined) out.cluster = row.cluster;
  if (row.tags !== undefined) out.tags = row.tags;
  if (row.item_date !== undefined) out.item_date = row.item_date;
  const u = row.usage;
  if (u !== undefined) {
    if (u.input_tokens !== undefined) out.input_tokens = u.input_tokens;
    if (u.output_tokens !== undefined) out.output_tokens = u.output_tokens;
    if (u.latency_ms !== undefined) out.latency_ms = u.latency_ms;
  }
  out.harness = p.harness;
  out.harness_version = p.harness_version;
  out.task = p.task;
  out.sample_id = p.sample_id;
  if (p.epoch !== undefined) out.epoch = p.epoch;
  if (p.filter !== undefined) out.filter = p.filter;
  if (p.split !== undefined) out.split = p.split;
  if (p.scorer !== undefined) out.scorer = p.scorer;
  out.response = p.response;
  out.source_sha256 = p.source_sha256;
  return JSON.stringify(out);
}
