/**
 * Who each model is, on an axis page (issue 40, item 1: model cards "shown on the dashboard and
 * axis pages"): one short line under each model's name in the models table, organisation · open
 * weights · parameters, as `GET /api/model-cards` gives them, "unknown" for an absent field (never
 * blank, no or 0). A release none of whose models has a card says so once, above the table,
 * instead of five "unknown"s per row (decision CV5). The same cards decide the model filter.
 */
import type { ModelCard } from '../core/board/model-card.js';
import type { Read } from './dashboard-format.js';
import { html, type SafeHtml } from './html.js';
import { parametersText } from './model-filter.js';

type Card = Omit<ModelCard, 'model'>;

export interface CardsDocument {
  schema: string;
  with_card: number;
  models: { model: string; card: Card }[];
}

/** `Demo Lab A · open weights · 70.6B`; each absent field named as unknown. */
function cardLineText(c: Card): string {
  const weights =
    c.open_weights === undefined ? 'open weights unknown' : c.open_weights ? 'open weights' : 'weights not open';
  const size = c.parameters === undefined ? 'parameters unknown' : parametersText(c.parameters);
  return `${c.organisation ?? 'organisation unknown'} · ${weights} · ${size}`;
}

export interface AxisCards {
  /** The line under a model's name, or nothing (no card document, or no model has a card). */
  line?: (model: string) => SafeHtml;
  /** Said once under the models table when there is no line to give. */
  note: SafeHtml;
  /** Each model's card (`{}` for a model the document does not list). */
  card: (model: string) => Card;
}

export function axisCards(read: Read<CardsDocument>): AxisCards {
  const byModel = new Map((read.ok ? read.value.models : []).map((m) => [m.model, m.card]));
  const card = (model: string) => byModel.get(model) ?? {};
  if (!read.ok)
    return {
      card,
      note: html`<p class="note" id="axis-cards-none">The model cards were not read (${read.reason}): who each model is is not shown.</p>`,
    };
  if (read.value.with_card === 0)
    return {
      card,
      note: html`<p class="note" id="axis-cards-none">No model of this release has a card (<a href="/api/model-cards">/api/model-cards</a>): organisation, open weights and parameters are unknown for every model, never guessed.</p>`,
    };
  return {
    card,
    line: (model) => html`<br><span class="note axis-card" data-card="${model}">${cardLineText(card(model))}</span>`,
    note: html``,
  };
}
