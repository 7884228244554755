/**
 * Slices on an axis page (issue 41 item 2), from `GET /api/slices?axis=`: each tag with its
 * items, its leader, the models not separated from the leader, and whether it is too small to
 * separate anything, with a link to the slice's own document. Every state comes from the ONE
 * Holm family across the axis's slices (decision SL2), which the section says, so no row reads as
 * a separation found by looking at one slice alone. At most {@link SLICE_ROWS} rows, the slices
 * that can separate something first; the list has every slice. An axis whose rows carry no tags has no section (nothing to show, SL9). Every
 * operator string (tags, model ids) is escaped (html).
 */
import { plural } from '../core/board/lead-sentence.js';
import type { SliceSummary, SlicesDocument } from '../core/board/slices-document-shape.js';
import { breakable, cardTable, type Column } from './card-table.js';
import { readJson, unread } from './dashboard-format.js';
import { html, type SafeHtml } from './html.js';
import type { PageContext } from './page-context.js';
import { slicesTooLarge } from '../serve/documents/slices.js';

/** Slices in the table; the list (`/api/slices`) has every one. */
export const SLICE_ROWS = 50;
/** Models of a leader group named; the rest are counted. */
const NAMED = 4;

const COLUMNS: Column[] = [
  { label: 'Slice' },
  { label: 'Items', num: true },
  { label: 'Leader' },
  { label: 'Not separated from the leader' },
  { label: 'Too small' },
  { label: 'Document' },
];

function groupCell(s: SliceSummary, absent: number): SafeHtml {
  // Too small: nothing on the slice can be told apart, so no lead is claimed and no one is
  // "separated" (one model alone was compared with nothing: decision R1-1).
  if (s.leader === null || s.too_small) return html`<td data-value="">—</td>`;
  const others = s.leader_group.slice(1);
  if (others.length === 0)
    return html`<td data-value="0">none: every other model ranked on the slice is separated from it${absent > 0 ? ` (${plural(absent, 'model')} of the axis ${absent === 1 ? 'has' : 'have'} no parsed response on it: not compared)` : ''}</td>`;
  const untested = new Set(s.leader_untested);
  const named = others.slice(0, NAMED).map((m) => (untested.has(m) ? `${m} (UNTESTED)` : m));
  const rest = others.length - named.length;
  return html`<td data-value="${String(others.length)}">${named.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}${untested.size > 0 ? ` (UNTESTED: never compared with the leader, which is no evidence of a tie${rest > 0 ? `; ${plural(untested.size, 'model')} in all` : ''})` : ''}</td>`;
}

function row(s: SliceSummary) {
  const absent = s.n.filter((n) => n === 0).length;
  return {
    attrs: html` data-slice="${s.tag}"${s.too_small ? html` data-too-small=""` : ''}`,
    cells: [
      html`<th scope="row">${breakable(s.tag)}</th>`,
      html`<td class="num" data-value="${String(s.items)}">${s.items.toLocaleString('en')}</td>`,
      html`<td>${s.leader === null ? '—' : s.too_small ? 'none: too small' : breakable(s.leader)}</td>`,
      groupCell(s, absent),
      // A refused bank's slice is refused with it (not too small, SL4): said, not shown as "no" (R1-7).
      html`<td>${s.bank_state !== undefined ? `refused with the axis: ${s.bank_state}` : s.too_small ? `yes: ${s.too_small_reason ?? ''}` : 'no'}</td>`,
      html`<td><a href="${s.document}">document</a></td>`,
    ],
  };
}

export function slicesSection(doc: SlicesDocument): SafeHtml {
  const src = `/api/slices?axis=${doc.axis}`;
  // The slices that can separate something first, then the too-small ones, each in tag order:
  // at 1,000 tags most may be too small, and a cap in tag order alone would hide the few that
  // say anything behind rows that say nothing.
  const ordered = [...doc.slices.filter((s) => !s.too_small), ...doc.slices.filter((s) => s.too_small)];
  const shown = ordered.slice(0, SLICE_ROWS);
  const more = doc.slices.length - shown.length;
  const small = doc.slices.filter((s) => s.too_small).length;
  const smallHidden = ordered.slice(SLICE_ROWS).filter((s) => s.too_small).length;
  return html`<h2 id="axis-slices-heading">Slices</h2>
<p class="note" id="axis-slices-family" data-m="${String(doc.family.m)}">The axis restricted to the items carrying each tag. Every pair of every slice is adjusted in one Holm family across all ${plural(doc.family.slices, 'slice')} (m = ${doc.family.m.toLocaleString('en')}; ${plural(doc.family.excluded, 'test')} with fewer than 6 discordant items, which cannot reject, left out), so a slice shows no separation found by looking at it alone. The whole axis and its contamination windows are tested in families of their own: a claim taken from any of the three has up to three times the 0.05 chance of being false. ${small > 0 ? `${plural(small, 'slice')} ${small === 1 ? 'is' : 'are'} too small to separate anything. ` : ''}Read from <a href="${src}">${src}</a> (<code>${doc.schema}</code>); the rule: <a href="/methodology">methodology, "Slices"</a>.</p>
${cardTable('axis-slices', `${plural(doc.slices.length, 'slice')} of ${doc.axis}: leader and the models not separated from it on each`, COLUMNS, shown.map(row))}
${more > 0 ? html`<p class="note" id="axis-slices-more">${plural(more, 'more slice')} in <a href="${src}">the list</a>${smallHidden === more ? ', every one too small to separate anything' : smallHidden > 0 ? ` (${smallHidden.toLocaleString('en')} of them too small to separate anything)` : ''}.</p>` : ''}`;
}

/** The section of an axis page, read in-process: nothing for an axis without tags, unread when the list fails. */
export async function axisSlices(ctx: PageContext, axis: string): Promise<SafeHtml> {
  const table = ctx.state.current().release.corpus.tables.get(axis);
  if (table?.facets.tagged !== true) return html``;
  // Too large to build (R1-3): said in the list's own words, not as a bare HTTP status.
  const tooLarge = slicesTooLarge(table);
  if (tooLarge !== undefined) return unread('The slice list', `no slices are served for this axis: ${tooLarge.reason}`);
  const read = await readJson<SlicesDocument>(ctx, `/api/slices?axis=${axis}`);
  return read.ok ? slicesSection(read.value) : unread('The slice list', read.reason);
}
