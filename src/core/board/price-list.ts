/**
 * The operator's price list (issue 40 item 4, "Cost, never invented"): the corpus's optional
 * `prices.json` (`svc.gspc-corpus-prices/1`, read by src/corpus/prices.ts), dated prices per
 * model in US dollars per million input and output tokens, each with where it was read. Nothing
 * here fetches a source or fills a price: a model without a price that applies has no cost
 * (docs/formats.md, "prices.json"; docs/methodology.md §11; decisions CO1-CO4).
 */

export const PRICES_FILE_SCHEMA = 'svc.gspc-corpus-prices/1';

/** One dated price of one model, as the operator read it. */
export interface ModelPrice {
  model: string;
  /** US dollars per 1,000,000 input (prompt) tokens. */
  input_usd_per_mtok: number;
  /** US dollars per 1,000,000 output (completion) tokens. */
  output_usd_per_mtok: number;
  /** The day the price was read (`YYYY-MM-DD`). */
  read_on: string;
  /** Where it was read, in words (a price page, a contract, an invoice). */
  source?: string;
  /** Where it was read, as an https address: stored and shown, never fetched. */
  url?: string;
}

/** The fields of a price, in the order the file and the documents give them. */
export const PRICE_FIELDS = ['input_usd_per_mtok', 'output_usd_per_mtok', 'read_on', 'source', 'url'] as const;

/** A price with its fields in the canonical order, absent ones left out. */
export function orderedPrice(p: ModelPrice): ModelPrice {
  const out: Record<string, unknown> = { model: p.model };
  for (const f of PRICE_FIELDS) if (p[f] !== undefined) out[f] = p[f];
  return out as unknown as ModelPrice;
}

/** Which price of a model applies to a release, or why none does. */
export type PriceChoice = { price: ModelPrice; listed: number } | { price: null; reason: string; listed: number };

/**
 * The price that applies to a release dated `asOf` (the corpus `as_of`, an ISO timestamp): of
 * the model's prices, the one read latest on or before that day (decision CO3). A price read
 * after the release's day is not the price of what the release measured, so it is not used; if
 * every price of the model is later, there is none, and the reason says so. Two prices of one
 * model on one day are refused by the corpus reader, so the choice is never a tie.
 */
export function choosePrice(prices: readonly ModelPrice[], model: string, asOf: string): PriceChoice {
  const day = asOf.slice(0, 10);
  const mine = prices.filter((p) => p.model === model);
  if (mine.length === 0) return { price: null, reason: 'no price in the price list', listed: 0 };
  let best: ModelPrice | undefined;
  for (const p of mine) if (p.read_on <= day && (best === undefined || p.read_on > best.read_on)) best = p;
  if (best !== undefined) return { price: best, listed: mine.length };
  const earliest = mine.reduce((a, b) => (b.read_on < a.read_on ? b : a)).read_on;
  return {
    price: null,
    reason: `every price of this model was read after the release's day (${day}); the earliest on ${earliest}`,
    listed: mine.length,
  };
}

/**
 * What one response cost in US dollars: (input tokens × input price + output tokens × output
 * price) / 10⁶, evaluated in this order (methodology §11), so a reader gets the same bits.
 */
export function rowCostUsd(inputTokens: number, outputTokens: number, price: ModelPrice): number {
  return (inputTokens * price.input_usd_per_mtok + outputTokens * price.output_usd_per_mtok) / 1e6;
}
