/**
 * One axis's cost for an agent (issue 40 item 4), shared by MCP `gspc_cost` and the A2A skill
 * `cost-lookup`: the words that answer "the cheapest model not separated from the leader on
 * <axis>" from `GET /api/cost?axis=` (svc.gspc-cost/0.2), and that document cut to fit one answer
 * (64 kB at any number of models: its longest lists are cut, said, and whole at the route).
 * Nothing is computed here: every figure is the document's.
 */
import type { CostDocument, GroupEntry } from '../core/board/cost-document.js';
import { plural } from '../core/board/lead-sentence.js';
import { type Cut, fitLists } from './answer-budget.js';

/** Models named in the words (the leader's group, the dominated); the rest are counted. */
const NAMED = 12;

/** Up to NAMED entries, then how many more. */
const listed = (xs: readonly string[]): string =>
  `${xs.slice(0, NAMED).join(', ')}${xs.length > NAMED ? ` and ${xs.length - NAMED} more` : ''}`;

/** Dollars for reading: three significant digits (`$0.00213`); exact figures are in the document. */
export const usd = (x: number): string => `$${x === 0 ? '0' : String(Number(x.toPrecision(3)))}`;

const interval = (iv: [number, number] | null): string =>
  iv === null ? 'no interval below two units' : `95% ${usd(iv[0])} to ${usd(iv[1])}`;

/** A model of the leader's group with its cost, or why it has none. */
function groupWords(g: GroupEntry): string {
  const untested = g.with_leader === 'UNTESTED' ? ', UNTESTED with the leader' : '';
  if (g.cost === null) return `${g.model} no cost (${g.cost_reason ?? 'unknown'}${untested})`;
  const part = g.rows_with_tokens < g.rows ? ` over ${g.rows_with_tokens} of ${plural(g.rows, 'row')} only` : '';
  return `${g.model} ${usd(g.cost.per_item_usd)} per item${part}${untested === '' ? '' : ` (${untested.slice(2)})`}`;
}

/** What every surface says about an axis's cost, one sentence per line. */
export function costWords(doc: CostDocument): string[] {
  const c = doc.cheapest_not_separated;
  const out: string[] = [];
  if (c !== null) {
    const perCorrect =
      c.cost.per_correct_usd === null
        ? 'no cost per correct answer'
        : `${usd(c.cost.per_correct_usd)} per correct answer (${interval(c.cost.per_correct_interval)})`;
    out.push(
      `On ${doc.axis}, the cheapest model not separated from the leader (${doc.leader}) is ${c.with_leader === 'leader' ? `the leader itself, ${c.model}` : c.model}: ${usd(c.cost.per_item_usd)} per item (${interval(c.cost.per_item_interval)}), ${perCorrect}, ${c.rows === 1 ? 'over its one row, which carries both token counts' : `over all ${c.rows} of its rows, each carrying both token counts`}.`,
    );
    if (c.without_cost.length > 0)
      out.push(
        `Not separated from the leader either but without a cost (no price or no token counts), so any may be cheaper: ${listed(c.without_cost)}.`,
      );
    if (c.partial_cost.length > 0)
      out.push(
        `Not separated from the leader either, with a cost over part of their rows only, which is not compared (models may answer different items), so any may be cheaper: ${listed(c.partial_cost)}.`,
      );
  } else out.push(`On ${doc.axis}, no cheapest model not separated from the leader: ${doc.cheapest_reason ?? 'none'}.`);
  if (doc.cheaper_untested.length > 0) {
    const cost = new Map(doc.leader_group.map((g) => [g.model, g.cost]));
    const named = doc.cheaper_untested.map((m) => {
      const f = cost.get(m);
      return f ? `${m} ${usd(f.per_item_usd)} per item` : m;
    });
    out.push(
      `Cheaper${c === null ? ' models with a cost' : ''}, but never compared with the leader (their pairs with it are UNTESTED: not separated, but not shown tied either, so not named the cheapest): ${listed(named)}.`,
    );
  }
  if (doc.leader_group.length > 0) {
    const more = doc.leader_group.length - NAMED;
    out.push(
      `Not separated from the leader (${plural(doc.leader_group.length, 'model')}, leader first): ${doc.leader_group.slice(0, NAMED).map(groupWords).join('; ')}${more > 0 ? `; and ${more} more (leader_group)` : ''}.`,
    );
  }
  const dominated = doc.models.filter((m) => m.dominated === true);
  if (dominated.length > 0) {
    const more = dominated.length - NAMED;
    out.push(
      `Dominated (another model is separated above it after Holm and costs no more per item): ${dominated
        .slice(0, NAMED)
        .map(
          (m) =>
            `${m.model} (by ${m.dominated_by[0]}${m.dominated_by.length > 1 ? ` and ${m.dominated_by.length - 1} more` : ''})`,
        )
        .join(', ')}${more > 0 ? ` and ${more} more` : ''}.`,
    );
  }
  out.push(
    `${doc.costed} of ${plural(doc.models.length, 'model')} ${doc.costed === 1 ? 'has' : 'have'} a cost: US dollars from the operator's dated price list (${doc.prices === null ? 'none published' : doc.prices.url}) and the rows' token counts; no price or no token counts is no cost, never 0.`,
  );
  return out;
}

/** The document cut to `budget` bytes of JSON: its longest lists first; `cut` names what was cut. */
export function fitCost(doc: CostDocument, budget: number): { value: CostDocument; cut: Record<string, Cut> } {
  return fitLists(doc as unknown as Record<string, unknown>, budget) as unknown as {
    value: CostDocument;
    cut: Record<string, Cut>;
  };
}
