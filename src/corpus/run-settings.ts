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
import { modelIdSchema } from './model-id.js';
import { isoUtc, SLUG } from './schemas.js';

export { RUNS_PATH };

const text = (max: number) =>
  z
    .string()
    .min(1, 'must be a non-empty string')
    .max(max, `must be at most ${max} characters`)
    .refine((s) => s.trim() === s, 'must not start or end with white space')
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'must not contain control characters');

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

/**
 * Reads `runs.json`'s text; every entry must name a model with rows on its axis (`tables`: null
 * when the axes themselves have problems and their rows are not known yet).
 */
export function readRunSettings(
  text: string,
  tables: ReadonlyMap<string, ItemTable> | null,
): { runs: RunEntry[]; problems: CorpusProblem[] } {
  const parsed = parseJsonFile(RUNS_PATH, text, runsFileSchema);
  if (!parsed.ok) return { runs: [], problems: parsed.problems };
  const tree = parseTree(text);
  const problems: CorpusProblem[] = [];
  const first = new Map<string, number>();
  parsed.value.runs.forEach((run, i) => {
    const at = (reason: string): CorpusProblem => {
      const node = tree ? findNodeAtLocation(tree, ['runs', i, 'model']) : undefined;
      return { file: RUNS_PATH, ...(node && { line: lineAt(text, node.offset) }), field: `runs.${i}`, reason };
    };
    const key = `${run.model}\0${run.axis}`;
    const earlier = first.get(key);
    if (earlier !== undefined)
      problems.push(
        at(`'${run.model}' on '${run.axis}' has settings already (runs.${earlier}): one entry per model and axis`),
      );
    else first.set(key, i);
    if (tables !== null && tables.get(run.axis)?.columns.has(run.model) !== true)
      problems.push(
        at(`'${run.model}' has no per-item rows on '${run.axis}': settings are for a model's rows on an axis`),
      );
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
