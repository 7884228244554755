/**
 * Who a model is (issue 40, item 1): the card a corpus's optional `models.json` gives a model,
 * and the served document of every measured model with its card (`GET /api/model-cards`,
 * `svc.gspc-model-cards/0.1`). Every field is optional and an absent field means unknown: nothing
 * here fills a default, and the board's derivation never reads a card (the board document does
 * not change with one). Fields and rules: docs/formats.md, "models.json".
 */

export const MODEL_CARDS_FILE_SCHEMA = 'svc.gspc-corpus-models/1';
export const MODEL_CARDS_SCHEMA = 'svc.gspc-model-cards/0.1';

/**
 * A field a run records (the weights' revision, their commit, the numeric type they were run in)
 * may hold several values: two runs of one model id at two revisions are both listed, never one
 * hiding the other (decision MC4). Distinct, at least two (gspc import writes them sorted); one
 * value is a plain string.
 */
export type RunValue = string | string[];

export interface ModelCard {
  model: string;
  /** The organisation that made the model, as a harness or the operator names it. */
  organisation?: string;
  /** Whether the weights are published for download. */
  open_weights?: boolean;
  /** The licence, preferably an SPDX identifier (`apache-2.0`, `llama3.1`), as stated. */
  licence?: string;
  /** The number of parameters (an exact count, as a harness counted it or the maker states it). */
  parameters?: number;
  /** `YYYY-MM-DD`. */
  release_date?: string;
  /** `YYYY-MM-DD` or `YYYY-MM`: makers often state only the month. */
  knowledge_cutoff?: string;
  /** The weights' revision (a branch, tag or version name) the runs used. */
  revision?: RunValue;
  /** The commit of the weights the runs used (lower-case hex). */
  sha?: RunValue;
  /** The numeric type the weights were run in, verbatim as the harness wrote it (`torch.float32`). */
  dtype?: RunValue;
  /** An https address about the model; stored and shown, never fetched by the service. */
  url?: string;
}

/** The card fields, in the order the file and the document give them. */
export const MODEL_CARD_FIELDS = [
  'organisation',
  'open_weights',
  'licence',
  'parameters',
  'release_date',
  'knowledge_cutoff',
  'revision',
  'sha',
  'dtype',
  'url',
] as const satisfies readonly (keyof ModelCard)[];

export type ModelCardField = (typeof MODEL_CARD_FIELDS)[number];

/** The fields whose value is a run's (several runs may disagree: kept as a list). */
export const RUN_FIELDS = ['revision', 'sha', 'dtype'] as const satisfies readonly ModelCardField[];

/** What one run recorded about its model: one value per field (issue 40; docs/import.md). */
export type RecordedCard = Omit<ModelCard, 'model' | (typeof RUN_FIELDS)[number]> & {
  revision?: string;
  sha?: string;
  dtype?: string;
};

/** `models.json` as it is written (one card per model id, in id order when gspc import writes it). */
export interface ModelCardsFile {
  schema: typeof MODEL_CARDS_FILE_SCHEMA;
  models: ModelCard[];
}

/** A card with its fields in the canonical order, absent ones left out. */
export function orderedCard(card: ModelCard): ModelCard {
  const out: Record<string, unknown> = { model: card.model };
  for (const f of MODEL_CARD_FIELDS) if (card[f] !== undefined) out[f] = card[f];
  return out as unknown as ModelCard;
}

export interface ModelCardsDocument {
  schema: typeof MODEL_CARDS_SCHEMA;
  as_of: string;
  /** The published `models.json` the cards come from, or null when the corpus has none. */
  source: { url: string; sha256: string } | null;
  rule: string;
  /** How many measured models have at least one known field. */
  with_card: number;
  /** Every model with rows or aggregate results on a model-comparison axis, in id order. */
  models: {
    model: string;
    /** The model-comparison axes it was measured on, in board order. */
    axes: string[];
    /** What the corpus states about it; `{}` when nothing is known. */
    card: Omit<ModelCard, 'model'>;
  }[];
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The served document. `measured` maps each model-comparison axis (in board order) to the models
 * measured on it; every card names a measured model (the corpus reader refuses the others).
 */
export function modelCardsDocument(
  asOf: string,
  measured: ReadonlyMap<string, readonly string[]>,
  cards: readonly ModelCard[],
  source: { url: string; sha256: string } | null,
): ModelCardsDocument {
  const axesOf = new Map<string, string[]>();
  for (const [axis, models] of measured)
    for (const m of models) {
      const list = axesOf.get(m) ?? [];
      if (!list.includes(axis)) list.push(axis);
      axesOf.set(m, list);
    }
  const cardOf = new Map(cards.map((c) => [c.model, c]));
  const models = [...axesOf.keys()].sort(byCodeUnit).map((model) => {
    const { model: _, ...card } = orderedCard(cardOf.get(model) ?? { model });
    return { model, axes: axesOf.get(model)!, card };
  });
  return {
    schema: MODEL_CARDS_SCHEMA,
    as_of: asOf,
    source,
    rule: 'Each card holds what the corpus states (written by hand, or by gspc import from what a harness recorded); a field that is absent is unknown, never a default. revision, sha and dtype list every value the runs recorded when they differ. The board is derived without reading any card.',
    with_card: models.filter((m) => Object.keys(m.card).length > 0).length,
    models,
  };
}
