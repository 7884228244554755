/**
 * The optional `models.json` of a corpus (docs/formats.md, "models.json"; issue 40): one card per
 * model id, every field optional, unknown fields refused. Problems are reported at file:line with
 * the rest of the corpus (all or nothing). A card must name a model measured on some
 * model-comparison axis of the corpus (decision MC2): a card for an id with no rows or results is
 * most often a typo of a measured id, which would leave that model without its card.
 */
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { z } from 'zod';
import type { ItemTable } from '../core/board/item-table.js';
import { MODEL_CARDS_FILE_SCHEMA, orderedCard, type ModelCard } from '../core/board/model-card.js';
import type { AxisDefinition } from '../core/board/model.js';
import type { CorpusProblem } from '../core/errors.js';
import { lineAt, parseJsonFile } from './json-file.js';
import { displayText } from './display-text.js';
import { dated, httpsUrl, isoDay } from './field-schemas.js';
import { modelIdSchema } from './model-id.js';

export const MODEL_CARDS_PATH = 'models.json';

// Control, bidirectional and invisible characters refused (display-text.ts, decision MC8).
const text = displayText;

const isoDayOrMonth = dated(/^\d{4}-\d{2}(-\d{2})?$/, 'must be an ISO 8601 date (YYYY-MM-DD) or month (YYYY-MM)');

/** One value, or the distinct values several runs recorded (decision MC4). */
const runValue = (one: z.ZodType<string>) =>
  z.union([
    one,
    z
      .array(one)
      .min(2, 'a list holds the values of runs that differ: at least two (one value is a plain string)')
      .refine((a) => new Set(a).size === a.length, 'lists a value twice'),
  ]);

export const modelCardSchema = z.strictObject({
  model: modelIdSchema,
  organisation: text(200).optional(),
  open_weights: z.boolean().optional(),
  licence: text(200).optional(),
  parameters: z
    .number()
    .int('must be a whole number of parameters')
    .min(1, 'must be at least 1')
    .max(Number.MAX_SAFE_INTEGER, 'must be a safe integer')
    .optional(),
  release_date: isoDay.optional(),
  knowledge_cutoff: isoDayOrMonth.optional(),
  revision: runValue(text(200)).optional(),
  sha: runValue(z.string().regex(/^[0-9a-f]{7,64}$/, 'must be 7 to 64 lower-case hex characters')).optional(),
  dtype: runValue(text(64)).optional(),
  url: httpsUrl.optional(),
});

export const modelCardsFileSchema = z.strictObject({
  schema: z.literal(MODEL_CARDS_FILE_SCHEMA),
  models: z.array(modelCardSchema),
});

/** Every model-comparison axis (in the corpus's order) with the models measured on it: rows or aggregate results. */
export function measuredModels(
  definitions: readonly AxisDefinition[],
  tables: ReadonlyMap<string, ItemTable>,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const d of definitions) {
    if (d.kind !== 'model-comparison') continue;
    const models = new Set<string>(tables.get(d.axis)?.columns.keys() ?? []);
    for (const r of d.results ?? []) models.add(r.model);
    out.set(d.axis, [...models]);
  }
  return out;
}

/**
 * Reads `models.json`'s text; every card must name a model in `measured` (null: not checked,
 * because the axes themselves have problems and their models are not known yet).
 */
export function readModelCards(
  text: string,
  measured: ReadonlySet<string> | null,
): { cards: ModelCard[]; problems: CorpusProblem[] } {
  const parsed = parseJsonFile(MODEL_CARDS_PATH, text, modelCardsFileSchema);
  if (!parsed.ok) return { cards: [], problems: parsed.problems };
  const tree = parseTree(text);
  const lineOf = (i: number) => {
    const node = tree ? findNodeAtLocation(tree, ['models', i, 'model']) : undefined;
    return node ? lineAt(text, node.offset) : undefined;
  };
  const problems: CorpusProblem[] = [];
  const first = new Map<string, number>();
  parsed.value.models.forEach((card, i) => {
    const at = (reason: string): CorpusProblem => {
      const line = lineOf(i);
      return { file: MODEL_CARDS_PATH, ...(line !== undefined && { line }), field: `models.${i}.model`, reason };
    };
    const earlier = first.get(card.model);
    if (earlier !== undefined)
      problems.push(at(`'${card.model}' has a card already (models.${earlier}): one card per model`));
    else first.set(card.model, i);
    if (measured !== null && !measured.has(card.model))
      problems.push(
        at(`'${card.model}' has no rows or results on any model-comparison axis: a card is for a measured model`),
      );
  });
  return { cards: problems.length > 0 ? [] : parsed.value.models.map((c) => orderedCard(c as ModelCard)), problems };
}
