/**
 * The optional `runs.json` of a corpus (docs/formats.md, "runs.json"; issue 40, item 2): how each
 * model was run on each axis, one entry per (model, axis), every setting optional, unknown fields
 * refused. Problems are reported at file:line with the rest of the corpus (all or nothing). An
 * entry must name a model with per-item rows on that axis (decision RS2): the settings are read
 * to decide which pairs are like for like, and only rows are paired.
 */
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { z } from 'zod';
import type { ItemTable } from '../core/board/item-table.js';
import {
  orderedRun,
  RUNS_FILE_SCHEMA,
  RUNS_PATH,
  type RunEntry,
  type SettingValue,
} from '../core/board/run-settings.js';
import type { CorpusProblem } from '../core/errors.js';
import { lineAt, parseJsonFile } from './json-file.js';
import { displayText } from './display-text.js';
import { modelIdSchema } from './model-id.js';
import { mostRowsPerTask, type RowsRecord } from './rows-record.js';
import { isoUtc, SLUG } from './schemas.js';

export { RUNS_PATH };

// Control, bidirectional and invisible characters refused (display-text.ts, decision MC8).
const text = displayText;

/** A value as the harness wrote it: JSON data, at most 4 kB once written (a prompt template fits). */
const settingValue: z.ZodType<SettingValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number().refine(Number.isFinite, 'must be a finite number'),
    z.boolean(),
    z.null(),
    z.array(settingValue),
    z.record(z.string(), settingValue),
  ]),
);
const settings = z
  .record(text(100), settingValue)
  .refine((o) => Object.keys(o).length <= 64, 'at most 64 settings')
  .refine(
    (o) => Object.values(o).every((v) => JSON.stringify(v).length <= 4096),
    'a value is longer than 4096 characters once written',
  );

/**
 * The most an entry may hold once written as JSON. An agent's answer carries a model's entry whole
 * within 64 kB (issue 39, decision ST18), so one entry must leave room for the rest of a page.
 */
export const MAX_ENTRY_CHARS = 16384;

export const runEntryFields = z.strictObject({
  model: modelIdSchema,
  axis: z.string().regex(SLUG, 'must be a lower-case slug (a-z, 0-9, single hyphens)'),
  harness: text(64).optional(),
  harness_version: text(200).optional(),
  date: isoUtc.optional(),
  shots: z.number().int('must be a whole number of examples').min(0, 'must be at least 0').optional(),
  limit: z
    .number()
    .refine(Number.isFinite, 'must be a finite number')
    .refine((v) => v > 0, 'must be above 0')
    .optional(),
  generation: settings.optional(),
  template: settings.optional(),
});

export const runEntrySchema = runEntryFields.refine(
  (e) => JSON.stringify(e).length <= MAX_ENTRY_CHARS,
  `an entry is longer than ${MAX_ENTRY_CHARS} characters once written: keep the settings that change the task`,
);

export const runsFileSchema = z.strictObject({
  schema: z.literal(RUNS_FILE_SCHEMA),
  runs: z.array(runEntrySchema),
});

/** What an entry is checked against once the axes read cleanly (read-corpus.ts). */
export interface RunsContext {
  tables: ReadonlyMap<string, ItemTable>;
  /** Per axis, per model: what the rows record about their run (rows-record.ts). */
  recorded: ReadonlyMap<string, ReadonlyMap<string, RowsRecord>>;
  /** board.json's `as_of`: no run is dated after the corpus it is in. */
  asOf: string;
}

/**
 * Where an entry contradicts its own rows or the corpus (decision RS10): a harness or version
 * other than the rows record, a `limit` below the items the model answered on one task, a date
 * after `as_of`. Settings the rows do not record (shots, generation, template, a limit given as
 * a share) cannot be checked: they are the operator's word.
 */
function contradictions(run: RunEntry, ctx: RunsContext, rowsFile: string): { field: string; reason: string }[] {
  const out: { field: string; reason: string }[] = [];
  const rec = ctx.recorded.get(run.axis)?.get(run.model);
  for (const f of ['harness', 'harness_version'] as const) {
    const said = run[f];
    if (said === undefined || rec === undefined) continue;
    const other = [...rec[f]].find(([v]) => v !== said);
    if (other !== undefined)
      out.push({
        field: f,
        reason: `is '${said}' but ${rowsFile}:${other[1]} records ${f} '${other[0]}' for '${run.model}': settings must agree with the rows they describe`,
      });
  }
  // lm-eval reads a limit below 1 as a share of the task's items, which the rows cannot check.
  if (run.limit !== undefined && run.limit >= 1 && rec !== undefined) {
    const most = mostRowsPerTask(rec);
    if (most.rows > run.limit)
      out.push({
        field: 'limit',
        reason: `is ${run.limit} but '${run.model}' has ${most.rows} rows on '${run.axis}'${most.task === '' ? '' : ` of task '${most.task}'`}: a cap on items cannot be below the items answered`,
      });
  }
  if (run.date !== undefined && Date.parse(run.date) > Date.parse(ctx.asOf))
    out.push({
      field: 'date',
      reason: `is ${run.date}, after the corpus's as_of ${ctx.asOf} (board.json): a run cannot postdate the board it is on`,
    });
  return out;
}

/**
 * Reads `runs.json`'s text; every entry must name a model with rows on its axis and agree with
 * them (`context`: null when the axes themselves have problems and their rows are not known yet).
 */
export function readRunSettings(
  text: string,
  context: RunsContext | null,
): { runs: RunEntry[]; problems: CorpusProblem[] } {
  const parsed = parseJsonFile(RUNS_PATH, text, runsFileSchema);
  if (!parsed.ok) return { runs: [], problems: parsed.problems };
  const tree = parseTree(text);
  const problems: CorpusProblem[] = [];
  const first = new Map<string, number>();
  parsed.value.runs.forEach((run, i) => {
    const at = (reason: string, field = 'model'): CorpusProblem => {
      const node = tree ? findNodeAtLocation(tree, ['runs', i, field]) : undefined;
      const where = field === 'model' ? `runs.${i}` : `runs.${i}.${field}`;
      return { file: RUNS_PATH, ...(node && { line: lineAt(text, node.offset) }), field: where, reason };
    };
    const key = `${run.model}\0${run.axis}`;
    const earlier = first.get(key);
    if (earlier !== undefined)
      problems.push(
        at(`'${run.model}' on '${run.axis}' has settings already (runs.${earlier}): one entry per model and axis`),
      );
    else first.set(key, i);
    if (context === null) return;
    if (context.tables.get(run.axis)?.columns.has(run.model) !== true)
      problems.push(
        at(`'${run.model}' has no per-item rows on '${run.axis}': settings are for a model's rows on an axis`),
      );
    else
      for (const c of contradictions(run as RunEntry, context, `peritem/${run.axis}.jsonl`))
        problems.push(at(c.reason, c.field));
  });
  if (problems.length > 0) return { runs: [], problems };
  return { runs: parsed.value.runs.map((r) => orderedRun(r as RunEntry, { model: r.model, axis: r.axis })), problems };
}

/** Gives each model's column of each axis its settings (what the board and `/api/models` compare). */
export function attachRunSettings(runs: readonly RunEntry[], tables: ReadonlyMap<string, ItemTable>): void {
  for (const { model, axis, ...settings } of runs) {
    const col = tables.get(axis)?.columns.get(model);
    if (col) col.settings = settings;
  }
}
