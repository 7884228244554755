/**
 * The optional `prices.json` of a corpus (docs/formats.md, "prices.json"; issue 40 item 4): the
 * operator's dated price list, per model, in US dollars per million input and output tokens,
 * each with its source. Unknown fields are refused; problems are reported at file:line with the
 * rest of the corpus (all or nothing). A price must name a model measured on some
 * model-comparison axis (decision CO2, as MC2 for cards: a price for another id is most often a
 * typo that would leave the measured model without a cost), and a model has at most one price
 * per day (two would make the choice of decision CO3 a tie).
 */
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { z } from 'zod';
import { type ModelPrice, orderedPrice, PRICES_FILE_SCHEMA } from '../core/board/price-list.js';
import type { CorpusProblem } from '../core/errors.js';
import { lineAt, parseJsonFile } from './json-file.js';
import { displayText } from './display-text.js';
import { httpsUrl, isoDay } from './field-schemas.js';
import { modelIdSchema } from './model-id.js';

export const PRICES_PATH = 'prices.json';

/** Dollars per million tokens: a finite number ≥ 0 (0 is a stated price, e.g. a model served for free). */
const usdPerMtok = z
  .number('must be a number of US dollars per million tokens')
  .min(0, 'must be at least 0')
  .max(1_000_000, 'must be at most 1,000,000 dollars per million tokens (is it per token, or in cents?)');

// Control, bidirectional and invisible characters refused (display-text.ts, decision MC8).
const sourceText = displayText(500);

export const modelPriceSchema = z
  .strictObject({
    model: modelIdSchema,
    input_usd_per_mtok: usdPerMtok,
    output_usd_per_mtok: usdPerMtok,
    read_on: isoDay,
    source: sourceText.optional(),
    url: httpsUrl.optional(),
  })
  .refine((p) => p.source !== undefined || p.url !== undefined, {
    message: 'a price says where it was read: give source (words), url (https), or both',
    path: ['source'],
  });

export const pricesFileSchema = z.strictObject({
  schema: z.literal(PRICES_FILE_SCHEMA),
  prices: z.array(modelPriceSchema),
});

/**
 * Reads `prices.json`'s text; every price must name a model in `measured` (null: not checked,
 * because the axes themselves have problems and their models are not known yet).
 */
export function readPrices(
  text: string,
  measured: ReadonlySet<string> | null,
): { prices: ModelPrice[]; problems: CorpusProblem[] } {
  const parsed = parseJsonFile(PRICES_PATH, text, pricesFileSchema);
  if (!parsed.ok) return { prices: [], problems: parsed.problems };
  const tree = parseTree(text);
  const lineOf = (i: number, field: string) => {
    const node = tree ? findNodeAtLocation(tree, ['prices', i, field]) : undefined;
    return node ? lineAt(text, node.offset) : undefined;
  };
  const problems: CorpusProblem[] = [];
  const first = new Map<string, number>();
  parsed.value.prices.forEach((p, i) => {
    const at = (field: string, reason: string): CorpusProblem => {
      const line = lineOf(i, field);
      return { file: PRICES_PATH, ...(line !== undefined && { line }), field: `prices.${i}.${field}`, reason };
    };
    const key = `${p.model}\u0000${p.read_on}`;
    const earlier = first.get(key);
    if (earlier !== undefined)
      problems.push(
        at(
          'read_on',
          `'${p.model}' has a price read on ${p.read_on} already (prices.${earlier}): one price per model and day`,
        ),
      );
    else first.set(key, i);
    if (measured !== null && !measured.has(p.model))
      problems.push(
        at(
          'model',
          `'${p.model}' has no rows or results on any model-comparison axis: a price is for a measured model`,
        ),
      );
  });
  return { prices: problems.length > 0 ? [] : parsed.value.prices.map((p) => orderedPrice(p as ModelPrice)), problems };
}
