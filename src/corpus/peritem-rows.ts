/**
 * Reads a per-item JSONL file (one row per model and item) into an ItemTable.
 * Rows are checked by hand rather than with zod: the row shape is small and a corpus may hold
 * millions of rows, where a per-row schema object costs more than the parse itself
 * (docs/decisions.md). Every problem names the file, the line and the field.
 */
import { ItemTable } from '../core/board/item-table.js';
import type { ModelComparisonAxis, PerItemRow } from '../core/board/model.js';
import { forEachJsonlValue } from './jsonl-lines.js';
import type { CorpusProblem } from '../core/errors.js';
import { modelIdProblem } from './model-id.js';
import { itemDateProblem, tagsProblem } from './item-facet-fields.js';
import { noteRow, type RowsRecord } from './rows-record.js';

const MAX_ID = 512;
/** The longest item id (and cluster): what `/api/items?item=` must accept (serve/documents/items.ts). */
export const ITEM_ID_MAX = MAX_ID;
const HEX64 = /^[0-9a-f]{64}$/;
const MAX_PROBLEMS = 50;
/**
 * The most a usage field may say on one row (decision TU11): a billion tokens, or a billion
 * milliseconds (11.6 days) for one response. A sum over a million rows then stays below 2^53
 * (10^15 < 9.007 × 10^15), so token totals stay exact and no total or interval overflows to
 * infinity: `latency_ms: 1e308` on 100 rows was accepted and /api/usage gave a total of null.
 */
export const USAGE_MAX = 1e9;
const TOKENS_RULE = 'must be a whole number of tokens from 0 to 1,000,000,000 (or absent: unknown)';
const LATENCY_RULE = 'must be a finite number of milliseconds from 0 to 1,000,000,000 (11.6 days) (or absent: unknown)';
const isTokens = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= USAGE_MAX;

const ANY_SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function checkRow(v: unknown): { row: PerItemRow } | { field: string; reason: string } {
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    return { field: '', reason: 'each line must be a JSON object' };
  const r = v as Record<string, unknown>;
  if (typeof r.item !== 'string' || r.item.length === 0 || r.item.length > MAX_ID)
    return { field: 'item', reason: `must be a non-empty string of at most ${MAX_ID} characters` };
  // A lone surrogate (JSON allows "\ud800") has no UTF-8 form: the explorer's link to the item
  // would name U+FFFD instead and find nothing (review of issue 41). The first test is one scan
  // that almost never matches, so a million rows pay almost nothing for it.
  if (ANY_SURROGATE.test(r.item) && LONE_SURROGATE.test(r.item))
    return {
      field: 'item',
      reason: 'must be well-formed Unicode: it holds a lone surrogate (\\uD800-\\uDFFF) that no UTF-8 text can carry',
    };
  const modelProblem = modelIdProblem(r.model);
  if (modelProblem !== undefined) return { field: 'model', reason: modelProblem };
  const g = r.gold;
  const goldOk =
    (typeof g === 'string' && g.length > 0) ||
    (Array.isArray(g) && g.length > 0 && g.every((x) => typeof x === 'string' && x.length > 0));
  if (!goldOk) return { field: 'gold', reason: 'must be a non-empty label or a non-empty list of labels' };
  if (!('label' in r))
    return { field: 'label', reason: 'is required: the extracted label, or null when no label could be read' };
  if (r.label !== null && (typeof r.label !== 'string' || r.label.length === 0))
    return { field: 'label', reason: 'must be a non-empty string or null (unparsed)' };
  if (r.item_hash !== undefined && (typeof r.item_hash !== 'string' || !HEX64.test(r.item_hash)))
    return { field: 'item_hash', reason: 'must be 64 lower-case hex characters' };
  if (r.cluster !== undefined && (typeof r.cluster !== 'string' || r.cluster.length === 0 || r.cluster.length > MAX_ID))
    return { field: 'cluster', reason: `must be a non-empty string of at most ${MAX_ID} characters` };
  const tagsWrong = r.tags === undefined ? undefined : tagsProblem(r.tags);
  if (tagsWrong !== undefined) return { field: 'tags', reason: tagsWrong };
  const dateWrong = r.item_date === undefined ? undefined : itemDateProblem(r.item_date);
  if (dateWrong !== undefined) return { field: 'item_date', reason: dateWrong };
  // Usage (issue 40): absent or null is unknown, never 0 (docs/formats.md §1).
  const inTok = r.input_tokens;
  if (inTok !== undefined && inTok !== null && !isTokens(inTok)) return { field: 'input_tokens', reason: TOKENS_RULE };
  const outTok = r.output_tokens;
  if (outTok !== undefined && outTok !== null && !isTokens(outTok))
    return { field: 'output_tokens', reason: TOKENS_RULE };
  const ms = r.latency_ms;
  if (ms !== undefined && ms !== null && !(typeof ms === 'number' && ms >= 0 && ms <= USAGE_MAX))
    return { field: 'latency_ms', reason: LATENCY_RULE };
  const row: PerItemRow = {
    item: r.item,
    model: r.model as string,
    gold: g as string | string[],
    label: r.label as string | null,
  };
  if (r.item_hash !== undefined) row.item_hash = r.item_hash as string;
  if (r.cluster !== undefined) row.cluster = r.cluster as string;
  if (r.tags !== undefined) row.tags = r.tags as string[];
  if (r.item_date !== undefined) row.item_date = r.item_date as string;
  if (typeof inTok === 'number') row.input_tokens = inTok;
  if (typeof outTok === 'number') row.output_tokens = outTok;
  if (typeof ms === 'number') row.latency_ms = ms;
  return { row };
}

/**
 * Parses `bytes` (UTF-8 JSONL) for axis `def`. Blank lines are refused except a final newline;
 * a CR before the newline is tolerated so files written on Windows still read.
 */
export function readPerItemRows(
  file: string,
  bytes: Buffer,
  def: ModelComparisonAxis,
): { table: ItemTable; problems: CorpusProblem[]; recorded: Map<string, RowsRecord> } {
  const table = new ItemTable();
  // What each model's rows say about their run, to check runs.json against (rows-record.ts).
  const recorded = new Map<string, RowsRecord>();
  const problems: CorpusProblem[] = [];
  const menu = def.labels ? new Set(def.labels) : undefined;
  const report = (p: CorpusProblem) => {
    if (problems.length < MAX_PROBLEMS) problems.push(p);
  };
  const lines = forEachJsonlValue(bytes, file, report, (value, line) => {
    const checked = checkRow(value);
    if ('field' in checked) {
      report({ file, line, ...checked });
      return;
    }
    const golds = Array.isArray(checked.row.gold) ? checked.row.gold : [checked.row.gold];
    const offMenu = menu === undefined ? undefined : golds.find((x) => !menu.has(x));
    if (offMenu !== undefined) {
      report({ file, line, field: 'gold', reason: `'${offMenu}' is not in the axis's exact-label menu` });
      return;
    }
    const clash = table.add(checked.row, line);
    if (clash) report({ file, line, ...clash });
    else noteRow(recorded, checked.row.model, value as Record<string, unknown>, line);
    return problems.length < MAX_PROBLEMS;
  });
  if (lines === 0) report({ file, field: '', reason: 'the per-item file is empty' });
  const c = table.clusterRows;
  if (c.with > 0 && c.without > 0)
    report({
      file,
      line: c.firstWithout,
      field: 'cluster',
      reason: `${c.with} of ${c.with + c.without} rows carry a cluster and this one does not (first with one: line ${c.firstWith}): all rows of an axis carry one, or none`,
    });
  return { table, problems, recorded };
}
