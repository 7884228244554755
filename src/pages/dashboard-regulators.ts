/**
 * The dashboard's *regulators* tab: the regulation deadlines of `GET /api/regulation` (version,
 * verification pin, re-verification state, each deadline with `days_until` and `in_force`, drawn
 * as a timeline) and the evidence-bundle obligations: for each, the axes it cites and the signed
 * cards the free preview (`GET /api/evidence-bundle?obligation=<id>`) lists. Relevant evidence,
 * never a conformity determination.
 */
import { breakable, cardTable, type CardRow, type Column } from './card-table.js';
import { html, type SafeHtml } from './html.js';
import type { PageContext } from './page-context.js';
import { MARK_COLOURS, type RegulatorsIsland } from './dashboard-islands.js';
import { bundlePreviewBody } from '../serve/products.js';
import { numCell, plotFigure, readJson, stateSpan, textCell, unread, type Read } from './dashboard-format.js';
import { servedBoard } from './dashboard-measured.js';

interface Deadline {
  id: string;
  instrument: string;
  provision: string;
  obligation: string;
  applies_from: string;
  source: { citation: string; url: string };
  verified_as_of: string;
  status: string;
  days_until: number;
  in_force: boolean;
}

export interface RegulationFeed {
  schema: string;
  observed_at: string;
  version: string | null;
  verified_as_of: string | null;
  reverification: { policy: string; period_days: number; due_by: string; state: string; days_overdue?: number } | null;
  deadlines: Deadline[] | null;
  counts: { deadlines: number; in_force: number; upcoming: number } | Record<string, never>;
  reason?: string;
}

interface Obligation {
  id: string;
  control_id: string;
  title: string;
  obligation: string;
  regulator: string;
  counsel_confirmed: boolean;
  honesty: string;
  axes: string[];
}
interface Preview {
  relevant_signed_cards: number;
  cards: { sha256: string; surface: string; subject: string; url: string }[];
  relation: string;
}

function feedBlock(feed: RegulationFeed): SafeHtml {
  const rv = feed.reverification;
  return html`<dl class="dash-facts" id="dash-regulation-pin">
<dt>Feed version</dt><dd data-field="version">${feed.version ?? '—'}</dd>
<dt>Verified as of</dt><dd data-field="verified_as_of">${feed.verified_as_of ?? '—'}</dd>
<dt>Re-verification</dt><dd data-field="reverification">${rv ? html`${stateSpan(rv.state)}, due by <span data-field="due_by">${rv.due_by}</span> (every ${rv.period_days} days)${rv.days_overdue !== undefined ? html`, <span data-field="days_overdue">${rv.days_overdue}</span> days overdue` : ''}` : '—'}</dd>
<dt>Observed at</dt><dd data-field="observed_at">${feed.observed_at}</dd>
</dl>`;
}

const DEADLINE_COLUMNS: Column[] = [
  { label: 'Deadline' },
  { label: 'Instrument and provision' },
  { label: 'Obligation' },
  { label: 'Applies from' },
  { label: 'Days until', num: true },
  { label: 'In force' },
  { label: 'Status' },
  { label: 'Verified as of' },
  { label: 'Source' },
];

function deadlinesTable(deadlines: Deadline[]): SafeHtml {
  return cardTable(
    'dash-regulation-deadlines',
    "Regulation deadlines, by date of application (days counted to the feed's observed_at; negative: already applies)",
    DEADLINE_COLUMNS,
    deadlines.map((d) => ({
      attrs: html` data-id="${d.id}"`,
      cells: [
        html`<th scope="row">${breakable(d.id)}</th>`,
        html`<td>${d.instrument}<br><span class="note">${d.provision}</span></td>`,
        textCell(d.obligation),
        html`<td data-field="applies_from">${d.applies_from}</td>`,
        numCell(d.days_until),
        html`<td data-field="in_force">${d.in_force ? 'yes' : 'no'}</td>`,
        html`<td>${stateSpan(d.status)}</td>`,
        textCell(d.verified_as_of),
        html`<td><a href="${d.source.url}" rel="external noreferrer">${d.source.citation}</a></td>`,
      ],
    })),
  );
}

const LEGEND = html`<ul class="dash-legend" aria-label="Legend">
<li><svg class="dash-swatch" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><circle cx="8" cy="8" r="5" fill="${MARK_COLOURS.inForce}"/></svg> in force (applies from a date before the feed's observed_at)</li>
<li><svg class="dash-swatch" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><circle cx="8" cy="8" r="5" fill="#fff" stroke="${MARK_COLOURS.upcoming}" stroke-width="2"/></svg> upcoming</li>
<li><svg class="dash-swatch" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><line x1="8" y1="1" x2="8" y2="15" stroke="#1a1a1a" stroke-width="2" stroke-dasharray="3 2"/></svg> the feed's observed_at (the server's clock)</li>
</ul>`;

/** The preview's cards grouped by the axis each card is on (facts cards name their axis as subject). */
function cardsByAxis(cards: Preview['cards'], axisOf: (sha256: string) => string | undefined): SafeHtml {
  if (cards.length === 0) return html`none`;
  const by = new Map<string, Preview['cards']>();
  for (const c of cards) {
    const axis = axisOf(c.sha256) ?? 'axis not in this release';
    by.set(axis, [...(by.get(axis) ?? []), c]);
  }
  return html`<ul class="dash-cards">${[...by].map(([axis, cs]) => html`<li><strong>${axis}</strong> (${cs.length}): ${cs.map((c, i) => html`${i > 0 ? ', ' : ''}<a href="${c.url}" title="${c.surface}">${c.subject}</a>`)}</li>`)}</ul>`;
}

/** The evidence bundle's free preview of an obligation, from the products' own function (no HTTP round trip). */
function previewOf(ctx: PageContext, obligation: string): Read<Preview> {
  // Without metered products the preview route is not served: said as its 404 would be.
  if (!ctx.products)
    return {
      ok: false,
      reason: `GET /api/evidence-bundle?obligation=${encodeURIComponent(obligation)} answered HTTP 404`,
    };
  return { ok: true, value: bundlePreviewBody(ctx, { obligation }) as unknown as Preview };
}

const OBLIGATION_COLUMNS: Column[] = [
  { label: 'Obligation' },
  { label: 'Title and regulator' },
  { label: 'Axes cited (board status)' },
  { label: 'Signed cards', num: true },
  { label: 'Cards' },
  { label: 'Counsel confirmed' },
];

async function obligationsBlock(ctx: PageContext): Promise<SafeHtml> {
  const listed = await readJson<Obligation[]>(ctx, '/peritem/obligations.json');
  if (!listed.ok)
    return html`<p class="note" id="dash-no-obligations">This release offers no evidence-bundle obligation (${listed.reason}).</p>`;
  const status = new Map(servedBoard(ctx).axes.map((r) => [r.axis, r.status]));
  const current = ctx.state.current();
  const rows: CardRow[] = [];
  let previewsRead = 0;
  for (const o of listed.value) {
    const p = previewOf(ctx, o.id);
    if (p.ok) previewsRead++;
    rows.push({
      attrs: html` data-id="${o.id}"`,
      cells: [
        html`<th scope="row">${breakable(o.id)}<br><span class="note">${o.control_id}</span></th>`,
        html`<td>${o.title}<br><span class="note">${o.regulator}</span></td>`,
        html`<td data-field="axes">${o.axes.map((a, i) => html`${i > 0 ? ', ' : ''}<a href="/api/gspc?axis=${a}">${a}</a> (${status.get(a) ?? 'not on the board'})`)}</td>`,
        p.ok ? numCell(p.value.relevant_signed_cards) : html`<td class="num" data-value="">not read</td>`,
        html`<td data-field="cards">${p.ok ? cardsByAxis(p.value.cards, (sha) => current.cardById(sha)?.axis) : p.reason}</td>`,
        html`<td>${o.counsel_confirmed ? 'yes' : 'no'}<br><span class="note">${o.honesty}</span></td>`,
      ],
    });
  }
  return html`<p class="note">What each obligation cites: the axes its evidence bundle draws on and the signed cards on them, from the free preview <code>/api/evidence-bundle?obligation=&lt;id&gt;</code>. Measurements relevant to an obligation, <strong>never a determination that it is met</strong>.</p>
${previewsRead < listed.value.length ? html`<p class="note">The free preview is not served by this instance (no metered products), so the cards column says why it was not read; the axes are those of <a href="/peritem/obligations.json">/peritem/obligations.json</a>.</p>` : ''}
${cardTable(
  'dash-obligations',
  'Evidence-bundle obligations: the axes and signed cards each cites (relevant evidence, not a conformity determination)',
  OBLIGATION_COLUMNS,
  rows,
)}`;
}

export async function regulatorsTab(ctx: PageContext): Promise<{ body: SafeHtml; island: RegulatorsIsland | null }> {
  const feed = await readJson<RegulationFeed>(ctx, '/api/regulation');
  let deadlines: SafeHtml;
  let island: RegulatorsIsland | null = null;
  if (!feed.ok) deadlines = unread('The regulation feed', feed.reason);
  else if (feed.value.deadlines === null)
    deadlines = html`${feedBlock(feed.value)}<p class="note" id="dash-no-feed">${feed.value.reason ?? 'No regulation feed is published.'}</p>`;
  else {
    const f = feed.value;
    const ds = f.deadlines!;
    island = {
      tab: 'regulators',
      observed_at: f.observed_at,
      deadlines: ds.map((d) => ({
        id: d.id,
        applies_from: d.applies_from,
        days_until: d.days_until,
        in_force: d.in_force,
      })),
    };
    const c = f.counts as { deadlines: number; in_force: number; upcoming: number };
    deadlines = html`${feedBlock(f)}
<p id="dash-regulation-counts"><span data-field="deadlines">${c.deadlines}</span> deadlines: <span data-field="in_force">${c.in_force}</span> in force, <span data-field="upcoming">${c.upcoming}</span> upcoming. Sources are citations, never fetched by the service.</p>
${plotFigure('plot-regulators', `Timeline of ${ds.length} regulation deadlines by date of application, with the feed's observed_at marked.`, 'dash-regulation-deadlines', LEGEND)}
${deadlinesTable(ds)}`;
  }
  const body = html`<h2 id="regulators-heading">Regulation deadlines</h2>
<p class="note">Read from <a href="/api/regulation">/api/regulation</a>: a version-pinned feed of deadlines, re-verified on a stated policy.</p>
${deadlines}
<h2 id="obligations-heading">Evidence-bundle obligations</h2>
${await obligationsBlock(ctx)}`;
  return { body, island };
}
