/**
 * Contamination windows on an axis page (issue 41 item 3), from `GET /api/windows?axis=`: the
 * leader's lead on the items dated after both knowledge cutoffs beside its lead on the whole axis,
 * each with its n, and the same for the leader against the next models in a table. Where the items
 * carry no date or a model states no cutoff the page says so in those words ("no item dates on
 * this axis", "no knowledge cutoff for X"), and nothing is called clean that the document did not
 * test (decision CW9). Every figure is the document's; every string is escaped (html).
 */
import { plural } from '../core/board/lead-sentence.js';
import type { LeadRow, WindowsDocument } from '../core/board/windows-document.js';
import { breakable, cardTable, type Column } from './card-table.js';
import { readJson, stateSpan, unread } from './dashboard-format.js';
import { html, type SafeHtml } from './html.js';
import type { PageContext } from './page-context.js';

/** Lead rows in the table: the leader against the models ranked next; the document has every one. */
export const WINDOW_ROWS = 10;
/** Models without a cutoff named in words; the rest are counted. */
const NAMED = 5;

const COLUMNS: Column[] = [
  { label: 'Against' },
  { label: 'Whole axis: leader minus it', num: true },
  { label: 'After both cutoffs: leader minus it', num: true },
];

const points = (v: number) => `${v > 0 ? '+' : ''}${(v * 100).toFixed(1)}`;

function fullCell(r: LeadRow): SafeHtml {
  const f = r.full;
  if (f.difference === undefined)
    return html`<td class="num" data-value="">${stateSpan(f.state)} <span class="note">${f.reason ?? ''}</span></td>`;
  return html`<td class="num" data-value="${String(f.difference)}">${points(f.difference)} points <span class="note">(n = ${f.n_pairs!.toLocaleString('en')})</span> ${stateSpan(f.state)}</td>`;
}

function windowCell(r: LeadRow): SafeHtml {
  const w = r.window;
  if (w.difference === undefined)
    return html`<td class="num" data-value="">${stateSpan(w.state)} <span class="note">${w.reason ?? ''}</span></td>`;
  const [lo, hi] = w.difference_interval!;
  return html`<td class="num" data-value="${String(w.difference)}">${points(w.difference)} points <span class="note">(${points(lo)} to ${points(hi)}; n = ${w.n_pairs!.toLocaleString('en')}, after ${w.later_cutoff ?? ''})</span> ${stateSpan(w.state)}</td>`;
}

/**
 * How many of the axis's items carry a date (R1-4): an undated item is in no window, so where
 * only some are dated a window holds the dated ones only, and the reader is told so.
 */
function datedItems(doc: WindowsDocument): SafeHtml {
  const range = doc.date_range === null ? '' : ` (${doc.date_range[0]} to ${doc.date_range[1]})`;
  const undated = doc.n - doc.dated_items;
  return html`<p class="note" id="axis-windows-dated" data-dated="${String(doc.dated_items)}" data-n="${String(doc.n)}">${undated === 0 ? `Every one of the ${plural(doc.n, 'item')} carries a date${range}.` : `${doc.dated_items.toLocaleString('en')} of the ${plural(doc.n, 'item')} carry a date${range}; the other ${undated.toLocaleString('en')} ${undated === 1 ? 'is' : 'are'} in no window, whenever ${undated === 1 ? 'it was' : 'they were'} written.`}</p>
`;
}

/** "No knowledge cutoff for X, Y and 3 more models", or nothing when every model states one. */
function missingCutoffs(doc: WindowsDocument): SafeHtml {
  const missing = doc.models.filter((m) => m.knowledge_cutoff === null).map((m) => m.model);
  if (missing.length === 0 || doc.dates_reason !== undefined) return html``;
  const named = missing.slice(0, NAMED);
  const rest = missing.length - named.length;
  return html`<p class="note" id="axis-windows-cutoffs" data-count="${String(missing.length)}">No knowledge cutoff for ${named.join(', ')}${rest > 0 ? ` and ${plural(rest, 'more model')}` : ''}: ${missing.length === 1 ? 'its pairs are' : 'their pairs are'} UNTESTED here, not clean.</p>`;
}

export function windowsSection(doc: WindowsDocument): SafeHtml {
  const src = `/api/windows?axis=${doc.axis}`;
  const heading = html`<h2 id="axis-windows-heading">Contamination windows</h2>
<p class="note">Each pair tested again on the items dated after both models' knowledge cutoffs. A cutoff is what the operator or the vendor states (models.json); a date is what the item states (item_date): neither is checked. The window pairs are one Holm family, apart from the whole axis's (and the slices', on an axis with tags): a claim taken from any of them has up to two (three) times the 0.05 chance of being false. Read from <a href="${src}">${src}</a> (<code>${doc.schema}</code>); the rule: <a href="/methodology">methodology, "Contamination windows"</a>.</p>`;
  if (doc.dates_reason !== undefined)
    return html`${heading}<p class="callout" id="axis-windows-summary" data-state="no-dates">No item dates on this axis: no lead is tested on items after the models' knowledge cutoffs, and none is called clean.</p>`;
  const rows = doc.lead.slice(0, WINDOW_ROWS).map((r) => ({
    attrs: html` data-model="${r.model}"`,
    cells: [
      html`<th scope="row">${breakable(r.model)} <span class="note">(rank ${r.rank})</span></th>`,
      fullCell(r),
      windowCell(r),
    ],
  }));
  const more = doc.lead.length - rows.length;
  return html`${heading}
<p class="callout" id="axis-windows-summary" data-field="windows-summary">${doc.summary}</p>
${datedItems(doc)}${missingCutoffs(doc)}
${
  rows.length > 0
    ? html`${cardTable('axis-windows', `The leader ${doc.leader ?? ''} against the next ${plural(rows.length, 'model')}: on the whole axis and on the items dated after both cutoffs (Holm over ${plural(doc.m, 'window pair')})`, COLUMNS, rows)}${more > 0 ? html`<p class="note" id="axis-windows-more">${plural(more, 'more model')} in <a href="${src}">the document</a>.</p>` : ''}`
    : ''
}`;
}

/**
 * The section of an axis page, read in-process. An axis with aggregate results only has no window
 * document (404): said in one line; any other failure is said as unread, never left out.
 */
export async function axisWindows(ctx: PageContext, axis: string, rows: boolean): Promise<SafeHtml> {
  if (!rows)
    return html`<h2 id="axis-windows-heading">Contamination windows</h2><p class="note" id="axis-windows-summary" data-state="no-rows">No per-item rows on this axis: nothing can be dated or paired, so no lead is tested on items after the models' knowledge cutoffs.</p>`;
  const read = await readJson<WindowsDocument>(ctx, `/api/windows?axis=${axis}`);
  return read.ok ? windowsSection(read.value) : unread('The contamination-window document', read.reason);
}
