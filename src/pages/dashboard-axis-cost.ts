/**
 * Accuracy against cost on an axis page (issue 40, item 4), from `GET /api/cost?axis=`: which
 * models are dominated (separated, Holm, on accuracy by a model that costs no more per item), the
 * models not separated from the leader named with their cost, and the cheapest of them, in
 * words; a plot of accuracy (Wilson interval) against cost per item (its interval), drawn by the
 * browser script from the island (browser/plots/cost.ts); and the same values in a table
 * (`data-value` the served numbers). Every figure is the document's: nothing is compared again
 * here. A model without a cost reads "no cost" with the reason, never 0, and is listed beside the
 * plot, never drawn; an axis where no model has a cost says so in one line (decision CV1).
 */
import type { CostDocument, CostModel, GroupEntry } from '../core/board/cost-document.js';
import type { CostFigure } from '../core/board/cost.js';
import { plural } from '../core/board/lead-sentence.js';
import { breakable, cardTable, type Column } from './card-table.js';
import { GROUP_NAMES } from './dashboard-axis-view.js';
import { pct, plotFigure } from './dashboard-format.js';
import type { AxisCostPoint } from './dashboard-islands.js';
import { html, type SafeHtml } from './html.js';
import { usd } from './usd.js';

/** Dominating models named in a table cell or a point's label; the document names them all. */
const BY_NAMES = 3;

const interval = (iv: [number, number] | null) => (iv ? ` (${usd(iv[0])} to ${usd(iv[1])})` : '');

/** "over 50 of 60 rows" where not every row carries both token counts. */
const coverage = (m: { rows: number; rows_with_tokens: number }) =>
  m.rows_with_tokens < m.rows ? ` over ${m.rows_with_tokens} of ${m.rows} rows` : '';

/** The plot's points: the plotted models that have a cost and an accuracy to place. */
export function costPoints(doc: CostDocument, plotted: readonly string[]): AxisCostPoint[] {
  const byModel = new Map(doc.models.map((m) => [m.model, m]));
  return plotted.flatMap((id) => {
    const m = byModel.get(id);
    if (!m || m.cost === null || m.accuracy === null || m.interval === null) return [];
    const iv = m.cost.per_item_interval;
    return [
      {
        model: m.model,
        own: m.own,
        rank: m.rank,
        accuracy: m.accuracy,
        lo: m.interval[0],
        hi: m.interval[1],
        cost: m.cost.per_item_usd,
        costLo: iv ? iv[0] : null,
        costHi: iv ? iv[1] : null,
        dominated: m.dominated,
        by: m.dominated_by.slice(0, BY_NAMES),
      },
    ];
  });
}

/** `a, b and 2 more have`: up to GROUP_NAMES models named, with the verb that agrees. */
function names(models: readonly string[], one: string, many: string): string {
  const named = models.slice(0, GROUP_NAMES);
  const list =
    models.length > named.length
      ? `${named.join(', ')} and ${models.length - named.length} more`
      : named.length > 1
        ? `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`
        : named[0]!;
  return `${list} ${models.length === 1 ? one : many}`;
}

/** `h/near, $0.002 per item (TIE)`: a member of the leader's group named with its cost. */
function member(g: GroupEntry): string {
  const cost = g.cost ? `${usd(g.cost.per_item_usd)} per item${coverage(g)}` : `no cost (${g.cost_reason ?? 'none'})`;
  const how =
    g.with_leader === 'UNTESTED'
      ? `; not compared with the leader (UNTESTED${g.untested_reason ? `: ${g.untested_reason}` : ''}), which is no evidence of a tie`
      : g.with_leader === 'TIE'
        ? ', TIE with the leader'
        : '';
  return `${g.model}, ${cost}${how}`;
}

/** The leader's group with each member's cost, and the cheapest of them (or why there is none). */
function groupWords(doc: CostDocument): SafeHtml {
  const [leader, ...others] = doc.leader_group;
  const named = others.slice(0, GROUP_NAMES);
  const rest = others.length - named.length;
  const group =
    leader === undefined
      ? ''
      : others.length === 0
        ? `Every other public model is separated from the leader (${member(leader)}).`
        : `Not separated from the leader (${member(leader)}): ${named.map(member).join('; ')}${rest > 0 ? `; and ${rest} more (leader_group in /api/cost)` : ''}.`;
  const c = doc.cheapest_not_separated;
  let cheapest: string;
  if (c === null) cheapest = `No cheapest model not separated from the leader: ${doc.cheapest_reason ?? 'none'}.`;
  else {
    const lead =
      c.group === 1
        ? `The cheapest model not separated from the leader is the leader itself, the only one: ${c.model},`
        : `The cheapest of the ${c.group} models not separated from the leader, by cost per item, among the leader and the models tested level with it whose cost covers every one of their rows: ${c.with_leader === 'leader' ? `the leader itself, ${c.model}` : c.model},`;
    cheapest = `${lead} ${usd(c.cost.per_item_usd)} per item${interval(c.cost.per_item_interval)}${coverage(c)}${c.cost.per_correct_usd === null ? '' : `, ${usd(c.cost.per_correct_usd)} per correct answer`}, accuracy ${c.accuracy === null ? '—' : pct(c.accuracy)}.`;
    if (c.without_cost.length > 0) cheapest += ` ${names(c.without_cost, 'has', 'have')} no cost and may be cheaper.`;
    if (c.partial_cost.length > 0)
      cheapest += ` ${names(c.partial_cost, 'has a cost over only part of its rows', 'have a cost over only part of their rows')}, which is not compared: ${c.partial_cost.length === 1 ? 'it' : 'any'} may be cheaper.`;
  }
  // Never chosen (decision CO11), but a reader looking for the cheapest must see them.
  if (doc.cheaper_untested.length > 0) {
    const byModel = new Map(doc.leader_group.map((g) => [g.model, g]));
    const priced = doc.cheaper_untested.slice(0, GROUP_NAMES).map((m) => {
      const g = byModel.get(m);
      return g?.cost ? `${m} (${usd(g.cost.per_item_usd)} per item)` : m;
    });
    const rest = doc.cheaper_untested.length - priced.length;
    cheapest += ` Cheaper${c === null ? ' models with a cost' : ''}, but never compared with the leader (UNTESTED, which is no evidence of a tie, so not named the cheapest): ${priced.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}.`;
  }
  return html`${group ? html`<p class="note" id="axis-cost-group" data-count="${String(others.length)}">${group}</p>` : ''}
<p class="callout" id="axis-cost-cheapest" data-model="${c?.model ?? ''}">${cheapest}</p>`;
}

const COLUMNS: Column[] = [
  { label: 'Model' },
  { label: 'Accuracy', num: true },
  { label: 'Price in / out (USD per million tokens)' },
  { label: 'Cost per item (95% interval)', num: true },
  { label: 'Cost per correct answer (95% interval)', num: true },
  { label: 'Dominated' },
];

function priceCell(m: CostModel): SafeHtml {
  if (m.price === null)
    return html`<td data-value="">no price <span class="note">(${m.price_reason ?? ''})</span></td>`;
  const p = m.price;
  return html`<td data-value="${JSON.stringify([p.input_usd_per_mtok, p.output_usd_per_mtok])}">$${String(p.input_usd_per_mtok)} / $${String(p.output_usd_per_mtok)} <span class="note">read ${p.read_on}${p.source ? html`, ${p.source}` : ''}${p.url ? html`, <a href="${p.url}" rel="noopener noreferrer nofollow">source</a>` : ''}</span></td>`;
}

function costCell(m: CostModel, f: CostFigure | null, perCorrect: boolean): SafeHtml {
  // The reason is said once, in the cost-per-item cell.
  if (f === null)
    return perCorrect
      ? html`<td class="num" data-value="">no cost</td>`
      : html`<td class="num" data-value="">no cost <span class="note">(${m.cost_reason ?? ''})</span></td>`;
  const value = perCorrect ? f.per_correct_usd : f.per_item_usd;
  if (value === null)
    return html`<td class="num" data-value="">— <span class="note">(no correct answer among the rows costed)</span></td>`;
  const iv = perCorrect ? f.per_correct_interval : f.per_item_interval;
  return html`<td class="num" data-value="${String(value)}">${usd(value)}${iv ? html` <span class="note">${interval(iv)}</span>` : ''}${coverage(m) ? html` <span class="note">${coverage(m)}</span>` : ''}</td>`;
}

function dominatedCell(m: CostModel): SafeHtml {
  if (m.dominated === null)
    return html`<td data-value="">not compared <span class="note">(${m.dominance_reason ?? ''})</span></td>`;
  if (!m.dominated) return html`<td data-value="false">not dominated</td>`;
  const by = m.dominated_by;
  const named = by.slice(0, BY_NAMES);
  return html`<td data-value="true"><strong>dominated</strong> by ${named.map((x, i) => html`${i > 0 ? ', ' : ''}${breakable(x)}`)}${by.length > named.length ? ` and ${by.length - named.length} more` : ''}</td>`;
}

/** The table, for `models` (the ids the page tables, in its order). */
function costTable(doc: CostDocument, models: readonly string[]): SafeHtml {
  const byModel = new Map(doc.models.map((m) => [m.model, m]));
  const rows = models.flatMap((id) => {
    const m = byModel.get(id);
    if (m === undefined) return [];
    return [
      {
        attrs: html` data-model="${m.model}" data-own="${String(m.own)}" data-dominated="${String(m.dominated)}"`,
        cells: [
          html`<th scope="row">${breakable(m.model)}${m.own ? html` <span class="state axis-own">own</span>` : ''}</th>`,
          html`<td class="num" data-value="${m.accuracy === null ? '' : String(m.accuracy)}">${m.accuracy === null ? '—' : pct(m.accuracy)}</td>`,
          priceCell(m),
          costCell(m, m.cost, false),
          costCell(m, m.cost, true),
          dominatedCell(m),
        ],
      },
    ];
  });
  return cardTable(
    'axis-cost',
    `What the models above cost on ${doc.axis}: the price that applies, cost per item and per correct answer in US dollars with 95% intervals, and whether a model separated above it on accuracy costs no more`,
    COLUMNS,
    rows,
  );
}

/** Why no model has a cost, in one line. */
function noCost(doc: CostDocument): string {
  if (doc.models.length === 0) return `The axis is ${doc.status}: no model is compared, so none has a cost.`;
  if (doc.prices === null)
    return 'No cost: this release has no price list (prices.json), so no model has a cost and no accuracy-against-cost view is drawn (a missing price is never a cost of 0).';
  return `No model of ${doc.axis} has a cost (${doc.priced} of ${doc.models.length} ${doc.priced === 1 ? 'has' : 'have'} a price that applies; a cost also needs rows that carry both token counts): nothing is drawn rather than a zero.`;
}

const legend = (points: readonly AxisCostPoint[]) => html`<ul class="dash-legend" aria-label="Cost plot legend">
<li><span><strong>Filled blue circle</strong>: not dominated.</span></li>
${points.some((p) => p.dominated) ? html`<li><span><strong>Red ×</strong>: dominated: a model separated above it on accuracy (Holm) costs no more per item.</span></li>` : ''}
${points.some((p) => p.dominated === null && !p.own) ? html`<li><span><strong>Hollow grey diamond</strong>: not compared (see the table for why).</span></li>` : ''}
${points.some((p) => p.own) ? html`<li><span><strong>own</strong>, a hollow grey square: this service's own model, never compared.</span></li>` : ''}
<li><span>Lines: the 95% intervals, accuracy (vertical) and cost per item (horizontal).</span></li>
</ul>`;

/**
 * The section: `tabled` the models the page's tables show, `plotted` those its plots show (at
 * scale, the first PLOT_MODELS by rank; dashboard-axis-view.ts).
 */
export function costSection(
  doc: CostDocument,
  tabled: readonly string[],
  plotted: readonly string[],
  points: readonly AxisCostPoint[],
): SafeHtml {
  const heading = html`<h2 id="axis-cost-heading">Accuracy against cost</h2>`;
  const source = html`<a href="/api/cost?axis=${doc.axis}">/api/cost?axis=${doc.axis}</a>`;
  if (doc.costed === 0) return html`${heading}<p class="note" id="axis-cost-none">${noCost(doc)} (${source})</p>`;
  const drawn = new Set(points.map((p) => p.model));
  const byModel = new Map(doc.models.map((m) => [m.model, m]));
  const beside = plotted.flatMap((id) => {
    const m = byModel.get(id);
    return m && !drawn.has(id) ? [m] : [];
  });
  const why = (m: CostModel) => (m.cost === null ? `no cost: ${m.cost_reason ?? ''}` : 'no accuracy to place');
  const besideNote =
    beside.length === 0
      ? ''
      : html`<p class="note" id="axis-cost-unplotted" data-count="${String(beside.length)}">Not in the plot: ${beside.slice(0, GROUP_NAMES).map((m, i) => html`${i > 0 ? '; ' : ''}${breakable(m.model)} (${why(m)})`)}${beside.length > GROUP_NAMES ? `; and ${beside.length - GROUP_NAMES} more` : ''}.</p>`;
  return html`${heading}
<p class="note">Cost is the operator's dated price list times each response's token counts, in US dollars, never invented: read from ${source} (<code>${doc.schema}</code>), prices as of ${doc.as_of.slice(0, 10)}; the formulas: <a href="/methodology#11-cost-get-apicostaxisslug">methodology §11</a>. A model is <strong>dominated</strong> when another public model is separated from it on accuracy (Holm, the pairs below), is the better, and costs no more per item; only a cost over every row of its model is compared (models may answer different items). ${doc.costed} of ${plural(doc.models.length, 'model')} ${doc.costed === 1 ? 'has' : 'have'} a cost, ${doc.dominated} ${doc.dominated === 1 ? 'is' : 'are'} dominated.</p>
${groupWords(doc)}
${
  points.length > 0
    ? plotFigure(
        'plot-axis-cost',
        `Accuracy (Wilson 95% interval) against cost per item in US dollars (95% interval) for ${points.length === 1 ? '1 model' : `${points.length} models`} of ${doc.axis} with a cost; dominated models marked, own models marked.`,
        'axis-cost',
        legend(points),
      )
    : html`<p class="note" id="axis-cost-noplot">No plot: no model shown here has both a cost and an accuracy to place.</p>`
}
${besideNote}
${costTable(doc, tabled)}`;
}
