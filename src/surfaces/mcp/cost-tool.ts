/**
 * `gspc_cost` (issue 40 item 4): what the models of one axis cost and the cheapest model not
 * separated from the leader, read in-process from `GET /api/cost?axis=` (svc.gspc-cost/0.2) as
 * the route serves it, never derived again. Within 64 kB at any number of models: past that the
 * document's longest lists are cut to their first entries (the models in rank order first), the
 * text says which, `_meta["gspc/cut"]` lists them, and each is whole at the route.
 */
import { z } from 'zod';
import type { CostDocument } from '../../core/board/cost-document.js';
import { cutText } from '../answer-budget.js';
import { answerRoom } from '../axis-answer.js';
import { costWords, fitCost } from '../cost-answer.js';
import { errorResult, tool } from './tool-results.js';

export const COST_TOOL = tool({
  name: 'gspc_cost',
  title: 'Cost of the models on one axis',
  description:
    "What the models of one model-comparison axis cost, from the operator's dated price list (USD per million input and output tokens) and the token counts of the rows: per model the price that applies, cost per item and per correct answer with 95% intervals, and whether it is dominated (another model is separated above it after Holm and costs no more per item); the models not separated from the leader with their cost; and the cheapest of those compared with the leader whose cost covers every one of their rows (cheaper ones never compared with it are named apart). No price or no token counts is no cost, never 0. Same JSON as GET /api/cost?axis=<slug> (cut to 64 kB on very large axes, and said).",
  input: z
    .object({
      axis: z
        .string()
        .min(1)
        .max(200)
        .describe('a model-comparison axis slug, e.g. jail (an unknown slug is answered with the known ones)'),
    })
    .strict(),
  run: async ({ axis }, ctx) => {
    const source = `/api/cost?axis=${encodeURIComponent(axis)}`;
    const r = await ctx.documents.readPath(source);
    if (!r.ok)
      return errorResult(
        r.value,
        `${r.value.code}: ${r.value.error}${Array.isArray(r.value.known) ? `; known axes: ${r.value.known.join(', ')}` : ''}`,
      );
    const doc = r.value as unknown as CostDocument;
    const words = costWords(doc).join(' ');
    const tail = (cut: string) =>
      ` The ${doc.schema} document is in structuredContent: the same JSON as GET ${source}${cut === '' ? '' : `, except that to stay within 64 kB its lists are cut to their first entries (${cut}): each is whole at GET ${source}`}.`;
    const fitted = fitCost(doc, answerRoom(`${words}${tail('x'.repeat(200))}`));
    const cut = cutText(fitted.cut);
    const result = {
      content: [{ type: 'text' as const, text: `${words}${tail(cut)}` }],
      structuredContent: fitted.value,
    };
    return cut === '' ? result : { ...result, _meta: { 'gspc/cut': fitted.cut } };
  },
});
