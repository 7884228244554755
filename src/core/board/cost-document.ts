/**
 * `GET /api/cost?axis=<slug>` (`svc.gspc-cost/0.2`, issue 40 item 4): per model of one
 * model-comparison axis, the price that applies (price-list.ts), what its responses cost
 * (cost.ts), and whether it is dominated; the models not separated from the leader with their
 * cost; and the cheapest of them. Accuracy, ranks, the leader's group and which pairs are
 * SEPARATED are read from the every-model document `/api/models?axis=` serves (passed in whole,
 * never derived again here), so the two documents cannot disagree. Rules: docs/methodology.md
 * §11; decisions CO1-CO13. Beside the board, which does not change.
 */
import { type CostFigure, costFigure, rowsWithTokens } from './cost.js';
import { dominance, type Dominance } from './cost-dominance.js';
import type { ItemTable } from './item-table.js';
import type { ModelComparisonAxis } from './model.js';
import type { ModelsDocument, PairEntry } from './models-document.js';
import { choosePrice, type ModelPrice, orderedPrice } from './price-list.js';

export const COST_SCHEMA = 'svc.gspc-cost/0.2';

/** A price as a document gives it (the model is the entry's). */
export type PriceEntry = Omit<ModelPrice, 'model'>;

export interface CostModel extends Dominance {
  model: string;
  own: boolean;
  /** As `/api/models?axis=` gives them. */
  rank: number | null;
  accuracy: number | null;
  interval: [number, number] | null;
  /** Every row of the model on the axis. */
  rows: number;
  /** Rows that carry both input_tokens and output_tokens: the only rows a cost is taken over. */
  rows_with_tokens: number;
  /** The price that applies (decision CO3), or null with `price_reason`. */
  price: PriceEntry | null;
  price_reason?: string;
  /** How many prices the list holds for the model (all dates). */
  prices_listed: number;
  /** Null (never 0) without a price or without a row carrying both counts: `cost_reason` says which. */
  cost: CostFigure | null;
  cost_reason?: string;
}

/** A model of the leader's group, named with its cost. */
export interface GroupEntry {
  model: string;
  /**
   * How /api/models placed it with the leader: the leader itself, a TIE, or UNTESTED (no test was
   * possible, e.g. no shared item or runs not like for like): not separated, but not shown tied.
   */
  with_leader: 'leader' | 'TIE' | 'UNTESTED';
  /** Why the pair with the leader is UNTESTED (the pair's reason on /api/models). */
  untested_reason?: string;
  rank: number | null;
  accuracy: number | null;
  interval: [number, number] | null;
  rows: number;
  rows_with_tokens: number;
  cost: CostFigure | null;
  cost_reason?: string;
}

export interface Cheapest extends GroupEntry {
  cost: CostFigure;
  with_leader: 'leader' | 'TIE';
  /** The leader's group: how many models it holds, and which of them have no cost (either may be cheaper). */
  group: number;
  without_cost: string[];
  /** Members whose cost covers only part of their rows: not compared (decision CO10), any may be cheaper. */
  partial_cost: string[];
}

export interface CostDocument {
  schema: typeof COST_SCHEMA;
  axis: string;
  status: string;
  n: number;
  /** The release's `as_of`: prices read on or before its day apply. */
  as_of: string;
  currency: 'USD';
  /** The published `prices.json`, or null when the corpus has none (then no model has a cost). */
  prices: { url: string; sha256: string } | null;
  /** Where accuracy, ranks, the leader's group and the SEPARATED pairs come from. */
  models_source: string;
  bank_state?: string;
  clustered: boolean;
  method: Record<string, string>;
  /** How many models have a price that applies, a cost, and are dominated. */
  priced: number;
  costed: number;
  dominated: number;
  /** The rank-1 public model (null without one). */
  leader: string | null;
  /** The models not separated from the leader (`leader_group` of /api/models), in rank order, each with its cost. */
  leader_group: GroupEntry[];
  /**
   * The cheapest of them by cost per item, among those compared with the leader (the leader or a
   * TIE) whose cost covers every one of their rows (decisions CO10, CO11); null with `cheapest_reason`.
   */
  cheapest_not_separated: Cheapest | null;
  cheapest_reason?: string;
  /**
   * Members of the leader's group whose pair with the leader is UNTESTED and whose full cost is
   * lower than the cheapest's (every such member with a full cost when there is no cheapest): cheaper,
   * but never compared with the leader (decision CO11). In rank order.
   */
  cheaper_untested: string[];
  /** Every model of /api/models, in its order. */
  models: CostModel[];
}

const METHOD: Record<string, string> = {
  price:
    "the operator-supplied price list (prices.json, USD per million input and output tokens, each dated and sourced, never fetched); of a model's prices, the one read latest on or before the day of as_of applies; no price, no cost",
  row_cost:
    'a row costs (input_tokens × input_usd_per_mtok + output_tokens × output_usd_per_mtok) / 10⁶, over the rows that carry both counts (unparsed responses included); a row without both has no cost and is left out (rows_with_tokens says how many are in), never costed at 0',
  per_item:
    'per_item_usd = total / rows costed; 95% interval by linearisation, SE = √(Σ_g (Σ_{i∈g}(xᵢ − R))²) / rows, g each row or, where the rows carry clusters, each cluster, z = 1.959963984540054, lower bound not below 0; null below two units (as /api/usage)',
  per_correct:
    'per_correct_usd = total / correct over the same rows (what one correct answer cost, failures included); SE = √(Σ_g (Σ_{i∈g}(xᵢ − R·cᵢ))²) / correct; null without a correct row and on a refused one-label bank',
  dominance:
    "a public model is dominated when another public model is SEPARATED from it on /api/models (Holm), better, and no more expensive: its per_item_usd is at most this one's (point estimates; the intervals are for reading). A cost counts, on either side, only when it covers every row of its model (rows_with_tokens = rows): models may answer different items, and a mean over part of a model's rows is not compared. null when the model has no cost, a cost over part of its rows, is an own model or has no rank, or when no model dominates it but one might: a model SEPARATED above it without a cost or with a partial one, or a better-ranked model never compared with it (UNTESTED) that is not known to cost more",
  leader_group:
    "the models not separated from the leader are /api/models' leader_group, each named with its cost; with_leader says whether its pair with the leader is a TIE or UNTESTED (not compared: not separated, but not shown tied)",
  cheapest:
    "cheapest_not_separated: of the leader's group, among the leader and the members whose pair with it is a TIE (tested) and whose cost covers every one of their rows, the one with the lowest per_item_usd (the better rank on equal cost); without_cost names the members that have no cost and partial_cost those whose cost covers part of their rows only (not compared: any may be cheaper); cheaper_untested names the members cheaper than it but never compared with the leader (UNTESTED)",
};

export function costDocument(
  def: ModelComparisonAxis,
  table: ItemTable | undefined,
  models: ModelsDocument,
  prices: readonly ModelPrice[],
  asOf: string,
  source: { url: string; sha256: string } | null,
): CostDocument {
  const refused = models.bank_state !== undefined;
  const clustered = table !== undefined && table.clusterRows.with > 0 && table.clusterRows.without === 0;
  const entries = models.models.map((m) => {
    const col = table?.columns.get(m.model);
    const choice = choosePrice(prices, m.model, asOf);
    const withTokens = rowsWithTokens(col);
    const cost = choice.price && table && col ? costFigure(table, col, choice.price, clustered, refused) : null;
    const reasons: string[] = [];
    if (choice.price === null) reasons.push(`no price: ${choice.reason}`);
    if (table === undefined) reasons.push('aggregate results only: no rows, so no token counts');
    else if (withTokens === 0) reasons.push('no row carries both input_tokens and output_tokens');
    const { model: _, ...price } = choice.price ? orderedPrice(choice.price) : { model: '' };
    return {
      model: m.model,
      own: m.own,
      rank: m.rank,
      accuracy: m.accuracy,
      interval: m.interval,
      rows: m.rows,
      rows_with_tokens: withTokens,
      price: choice.price ? (price as PriceEntry) : null,
      ...(choice.price === null && { price_reason: choice.reason }),
      prices_listed: choice.listed,
      cost,
      ...(cost === null && { cost_reason: reasons.join('; ') }),
    };
  });
  const dominanceOf = dominance(
    models,
    new Map(
      entries.map((e) => [
        e.model,
        e.cost === null ? null : { per_item: e.cost.per_item_usd, full: e.rows_with_tokens === e.rows },
      ]),
    ),
  );
  const out: CostModel[] = entries.map((e) => ({ ...e, ...dominanceOf.get(e.model)! }));
  const byModel = new Map(out.map((e) => [e.model, e]));
  const leader = models.leader_group[0];
  const withLeader = new Map<string, PairEntry>();
  for (const p of models.pairs)
    if (!p.own && (p.first === leader || p.second === leader))
      withLeader.set(p.first === leader ? p.second : p.first, p);
  const group: GroupEntry[] = models.leader_group.map((name) => {
    const e = byModel.get(name)!;
    const pair = withLeader.get(name);
    return {
      model: e.model,
      with_leader: name === leader ? 'leader' : pair?.state === 'UNTESTED' ? 'UNTESTED' : 'TIE',
      ...(pair?.state === 'UNTESTED' && pair.reason !== undefined && { untested_reason: pair.reason }),
      rank: e.rank,
      accuracy: e.accuracy,
      interval: e.interval,
      rows: e.rows,
      rows_with_tokens: e.rows_with_tokens,
      cost: e.cost,
      ...(e.cost_reason !== undefined && { cost_reason: e.cost_reason }),
    };
  });
  // Only a cost over every row of its model is compared (CO10), and only with a member the test
  // placed with the leader (CO11): an UNTESTED member cheaper than the choice is named apart.
  const fullCost = (g: GroupEntry) => g.cost !== null && g.rows_with_tokens === g.rows;
  let cheapest: GroupEntry | undefined;
  for (const g of group)
    if (
      g.with_leader !== 'UNTESTED' &&
      fullCost(g) &&
      (cheapest === undefined || g.cost!.per_item_usd < cheapest.cost!.per_item_usd)
    )
      cheapest = g;
  // The group is in rank order (/api/models gives it so), and so are these lists.
  const withoutCost = group.filter((g) => g.cost === null).map((g) => g.model);
  const partialCost = group.filter((g) => g.cost !== null && !fullCost(g)).map((g) => g.model);
  const cheaperUntested = group
    .filter(
      (g) =>
        g.with_leader === 'UNTESTED' &&
        fullCost(g) &&
        (cheapest === undefined || g.cost!.per_item_usd < cheapest.cost!.per_item_usd),
    )
    .map((g) => g.model);
  const notCompared = [
    ...(withoutCost.length > 0 ? [`without a cost: ${withoutCost.join(', ')}`] : []),
    ...(partialCost.length > 0 ? [`with a cost over part of their rows only: ${partialCost.join(', ')}`] : []),
    ...(cheaperUntested.length > 0
      ? [`with a cost but never compared with the leader (UNTESTED): ${cheaperUntested.join(', ')}`]
      : []),
  ];
  const cheapestReason =
    def.status !== 'MEASURED'
      ? `the axis is ${def.status}: no model is compared`
      : refused
        ? 'a refused one-label bank has no leader (bank_state)'
        : group.length === 0
          ? 'no public model has a parsed response: there is no leader'
          : cheapest === undefined && partialCost.length === 0 && cheaperUntested.length === 0
            ? `no model of the leader's group has a cost (${withoutCost.join(', ')}): without a price and token counts there is nothing to compare`
            : cheapest === undefined
              ? `no model of the leader's group compared with the leader (the leader itself or a TIE) has a cost over every one of its rows (${notCompared.join('; ')})`
              : undefined;
  return {
    schema: COST_SCHEMA,
    axis: def.axis,
    status: def.status,
    n: models.n,
    as_of: asOf,
    currency: 'USD',
    prices: source,
    models_source: `/api/models?axis=${def.axis}`,
    ...(models.bank_state !== undefined && { bank_state: models.bank_state }),
    clustered,
    method: METHOD,
    priced: out.filter((e) => e.price !== null).length,
    costed: out.filter((e) => e.cost !== null).length,
    dominated: out.filter((e) => e.dominated === true).length,
    leader: models.leader_group[0] ?? null,
    leader_group: group,
    cheapest_not_separated:
      cheapest === undefined
        ? null
        : {
            ...cheapest,
            cost: cheapest.cost!,
            with_leader: cheapest.with_leader as 'leader' | 'TIE',
            group: group.length,
            without_cost: withoutCost,
            partial_cost: partialCost,
          },
    ...(cheapestReason !== undefined && { cheapest_reason: cheapestReason }),
    cheaper_untested: cheaperUntested,
    models: out,
  };
}
