/**
 * `GET /dashboard/axes/<slug>` (issue 29): one model-comparison axis, every model and every pair,
 * from the served `/api/models?axis=<slug>` document and the board's row. A forest plot of every
 * model's Wilson interval with its tie-group letters, the pairwise matrix as a heat map of
 * `p_holm` with SEPARATED cells marked, the leader's lead in one sentence, and the same values in
 * two tables (readable without JavaScript). An axis the board has no model comparison for is a
 * 404 HTML page listing those it has. The dashboard's model filter (issue 40, model-filter.ts) may
 * come along in the query: it hides the models it leaves out, never changes a figure.
 */
import type { FastifyInstance } from 'fastify';
import { lead, likeForLikeWords } from '../core/board/lead-sentence.js';
import type { CostDocument } from '../core/board/cost-document.js';
import type { UsageDocument } from '../core/board/usage.js';
import { MAX_TIE_GROUPS, type ModelEntry, type ModelsDocument, type PairEntry } from '../core/board/models-document.js';
import { groupsText } from '../core/stats/letters.js';
import { GspcError } from '../core/errors.js';
import { readQuery } from '../serve/query.js';
import { type AxisCards, axisCards, type CardsDocument } from './axis-model-cards.js';
import { axisPagePath, itemsPagePath } from './axis-path.js';
import { costPoints, costSection } from './dashboard-axis-cost.js';
import { modelsTable, pairsTable } from './dashboard-axis-tables.js';
import { usageSection } from './dashboard-axis-usage.js';
import { axisWindows } from './dashboard-axis-windows.js';
import { axisSlices } from './dashboard-axis-slices.js';
import { type AxisView, axisView, GROUP_NAMES, PLOT_MODELS, TABLE_MODELS } from './dashboard-axis-view.js';
import { type AxisIsland, ISLAND_ID } from './dashboard-islands.js';
import { plotFigure, readJson, stateSpan, unread } from './dashboard-format.js';
import { servedBoard, type BoardRow } from './dashboard-measured.js';
import { html, jsonIsland, type SafeHtml } from './html.js';
import { page, PAGE_HEADERS } from './layout.js';
import {
  FILTER_KEYS,
  filterOut,
  filterWords,
  isFiltered,
  type ModelFilter,
  readModelFilter,
  withFilter,
} from './model-filter.js';
import type { PageContext } from './page-context.js';

export function axisIsland(doc: ModelsDocument, view: AxisView = axisView(doc)): AxisIsland {
  // A refused bank has no result to place on a plot, and every pair is UNTESTED for one reason.
  if (doc.bank_state) return { tab: 'axis', axis: doc.axis, models: [], noParsed: [], cells: [] };
  return {
    tab: 'axis',
    axis: doc.axis,
    models: view.plotted.flatMap((m) =>
      m.accuracy === null || m.interval === null
        ? []
        : [
            {
              model: m.model,
              own: m.own,
              rank: m.rank,
              letters: groupsText(m.tie_groups, doc.groups),
              accuracy: m.accuracy,
              lo: m.interval[0],
              hi: m.interval[1],
            },
          ],
    ),
    noParsed: view.plotted.filter((m) => m.accuracy === null).map((m) => ({ model: m.model, rows: m.rows })),
    cells: view.pairs.map((p) => ({
      first: p.first,
      second: p.second,
      state: p.state,
      own: p.own,
      p: p.p ?? null,
      p_holm: p.p_holm ?? null,
    })),
  };
}

/** The lead of the board's leader over its basis, in words; or why there is none. */
function leadParagraph(doc: ModelsDocument, row: BoardRow): SafeHtml {
  const ev = row.separation_evidence;
  const l = ev?.next_best ? lead(doc, ev.leader.model, ev.next_best.model, row) : undefined;
  if (l)
    return html`<p class="callout" id="axis-lead" data-field="lead">${l.sentence}</p>
${l.reconcile ? html`<p class="callout" id="axis-lead-reconcile" data-field="lead-reconcile">${l.reconcile}</p>` : ''}
${l.settings ? html`<p class="note" id="axis-lead-settings" data-field="lead-settings">${l.settings}</p>` : ''}
<p class="note">The board tests its leader against the best base model alone (${stateSpan(row.separation ?? 'UNTESTED')}, p from the exact McNemar test); the matrix below tests every pair of public models and adjusts for their number (Holm).</p>`;
  const why =
    row.separation === 'UNTESTED'
      ? `the board could not test its leader (${row.separation_basis ?? 'no basis'})`
      : `the board has no leader with a basis on this axis (${row.status})`;
  return html`<p class="callout" id="axis-lead" data-field="lead">No lead to state: ${why}.</p>`;
}

/** The forest plot's legend: the own-model line only when the axis has an own model. */
function legend(doc: ModelsDocument): SafeHtml {
  return html`<ul class="dash-legend" aria-label="Legend">
<li><span><strong>Letters</strong> beside a model: its tie groups. Two public models share a letter exactly when they are not separated (exact McNemar, Holm-adjusted p &lt; 0.05 separates).</span></li>
${doc.models.some((m) => m.own) ? html`<li><span><strong>own</strong>, a hollow square: this service's own model, shown for honesty; never ranked, never in a tie group, never in the Holm family.</span></li>` : ''}
</ul>`;
}

/** At most this many distinct reasons are named in the matrix legend (the table gives each pair's). */
const LEGEND_REASONS = 4;

/** Why the matrix's UNTESTED cells are untested: the pairs' own reasons, most frequent first. */
function untestedReasons(pairs: readonly PairEntry[]): SafeHtml {
  const count = new Map<string, number>();
  for (const p of pairs) if (p.state === 'UNTESTED') count.set(p.reason ?? '', (count.get(p.reason ?? '') ?? 0) + 1);
  const reasons = [...count].sort((x, y) => y[1] - x[1]);
  const named = reasons
    .slice(0, LEGEND_REASONS)
    .map(([r, k]) => `${r}${reasons.length > 1 ? ` (${k} ${k === 1 ? 'pair' : 'pairs'})` : ''}`);
  const rest = reasons.length - named.length;
  return html`${named.join('; ')}${rest > 0 ? `; ${rest} other reasons, each given in the pairs table` : ''}`;
}

/** The matrix's legend: a line for UNTESTED and own pairs only when the cells shown have them. */
function matrixLegend(pairs: readonly PairEntry[]): SafeHtml {
  const untested = pairs.some((p) => p.state === 'UNTESTED');
  const own = pairs.some((p) => p.own);
  return html`<ul class="dash-legend" aria-label="Matrix legend">
<li><span>Each cell is shaded by its Holm-adjusted p, darker for smaller, and shows it when the cell is large enough; <strong>S</strong>: the pair is SEPARATED (p_holm &lt; 0.05). Where the axis has per-item rows a cell opens the items that differ, as each row of the pairs table does.</span></li>
${untested ? html`<li><span><strong>U</strong>: UNTESTED: ${untestedReasons(pairs)}.</span></li>` : ''}
${own ? html`<li><span><strong>own</strong>, grey: a pair with an own model, its p unadjusted and outside the Holm family.</span></li>` : ''}
</ul>`;
}

/** With few clusters the clustered standard error is itself imprecise: said beside the table. */
function clusterNote(doc: ModelsDocument): SafeHtml {
  const counts = doc.models.flatMap((m) => (m.clusters === undefined ? [] : [m.clusters]));
  if (counts.length === 0) return html``;
  const fewest = Math.min(...counts);
  return html`<p class="note" id="axis-cluster-note">Clustered standard errors from ${fewest === Math.max(...counts) ? fewest : `${fewest} to ${Math.max(...counts)}`} clusters.${fewest < 30 ? ' With fewer than about 30 clusters the clustered standard error is itself imprecise (Cameron and Miller 2015): read it as a rough guide.' : ''}</p>`;
}

/** The models the data cannot tell apart from the leader, named up to GROUP_NAMES. */
function leaderGroup(doc: ModelsDocument): SafeHtml {
  const g = doc.leader_group;
  if (doc.bank_state || g.length === 0) return html``;
  const others = g.length - 1;
  const names = g.slice(1, GROUP_NAMES + 1);
  const rest = others - names.length;
  const untested = new Set(doc.leader_untested);
  const tied = others - untested.size;
  // A pair with the leader that could not be tested is said as such, never as a tie (review of issue 39).
  const name = (m: string) => (untested.has(m) ? `${m} (UNTESTED)` : m);
  return html`<p class="note" id="axis-leader-group" data-count="${String(others)}" data-untested="${String(untested.size)}">${
    others === 0
      ? `Every other public model is separated from the leader (${g[0]}).`
      : `Not separated from the leader (${g[0]}): ${others === 1 ? '1 model' : `${others} models`}, ${names.map(name).join(', ')}${rest > 0 ? `, and ${rest} more (leader_group in the document)` : ''}.${untested.size > 0 ? ` Of these, ${tied === 0 ? 'none was' : `${tied} ${tied === 1 ? 'was' : 'were'}`} tested and found a TIE; ${untested.size === 1 ? 'the pair of 1 model' : `the pairs of ${untested.size} models`} with the leader could not be tested (UNTESTED: see the pairs), which is no evidence of a tie.` : ''}`
  }</p>`;
}

/** What the page leaves out past PLOT_MODELS models, and where the rest is. */
function cutNote(doc: ModelsDocument, view: AxisView, id: string, what: string): SafeHtml {
  if (!view.cut) return html``;
  return html`<p class="note" id="${id}">${what} Every model and every pair (${doc.models.length.toLocaleString('en')} models, ${doc.pairs.length.toLocaleString('en')} pairs) are in <a href="/api/models?axis=${doc.axis}">/api/models?axis=${doc.axis}</a>.</p>`;
}

function axisBody(
  row: BoardRow,
  doc: ModelsDocument,
  island: AxisIsland,
  view: AxisView,
  filter: ModelFilter = {},
  usage?: UsageDocument,
  extra: AxisExtra = {},
): SafeHtml {
  const plotted = island.models.length;
  const firstN = `the first ${PLOT_MODELS} models by rank`;
  return html`${filterNote(doc, view, filter)}<p class="note"><a href="${isFiltered(filter) ? withFilter('/dashboard?tab=models', filter) : '/dashboard'}">← Dashboard</a> · every value is read from <a href="/api/models?axis=${doc.axis}">/api/models?axis=${doc.axis}</a> (<code>${doc.schema}</code>) and the board's row <a href="/api/gspc?axis=${doc.axis}">/api/gspc?axis=${doc.axis}</a>. The formulas, with a worked example: <a href="/methodology#9-every-model-every-pair-get-apimodelsaxisslug">methodology §9</a>.</p>
<dl class="dash-facts" id="axis-facts">
<dt>Status</dt><dd>${stateSpan(doc.status)}${doc.bank_state ? html` · ${stateSpan(doc.bank_state)}` : ''}</dd>
<dt>n</dt><dd data-field="n">${doc.n}</dd>
<dt>Models</dt><dd data-field="models">${doc.models.length}</dd>
<dt>Board leader</dt><dd data-field="leader">${row.leader ?? (row.public_leader_state ? `no public leader (${row.public_leader_state})` : '—')}</dd>
<dt>Board separation</dt><dd>${row.separation ? stateSpan(row.separation) : '—'}</dd>
<dt>Public pairs tested (m)</dt><dd data-field="m">${doc.m}</dd>
<dt>Tie groups</dt><dd data-field="groups">${doc.groups ?? (doc.models.some((m) => m.not_separated !== null) ? `none given: more than ${MAX_TIE_GROUPS}` : 'none given')}</dd>
${doc.untested_pairs > 0 ? html`<dt>Public pairs UNTESTED</dt><dd data-field="untested_pairs">${doc.untested_pairs}</dd>` : ''}
</dl>
${doc.bank_state ? html`<p class="callout" id="axis-refused" data-field="bank_reason">${doc.bank_state}: ${doc.bank_reason ?? ''}.</p>` : ''}
${leadParagraph(doc, row)}
${leaderGroup(doc)}
${likeForLikeWords(doc) ? html`<p class="note" id="axis-like-for-like" data-field="like-for-like">${likeForLikeWords(doc)}</p>` : ''}
${doc.groups_reason ? html`<p class="note" id="axis-groups-reason">No tie-group letters: ${doc.groups_reason}.${doc.models.some((m) => m.not_separated !== null) ? ' The models table\'s "Not separated from" column gives them for each model.' : ''}</p>` : ''}
<h2 id="axis-models-heading">Every model</h2>
${cutNote(doc, view, 'axis-models-cut', `Of ${doc.models.length.toLocaleString('en')} models, the plot shows ${firstN} and the table the first ${TABLE_MODELS}${view.tabled.length > TABLE_MODELS ? ' and every own model' : ''}.`)}
${
  doc.bank_state
    ? html`<p class="note">No plot: a refused bank has no result to place (${doc.bank_state}); the table lists each model's counts.</p>`
    : plotted > 0
      ? plotFigure(
          'plot-axis-models',
          `Forest plot: accuracy with its Wilson 95% interval for ${plotted === 1 ? '1 model' : `${plotted} models`} of ${doc.axis}${view.cut ? ` (${firstN})` : ''}, ranked, tie-group letters beside each; own models marked.${island.noParsed.length > 0 ? ` ${island.noParsed.length === 1 ? '1 model with no parsed response is' : `${island.noParsed.length} models with no parsed response are`} listed without an interval.` : ''}`,
          'axis-models',
          legend(doc),
        )
      : html`<p class="note">No model has a parsed response on this axis: nothing to plot.</p>`
}
${modelsTable(doc, view.tabled, extra.cards?.line)}
${extra.cards?.note ?? ''}
${clusterNote(doc)}
${
  usage
    ? usageSection(
        usage,
        view.tabled.map((m) => m.model),
      )
    : ''
}
${
  extra.cost
    ? costSection(
        extra.cost,
        view.tabled.map((m) => m.model),
        view.plotted.map((m) => m.model),
        island.cost ?? [],
      )
    : extra.costUnread
      ? unread('The cost document', extra.costUnread)
      : ''
}
<h2 id="axis-pairs-heading">Every pair</h2>
${cutNote(doc, view, 'axis-pairs-cut', `The heat map and the table show the ${view.pairs.length.toLocaleString('en')} pairs among ${firstN}.`)}
${
  doc.bank_state
    ? refusedPairs(doc)
    : island.cells.length > 0
      ? plotFigure(
          'plot-axis-pairs',
          `Heat map of the Holm-adjusted p of every pair of ${view.cut ? firstN : `${doc.axis}'s models`}; SEPARATED cells marked S.`,
          'axis-pairs',
          matrixLegend(view.pairs),
        )
      : html`<p class="note">Fewer than two models: no pair to test.</p>`
}
${doc.bank_state ? '' : pairsTable(doc, view.pairs, extra.itemsHref)}`;
}

/** A refused bank's pairs: every one UNTESTED for the one reason, said once instead of per pair. */
function refusedPairs(doc: ModelsDocument): SafeHtml {
  const k = doc.pairs.length;
  return html`<p class="note" id="axis-pairs-refused">${k === 1 ? 'The one pair is' : `All ${k} pairs are`} UNTESTED: ${doc.pairs[0]?.reason ?? 'refused'} (${doc.bank_state}). They are listed in <a href="/api/models?axis=${doc.axis}">/api/models?axis=${doc.axis}</a>.</p>`;
}

/** Which models the model filter shows (issue 40), and that the figures are the whole axis's. */
function filterNote(doc: ModelsDocument, view: AxisView, filter: ModelFilter): SafeHtml {
  if (!isFiltered(filter)) return html``;
  return html`<p class="callout" id="axis-filtered" data-shown="${String(view.tabled.length)}">Filtered to models with ${filterWords(filter)}: ${view.tabled.length} of ${doc.models.length} shown. Ranks, tie groups, the leader's group and every separation are those of all ${doc.models.length} models; the filter only hides rows. <a href="${axisPagePath(doc.axis)}">Show every model</a>.</p>`;
}

/** What an axis page shows beside the every-model document (issue 40): cost and model cards. */
interface AxisExtra {
  cost?: CostDocument;
  /** Why /api/cost could not be read (said on the page, never silently left out). */
  costUnread?: string;
  cards?: AxisCards;
  /** The item explorer of a pair (issue 41 item 4), where the axis has per-item rows. */
  itemsHref?: (p: PairEntry) => string;
}

/** The axis's figures, tables and the island the plots read, all from one document. */
function axisSection(
  row: BoardRow,
  doc: ModelsDocument,
  filter: ModelFilter = {},
  keep?: (m: ModelEntry) => boolean,
  usage?: UsageDocument,
  extra: AxisExtra = {},
): SafeHtml {
  const view = axisView(doc, keep);
  const points = extra.cost
    ? costPoints(
        extra.cost,
        view.plotted.map((m) => m.model),
      )
    : [];
  const island: AxisIsland = { ...axisIsland(doc, view), ...(points.length > 0 && { cost: points }) };
  return html`${axisBody(row, doc, island, view, filter, usage, extra)}${jsonIsland(ISLAND_ID, island)}`;
}

function errorPage(message: string, known: string[]): string {
  return page({
    title: 'Axis not found',
    path: '/dashboard',
    description: 'The axis page could not be shown.',
    body: html`<h1>Axis not found</h1>
<p class="callout" id="dash-error">${message}</p>
<p>The model-comparison axes, each with its page of every model and pair:</p>
<ul id="axis-known">${known.map((a) => html`<li><a href="${axisPagePath(a)}"><code>${a}</code></a></li>`)}</ul>`,
  });
}

export function registerAxisPage(app: FastifyInstance, ctx: PageContext): void {
  app.get<{ Params: { axis: string } }>('/dashboard/axes/:axis', async (req, reply) => {
    const board = servedBoard(ctx);
    const comparisons = board.axes.filter((r) => r.kind === 'model-comparison');
    const row = comparisons.find((r) => r.axis === req.params.axis);
    const known = comparisons.map((r) => r.axis);
    let filter: ModelFilter;
    try {
      filter = readModelFilter(readQuery(req.url, FILTER_KEYS, FILTER_KEYS));
    } catch (e) {
      if (!(e instanceof GspcError)) throw e;
      const message = `${e.message}: an axis page takes only the model filter (open_weights, min_params, max_params, org).`;
      return reply.code(400).headers(PAGE_HEADERS).send(errorPage(message, known));
    }
    if (row === undefined) {
      const message = `The board has no model-comparison axis '${req.params.axis.slice(0, 80)}'.`;
      return reply.code(404).headers(PAGE_HEADERS).send(errorPage(message, known));
    }
    const read = await readJson<ModelsDocument>(ctx, `/api/models?axis=${row.axis}`);
    // The model cards, read once: the line under each model's name, and the filter's test.
    const cards = axisCards(await readJson<CardsDocument>(ctx, '/api/model-cards'));
    const keep = isFiltered(filter) ? (m: ModelEntry) => filterOut(filter, cards.card(m.model)) === null : undefined;
    const usage = await readJson<UsageDocument>(ctx, `/api/usage?axis=${row.axis}`);
    const cost = await readJson<CostDocument>(ctx, `/api/cost?axis=${row.axis}`);
    const windows = await axisWindows(ctx, row.axis, ctx.state.current().release.corpus.tables.has(row.axis));
    const slices = await axisSlices(ctx, row.axis);
    const body = read.ok
      ? axisSection(row, read.value, filter, keep, usage.ok ? usage.value : undefined, {
          cards,
          ...(cost.ok ? { cost: cost.value } : { costUnread: cost.reason }),
          ...(ctx.state.current().release.corpus.tables.has(row.axis) && {
            itemsHref: (p: PairEntry) => itemsPagePath(row.axis, { first: p.first, second: p.second }),
          }),
        })
      : unread('The every-model document', read.reason);
    return reply.headers(PAGE_HEADERS).send(
      page({
        title: `Axis ${row.axis}`,
        path: '/dashboard',
        description: `Every model and every pair of the ${row.axis} axis: intervals, tie groups, Holm-adjusted separations, the size of the lead.`,
        scripts: ['dashboard.js'],
        body: html`<h1>Axis <span class="dash-tabname">· ${row.axis}</span></h1>
${row.title ? html`<p class="axis-subtitle" id="axis-title">${row.title}</p>` : ''}
<p class="note" id="axis-slogan">Measurement, not certification; a TIE is not a win.</p>
<section class="dash-tab" id="tab-axis" data-tab="axis">
${body}
${windows}
${slices}
</section>`,
      }),
    );
  });
}
