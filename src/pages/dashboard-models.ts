/**
 * The dashboard's *models* tab (issue 40): every measured model with its card as
 * `GET /api/model-cards` gives it (organisation, open weights, licence, parameters, release date,
 * knowledge cutoff, revision, sha, dtype, a link), and the axis pages it appears on. A filter
 * (open weights, parameter range, organisation; model-filter.ts) narrows the table, and every
 * link to an axis page carries it. An absent field reads "unknown", never blank, no or 0; several
 * revisions are said as such; the card's URL is a link the service never fetches.
 */
import type { ModelCard, RunValue } from '../core/board/model-card.js';
import { axisPagePath } from './axis-path.js';
import { breakable, cardTable, type Column } from './card-table.js';
import { numCell, readJson, unread } from './dashboard-format.js';
import { html, type SafeHtml } from './html.js';
import { filterOut, filterWords, isFiltered, type ModelFilter, parametersText, withFilter } from './model-filter.js';
import type { PageContext } from './page-context.js';

interface CardsDocument {
  schema: string;
  with_card: number;
  rule: string;
  models: { model: string; axes: string[]; card: Omit<ModelCard, 'model'> }[];
}

const UNKNOWN = html`<span class="note">unknown</span>`;

/** Rows of the table (at 1,000 models every row was 824 kB of page). */
export const TAB_MODELS = 200;

const textOr = (v: string | undefined) => (v === undefined ? UNKNOWN : breakable(v));

/** A run field: one value, or several (the model was measured at more than one). */
function runValue(v: RunValue | undefined): SafeHtml {
  if (v === undefined) return UNKNOWN;
  if (typeof v === 'string') return breakable(v);
  return html`<span class="dash-several">${v.length} measured: ${v.map((x, i) => html`${i > 0 ? ', ' : ''}${breakable(x)}`)}</span>`;
}

const COLUMNS: Column[] = [
  { label: 'Model' },
  { label: 'Organisation' },
  { label: 'Open weights' },
  { label: 'Licence' },
  { label: 'Parameters', num: true },
  { label: 'Released' },
  { label: 'Knowledge cutoff' },
  { label: 'Revision' },
  { label: 'Weights sha' },
  { label: 'Type' },
  { label: 'Axis pages' },
];

function filterForm(f: ModelFilter, orgs: readonly string[]): SafeHtml {
  const opt = (value: string, label: string, selected: boolean) =>
    html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;
  return html`<form class="dash-filter" id="model-filter" method="get" action="/dashboard">
<input type="hidden" name="tab" value="models">
<label>Open weights <select name="open_weights">${opt('', 'any', f.open_weights === undefined)}${opt('yes', 'yes', f.open_weights === 'yes')}${opt('no', 'no', f.open_weights === 'no')}${opt('unknown', 'unknown', f.open_weights === 'unknown')}</select></label>
<label>Parameters from <input name="min_params" size="6" inputmode="text" placeholder="1B" value="${f.min_params === undefined ? '' : parametersText(f.min_params).replace(/,/g, '')}"></label>
<label>to <input name="max_params" size="6" inputmode="text" placeholder="70B" value="${f.max_params === undefined ? '' : parametersText(f.max_params).replace(/,/g, '')}"></label>
<label>Organisation <select name="org">${opt('', 'any', f.org === undefined)}${orgs.map((o) => opt(o, o, f.org === o))}</select></label>
<button type="submit">Filter</button>${isFiltered(f) ? html` <a href="/dashboard?tab=models">Clear the filter</a>` : ''}
</form>`;
}

export async function modelsTab(ctx: PageContext, f: ModelFilter): Promise<{ body: SafeHtml; island: null }> {
  const read = await readJson<CardsDocument>(ctx, '/api/model-cards');
  if (!read.ok)
    return { body: html`<h2 id="models-heading">Models</h2>${unread('The model cards', read.reason)}`, island: null };
  const doc = read.value;
  const board = await readJson<{ axes: { axis: string; kind: string }[] }>(ctx, '/api/gspc');
  // Axis pages exist for model-comparison axes only.
  const comparison = new Set(
    (board.ok ? board.value.axes : []).filter((a) => a.kind === 'model-comparison').map((a) => a.axis),
  );
  const orgs = [...new Set(doc.models.flatMap((m) => (m.card.organisation ? [m.card.organisation] : [])))].sort();
  if (f.org !== undefined && !orgs.includes(f.org)) orgs.push(f.org);
  const kept = doc.models.filter((m) => filterOut(f, m.card) === null);
  const unknown = doc.models.filter((m) => filterOut(f, m.card) === 'unknown').length;
  // The page stays light however many models there are: the first TAB_MODELS kept, then a note.
  const rows = kept.slice(0, TAB_MODELS).map((m) => {
    const c = m.card;
    const pages = m.axes.filter((a) => comparison.has(a));
    return {
      attrs: html` data-model="${m.model}"`,
      cells: [
        html`<th scope="row">${breakable(m.model)}${c.url ? html` <a href="${c.url}" rel="noopener noreferrer nofollow" class="note">about</a>` : ''}</th>`,
        html`<td>${textOr(c.organisation)}</td>`,
        html`<td data-value="${c.open_weights === undefined ? '' : String(c.open_weights)}">${c.open_weights === undefined ? UNKNOWN : c.open_weights ? 'yes' : 'no'}</td>`,
        html`<td>${textOr(c.licence)}</td>`,
        c.parameters === undefined
          ? html`<td class="num" data-value="">${UNKNOWN}</td>`
          : numCell(c.parameters, parametersText(c.parameters)),
        html`<td>${textOr(c.release_date)}</td>`,
        html`<td>${textOr(c.knowledge_cutoff)}</td>`,
        html`<td>${runValue(c.revision)}</td>`,
        html`<td>${runValue(c.sha)}</td>`,
        html`<td>${runValue(c.dtype)}</td>`,
        html`<td>${pages.length === 0 ? '—' : pages.map((a, i) => html`${i > 0 ? ', ' : ''}<a href="${withFilter(axisPagePath(a), f)}">${breakable(a)}</a>`)}</td>`,
      ],
    };
  });
  const note = isFiltered(f)
    ? html`<p class="note" id="models-filtered" data-shown="${String(kept.length)}" data-unknown="${String(unknown)}">${kept.length} of ${doc.models.length} models with ${filterWords(f)}${unknown > 0 ? html`; ${unknown} more ${unknown === 1 ? 'has' : 'have'} no card value the filter can judge (unknown) and ${unknown === 1 ? 'is' : 'are'} not shown` : ''}. The axis pages linked below keep this filter.</p>`
    : html`<p class="note" id="models-filtered" data-shown="${String(kept.length)}" data-unknown="0">Every measured model (${doc.models.length}); ${doc.with_card} with a card.</p>`;
  const body = html`<h2 id="models-heading">Models</h2>
<p class="note">Who each model is, as the corpus's <code>models.json</code> states it (<a href="/api/model-cards">/api/model-cards</a>, <code>${doc.schema}</code>): ${doc.rule}</p>
${filterForm(f, orgs)}
${note}
${cardTable('dash-models', `Measured models${isFiltered(f) ? ` (${filterWords(f)})` : ''}: each card field as stated, "unknown" where the corpus says nothing`, COLUMNS, rows)}
${kept.length > TAB_MODELS ? html`<p class="note" id="models-cut" data-shown="${String(TAB_MODELS)}">The table shows the first ${TAB_MODELS} of these ${kept.length.toLocaleString('en')} models, in id order: narrow the filter, or read every card in <a href="/api/model-cards">/api/model-cards</a>.</p>` : ''}`;
  return { body, island: null };
}
