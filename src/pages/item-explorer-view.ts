/**
 * The item explorer page's body (issue 41 item 4): a pair's 2×2 counts and the discordant items of
 * one side, or one item's every model, from the `/api/items` document (`svc.gspc-items/0.1`,
 * docs/formats.md). Every operator string (model and item ids, gold, labels, responses) goes
 * through the escaping `html` tag, and the item-level ones through inert-text.ts too, so markup
 * is shown, never rendered, and a bidirectional control is a visible mark. A response sits in a
 * box that wraps every line (`pre-wrap`, broken anywhere), is at most 2,000 characters (the
 * document cuts it) and scrolls within a bounded height, so no response can widen or stretch the
 * page. Tables become cards on a phone (card-table.ts).
 */
import { axisPagePath, itemsPagePath } from './axis-path.js';
import { breakable, cardTable, type Column } from './card-table.js';
import { html, type SafeHtml } from './html.js';
import { inertText, inertWord, shownText } from './inert-text.js';

/** A label and a response as the document gives them (`response` absent when the axis has none). */
export interface Answer {
  label: string | null;
  label_truncated?: true;
  response?: string | null;
  response_truncated?: true;
}

interface Head {
  schema: string;
  axis: string;
  responses: { available: boolean; max_chars?: number; reason?: string };
}

export interface PairHead extends Head {
  first: string;
  second: string;
  own: boolean;
  side: 'first' | 'second';
  counts: { n_pairs: number; a: number; b: number; c: number; d: number; conflicts: number };
}

export interface PairItem {
  item: string;
  gold: string | string[];
  gold_truncated?: true;
  first: Answer;
  second: Answer;
}

export interface ItemHead extends Head {
  item: string;
  gold: string | string[];
  gold_truncated?: true;
  models_without_row: number;
}

export interface ItemModel extends Answer {
  model: string;
  own: boolean;
  outcome: 'correct' | 'wrong' | 'unparsed';
}

/** Where a page of entries starts and ends in its list, and the links to its neighbours. */
export interface Paging {
  from: number;
  to: number;
  of: number;
  prev: string | null;
  next: string | null;
  /** The same entries as the JSON document (`/api/items?…`). */
  json: string;
}

const ownMark = (own: boolean) => (own ? html` <span class="state axis-own">own</span>` : '');

/** What a cut label or gold says (the document cuts them at 500 characters, a gold list at 20 labels). */
const CUT_NOTE = html` <span class="note">(cut: the published rows hold it whole)</span>`;

function gold(g: string | string[], truncated?: true): SafeHtml {
  const cutNote = truncated ? CUT_NOTE : '';
  if (typeof g === 'string') return html`<code><bdi>${inertWord(g)}</bdi></code>${cutNote}`;
  return html`one of ${g.map((x, i) => html`${i > 0 ? ', ' : ''}<code><bdi>${inertWord(x)}</bdi></code>`)}${cutNote}`;
}

const labelText = (a: Answer) =>
  a.label === null
    ? html`<span class="note">unparsed</span>`
    : html`<code><bdi>${inertWord(a.label)}</bdi></code>${a.label_truncated ? CUT_NOTE : ''}`;

/** A response in its box; the region is named so a keyboard can reach it when it scrolls. */
function responseBox(a: Answer, whose: string): SafeHtml {
  if (a.response === undefined) return html``;
  if (a.response === null) return html`<span class="note">no response recorded</span>`;
  return html`<pre class="xp-response" tabindex="0" role="region" aria-label="${whose}">${inertText(a.response)}</pre>${
    a.response_truncated
      ? html`<span class="note">cut at 2,000 characters (the published rows hold it whole)</span>`
      : ''
  }`;
}

function pager(p: Paging, what: string): SafeHtml {
  const range =
    p.to > p.from
      ? `${what} ${p.from + 1}–${p.to} of ${p.of.toLocaleString('en')}`
      : `no ${what} here (${p.of} in all)`;
  return html`<nav class="xp-pager" aria-label="Pages of ${what}"><ul>
${p.prev !== null ? html`<li><a rel="prev" href="${p.prev}">← Previous</a></li>` : ''}
<li><span data-from="${String(p.from)}" data-to="${String(p.to)}" data-of="${String(p.of)}">${range}</span></li>
${p.next !== null ? html`<li><a rel="next" href="${p.next}">Next →</a></li>` : ''}
<li><a href="${p.json}">this page as JSON</a></li>
</ul></nav>`;
}

function responsesNote(h: Head): SafeHtml {
  return h.responses.available
    ? html``
    : html`<p class="note" id="xp-no-responses">No response text: ${h.responses.reason ?? 'none recorded'}.</p>`;
}

function sourceNote(h: Head, p: Paging): SafeHtml {
  return html`<p class="note"><a href="${axisPagePath(h.axis)}">← Axis ${h.axis}</a> · every value is read from <a href="${p.json}">/api/items</a> (<code>${h.schema}</code>); whether a pair is separated is the axis page's word (its pairs table, from <a href="/api/models?axis=${h.axis}">/api/models?axis=${h.axis}</a>). Every text below is the operator's, shown as text: markup is not rendered, and a control or bidirectional character is shown as <code>\\uXXXX</code>, not applied.</p>`;
}

/** The 2×2 table of the items both parsed, b and c linking to their sides. */
function countsTable(h: PairHead): SafeHtml {
  const c = h.counts;
  const side = (s: 'first' | 'second', n: number) =>
    h.side === s
      ? html`<td class="num" data-value="${String(n)}"><strong>${n}</strong></td>`
      : html`<td class="num" data-value="${String(n)}"><a href="${itemsPagePath(h.axis, { first: h.first, second: h.second, side: s })}">${n}</a></td>`;
  return html`<div class="table-wrap"><table id="xp-counts" class="dash-table xp-counts">
<caption>The ${c.n_pairs.toLocaleString('en')} items both parsed (A: ${breakable(h.first)}, B: ${breakable(h.second)})</caption>
<thead><tr><td></td><th scope="col">B right</th><th scope="col">B wrong</th></tr></thead>
<tbody><tr><th scope="row">A right</th><td class="num" data-value="${String(c.a)}">${c.a}</td>${side('first', c.b)}</tr>
<tr><th scope="row">A wrong</th>${side('second', c.c)}<td class="num" data-value="${String(c.d)}">${c.d}</td></tr></tbody></table></div>`;
}

/** The switch between the two sides: the current one named, the other a link. */
function sideSwitch(h: PairHead): SafeHtml {
  const tab = (s: 'first' | 'second', text: string, n: number) =>
    h.side === s
      ? html`<li><a aria-current="page" href="${itemsPagePath(h.axis, { first: h.first, second: h.second, side: s })}" data-side="${s}">${text} (${n})</a></li>`
      : html`<li><a href="${itemsPagePath(h.axis, { first: h.first, second: h.second, side: s })}" data-side="${s}">${text} (${n})</a></li>`;
  return html`<ul class="tabs" id="xp-sides" aria-label="Which discordant items">
${tab('first', 'A right, B wrong', h.counts.b)}
${tab('second', 'B right, A wrong', h.counts.c)}
</ul>`;
}

export function pairBody(h: PairHead, items: readonly PairItem[], p: Paging): SafeHtml {
  const responses = h.responses.available;
  const [win, lose] = h.side === 'first' ? ['A', 'B'] : ['B', 'A'];
  const columns: Column[] = [
    { label: 'Item' },
    { label: 'Gold' },
    { label: 'A label' },
    ...(responses ? [{ label: 'A response' }] : []),
    { label: 'B label' },
    ...(responses ? [{ label: 'B response' }] : []),
  ];
  const answer = (a: Answer, who: string, item: string) => [
    html`<td class="xp-label">${labelText(a)}</td>`,
    ...(responses
      ? [html`<td class="xp-response-cell">${responseBox(a, `${who}'s response on ${shownText(item)}`)}</td>`]
      : []),
  ];
  return html`${sourceNote(h, p)}
<dl class="dash-facts" id="xp-pair">
<dt>A (first)</dt><dd data-field="first">${breakable(h.first)}</dd>
<dt>B (second)</dt><dd data-field="second">${breakable(h.second)}</dd>
<dt>Items both parsed</dt><dd data-field="n_pairs">${h.counts.n_pairs}</dd>
${h.counts.conflicts > 0 ? html`<dt>Conflicts</dt><dd data-field="conflicts">${h.counts.conflicts} paired items whose content hashes differ between the two (the board refuses to pair them)</dd>` : ''}
</dl>
${h.own ? html`<p class="note" id="xp-own">An own model is in this pair: it is shown for honesty, outside the Holm family.</p>` : ''}
${countsTable(h)}
<h2 id="xp-items-heading">The items ${win} got right and ${lose} got wrong</h2>
${sideSwitch(h)}
${responsesNote(h)}
${pager(p, 'items')}
${
  items.length === 0
    ? html`<p class="note" id="xp-none">None: no item both parsed has ${win} right and ${lose} wrong.</p>`
    : cardTable(
        'xp-items',
        `Items ${p.from + 1}–${p.to} of ${p.of} that ${win} got right and ${lose} got wrong, in item order (A: ${h.first}, B: ${h.second})`,
        columns,
        items.map((it) => ({
          attrs: html` data-item="${it.item}"`,
          cells: [
            html`<th scope="row"><a href="${itemsPagePath(h.axis, { item: it.item })}"><bdi>${inertWord(it.item)}</bdi></a></th>`,
            html`<td class="xp-label">${gold(it.gold, it.gold_truncated)}</td>`,
            ...answer(it.first, 'A', it.item),
            ...answer(it.second, 'B', it.item),
          ],
        })),
      )
}
${items.length > 0 ? pager(p, 'items') : ''}`;
}

const OUTCOME_CLASS = { correct: 'SEPARATED', wrong: 'INVALID', unparsed: 'UNTESTED' } as const;

export function itemBody(h: ItemHead, models: readonly ItemModel[], p: Paging): SafeHtml {
  const responses = h.responses.available;
  const columns: Column[] = [
    { label: 'Model' },
    { label: 'Outcome' },
    { label: 'Label' },
    ...(responses ? [{ label: 'Response' }] : []),
  ];
  return html`${sourceNote(h, p)}
<dl class="dash-facts" id="xp-item">
<dt>Item</dt><dd data-field="item"><code><bdi>${inertWord(h.item)}</bdi></code></dd>
<dt>Gold</dt><dd data-field="gold">${gold(h.gold, h.gold_truncated)}</dd>
<dt>Models with a row</dt><dd data-field="models">${p.of}</dd>
<dt>Models without a row</dt><dd data-field="models_without_row">${h.models_without_row}</dd>
</dl>
${responsesNote(h)}
${pager(p, 'models')}
${cardTable(
  'xp-models',
  `Models ${p.from + 1}–${p.to} of ${p.of} with a row on this item, in model-id order: each one's outcome, label${responses ? ' and response' : ''}`,
  columns,
  models.map((m) => ({
    attrs: html` data-model="${m.model}" data-outcome="${m.outcome}" data-own="${String(m.own)}"`,
    cells: [
      html`<th scope="row">${breakable(m.model)}${ownMark(m.own)}</th>`,
      html`<td><span class="state state-${OUTCOME_CLASS[m.outcome]}">${m.outcome}</span></td>`,
      html`<td class="xp-label">${labelText(m)}</td>`,
      ...(responses
        ? [html`<td class="xp-response-cell">${responseBox(m, `${m.model}'s response on ${shownText(h.item)}`)}</td>`]
        : []),
    ],
  })),
)}
${models.length > 0 ? pager(p, 'models') : ''}`;
}
