/**
 * What `gspc validate` (and so `gspc import`) says of the price list (issue 40 item 4, decisions
 * CO3 and CO4), before it is public: the models `/api/cost` will give no cost although the operator
 * probably meant one (every price read after the release's day; a price but no row with both
 * token counts; token counts but no price), and a priced model whose cost is over part of its
 * rows. None blocks a publish: `/api/cost` states each itself (null with the reason, the
 * coverage). Nothing is said when the corpus has no price list: no cost is then what it asks for.
 */
import { rowsWithTokens } from '../core/board/cost.js';
import { choosePrice } from '../core/board/price-list.js';
import type { CorpusProblem } from '../core/errors.js';
import type { Corpus } from '../corpus/read-corpus.js';
import { PRICES_PATH } from '../corpus/prices.js';

export function costNotices(corpus: Corpus): CorpusProblem[] {
  if (!corpus.files.some((f) => f.path === PRICES_PATH)) return [];
  const out: CorpusProblem[] = [];
  const day = corpus.meta.as_of.slice(0, 10);
  // Per model: whether it applies a price, and its rows with both counts on each axis.
  const covered = new Map<string, { axis: string; rows: number; withTokens: number }[]>();
  for (const d of corpus.definitions) {
    if (d.kind !== 'model-comparison') continue;
    const table = corpus.tables.get(d.axis);
    for (const col of table?.columns.values() ?? []) {
      const list = covered.get(col.model) ?? [];
      list.push({ axis: d.axis, rows: col.rows, withTokens: rowsWithTokens(col) });
      covered.set(col.model, list);
    }
  }
  for (const [model, axes] of covered) {
    const choice = choosePrice(corpus.prices, model, corpus.meta.as_of);
    const withTokens = axes.reduce((s, a) => s + a.withTokens, 0);
    if (choice.price === null && choice.listed > 0)
      out.push({
        file: PRICES_PATH,
        field: 'read_on',
        reason: `model '${model}': every price was read after the release's day (${day}): /api/cost gives it no cost (the price that applies is the latest read on or before that day)`,
      });
    else if (choice.price === null && withTokens > 0)
      out.push({
        file: PRICES_PATH,
        field: 'prices',
        reason: `model '${model}': its rows carry token counts but the price list has no price for it: /api/cost gives it no cost (never 0)`,
      });
    else if (choice.price !== null && withTokens === 0)
      out.push({
        file: PRICES_PATH,
        field: 'prices',
        reason: `model '${model}': it has a price but none of its rows carries both input_tokens and output_tokens: /api/cost gives it no cost (never 0)`,
      });
    else if (choice.price !== null)
      for (const a of axes)
        if (a.withTokens > 0 && a.withTokens < a.rows)
          out.push({
            file: `peritem/${a.axis}.jsonl`,
            field: 'input_tokens, output_tokens',
            reason: `model '${model}': ${a.withTokens} of ${a.rows} rows carry both; /api/cost gives its cost over those ${a.withTokens}, the other ${a.rows - a.withTokens} are not costed (not 0), and compares that cost with no other model (decision CO10)`,
          });
  }
  return out;
}
