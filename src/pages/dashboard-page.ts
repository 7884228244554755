/**
 * `GET /dashboard?tab=measured|models|regulators|provenance|compute` (specification, "Endpoints" and the
 * capability fabric's dashboard bindings; issue 7): a read-only presentation of the served board
 * and status documents. Each tab is server-rendered tables with captions (readable without
 * JavaScript) and one plot drawn by /assets/dashboard.js from a JSON island of the same values.
 * A query the page does not take is a 400 HTML page naming the tabs (docs/decisions.md D1).
 */
import type { FastifyInstance } from 'fastify';
import { GspcError } from '../core/errors.js';
import { readQuery } from '../serve/query.js';
import { html, jsonIsland, type SafeHtml } from './html.js';
import { page, PAGE_HEADERS } from './layout.js';
import type { PageContext } from './page-context.js';
import { DASHBOARD_TABS, ISLAND_ID, type DashboardIsland, type DashboardTab } from './dashboard-islands.js';
import { measuredTab } from './dashboard-measured.js';
import { regulatorsTab } from './dashboard-regulators.js';
import { provenanceTab } from './dashboard-provenance.js';
import { computeTab } from './dashboard-compute.js';
import { modelsTab } from './dashboard-models.js';
import { FILTER_KEYS, isFiltered, readModelFilter, type ModelFilter } from './model-filter.js';

const LABELS: Record<DashboardTab, string> = {
  measured: 'Measured',
  models: 'Models',
  regulators: 'Regulators',
  provenance: 'Provenance',
  compute: 'Compute',
};

const DESCRIPTIONS: Record<DashboardTab, string> = {
  measured: 'Leader accuracy with Wilson intervals and separation for every axis of the GSPC board.',
  models: 'Who each measured model is: organisation, open weights, licence, size, dates and revision, with a filter.',
  regulators: 'Regulation deadlines and the evidence-bundle obligations of the GSPC board.',
  provenance: 'The signed public root, its witnesses, the card matrix and the corrections ledger.',
  compute: 'The model-hub census (a listing, never a measurement) and the capability fabric rail states.',
};

const tabHref = (t: DashboardTab) => (t === 'measured' ? '/dashboard' : `/dashboard?tab=${t}`);

function tabNav(current: DashboardTab | null): SafeHtml {
  return html`<nav aria-label="Dashboard tabs"><ul class="tabs">${DASHBOARD_TABS.map((t) => html`<li><a href="${tabHref(t)}" data-tab="${t}"${t === current ? html` aria-current="page"` : ''}>${LABELS[t]}</a></li>`)}</ul></nav>`;
}

const isTab = (t: string): t is DashboardTab => (DASHBOARD_TABS as readonly string[]).includes(t);

async function render(
  tab: DashboardTab,
  ctx: PageContext,
  filter: ModelFilter,
): Promise<{ body: SafeHtml; island: DashboardIsland | null }> {
  switch (tab) {
    case 'measured':
      return measuredTab(ctx);
    case 'models':
      return modelsTab(ctx, filter);
    case 'regulators':
      return regulatorsTab(ctx);
    case 'provenance':
      return provenanceTab(ctx);
    case 'compute':
      return computeTab(ctx);
  }
}

function badQueryPage(message: string): string {
  return page({
    title: 'Bad dashboard query',
    path: '/dashboard',
    description: 'The dashboard query could not be read.',
    body: html`<h1>Bad dashboard query</h1>
<p class="callout" id="dash-error">${message}</p>
<p>The dashboard takes the query parameter <code>tab</code>, with one of these values (and, with <code>tab=models</code>, the model filter: <code>open_weights</code> yes, no or unknown, <code>min_params</code> and <code>max_params</code> such as 7B, and <code>org</code>):</p>
<ul id="dash-known-tabs">${DASHBOARD_TABS.map((t) => html`<li><a href="${tabHref(t)}"><code>${t}</code></a>${t === 'measured' ? ' (the default)' : ''}</li>`)}</ul>`,
  });
}

export function registerDashboardPage(app: FastifyInstance, ctx: PageContext): void {
  app.get('/dashboard', async (req, reply) => {
    let tab: DashboardTab;
    let filter: ModelFilter;
    try {
      const q = readQuery(req.url, ['tab', ...FILTER_KEYS], FILTER_KEYS);
      const t = q.get('tab') ?? 'measured';
      if (!isTab(t)) throw new GspcError('bad_query', `unknown dashboard tab '${t.slice(0, 50)}'`);
      tab = t;
      filter = readModelFilter(q);
      if (tab !== 'models' && isFiltered(filter))
        throw new GspcError('bad_query', 'the model filter is read on tab=models (and on the axis pages) only');
    } catch (e) {
      if (!(e instanceof GspcError)) throw e;
      return reply
        .code(400)
        .headers(PAGE_HEADERS)
        .send(badQueryPage(`${e.message}.`));
    }
    const { body, island } = await render(tab, ctx, filter);
    return reply.headers(PAGE_HEADERS).send(
      page({
        title: `Dashboard: ${LABELS[tab]}`,
        path: '/dashboard',
        description: DESCRIPTIONS[tab],
        scripts: ['dashboard.js'],
        body: html`<h1>Dashboard <span class="dash-tabname">· ${LABELS[tab]}</span></h1>
<p class="note">Read-only and presentation only: every number is read from the service's own documents when this page is built, never typed. Measurement, not certification; a TIE is not a win; an axis without a result is listed with its n.</p>
${tabNav(tab)}
<section class="dash-tab" id="tab-${tab}" data-tab="${tab}" aria-labelledby="${tab}-heading">
${body}
</section>
${island ? jsonIsland(ISLAND_ID, island) : ''}`,
      }),
    );
  });
}
