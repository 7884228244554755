/**
 * The skill cost-lookup (issue 40 item 4): `GET /api/cost?axis=<slug>` read in-process, its words
 * (the cheapest model not separated from the leader, the leader's group with its cost, the
 * dominated models; src/surfaces/cost-answer.ts, shared with MCP `gspc_cost`), and the document
 * as one data part, cut to fit 64 kB on very large axes (said in the text; whole at the route).
 */
import type { CostDocument } from '../../core/board/cost-document.js';
import { cutText } from '../answer-budget.js';
import { answerRoom } from '../axis-answer.js';
import { costWords, fitCost } from '../cost-answer.js';
import { read, str, type AnswerDeps, type SkillAnswer } from './answer-kit.js';
import type { RoutedMessage } from './skills.js';

export async function costLookup(msg: RoutedMessage, deps: AnswerDeps): Promise<SkillAnswer> {
  const current = deps.ctx.state.current();
  const comparison = current.release.corpus.definitions.filter((d) => d.kind === 'model-comparison').map((d) => d.axis);
  if (msg.axis === undefined || !comparison.includes(msg.axis)) {
    const asked = msg.axis === undefined ? 'No axis was named' : `There is no model-comparison axis '${msg.axis}'`;
    return {
      skill: 'cost-lookup',
      text: `${asked}. Model-comparison axes: ${comparison.join(', ')}. Name one in metadata "axis" or in the text.`,
      data: [{ value: { error: 'unknown axis', known: comparison }, source: 'GET /api/cost' }],
    };
  }
  // The slug was checked against the served comparison axes, so the route answers it.
  const r = await read(deps, `/api/cost?axis=${encodeURIComponent(msg.axis)}`);
  if (r.status !== 200)
    return {
      skill: 'cost-lookup',
      text: `The cost document did not answer for axis ${msg.axis} (HTTP ${r.status}): ${str(r.json.error)}.`,
      data: [{ value: r.json, source: r.source }],
    };
  const doc = r.json as unknown as CostDocument;
  const words = costWords(doc).join('\n');
  const exact = (cut: string) =>
    `Exact figures: the data part is the document as ${deps.ctx.baseUrl}/api/cost?axis=${msg.axis} serves it${cut === '' ? '' : `, except that to stay within 64 kB its lists are cut to their first entries (${cut}); each is whole there`}.`;
  const fitted = fitCost(doc, answerRoom(`${words}\n${exact('x'.repeat(200))}`));
  return {
    skill: 'cost-lookup',
    text: `${words}\n${exact(cutText(fitted.cut))}`,
    data: [{ value: fitted.value, source: r.source }],
  };
}
