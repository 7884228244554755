/**
 * The dashboard's *measured* tab: every row of the served board (`GET /api/gspc`, the same
 * bytes), as a forest plot of each model-comparison axis's leader accuracy with its Wilson
 * interval and three tables. A TIE is never drawn as a win; rows without a result are listed
 * with their n, never hidden.
 */
import { html, type SafeHtml } from './html.js';
import type { PageContext } from './page-context.js';
import {
  MARK_COLOURS,
  type ForestRow,
  type MeasuredIsland,
  type NoResultRow,
  type Separation,
} from './dashboard-islands.js';
import { numCell, pctCell, plotFigure, pValue, stateSpan, textCell } from './dashboard-format.js';
import { breakable, cardTable, type Column } from './card-table.js';
import { axisPagePath } from './axis-path.js';

interface SideEvidence {
  model: string;
  k: number;
  n: number;
  accuracy: number;
  interval: [number, number];
  unparsed: number;
}

/** The board row fields this tab reads (docs/formats.md §4; the specification's axis row). */
export interface BoardRow {
  axis: string;
  family: string;
  kind: 'model-comparison' | 'deterministic-facts';
  title?: string;
  status: string;
  n: number;
  bench?: string;
  dataset?: string;
  leader?: string;
  accuracy?: number;
  interval?: [number, number];
  separation?: Separation;
  separation_p?: number;
  separation_basis?: string;
  separation_evidence?: {
    leader: SideEvidence;
    next_best?: SideEvidence;
    paired_items: number;
    b: number;
    c: number;
    p: number;
    log10_p?: number;
  };
  public_leader_state?: string;
  leader_card_state?: string;
  bank_state?: string;
  unparsed_rate?: number;
  quotable: boolean;
  evidence_url?: string;
  facts_checked?: number;
  facts_held?: number;
  facts_failed?: string[];
}

export interface Board {
  schema: string;
  measured_on: { date?: string; peritem_sha256?: string; living_stamp?: { verification_state?: string } };
  totals: { public_count: string; separation_public_count: string; lid: string; axes: number; measured_axes: number };
  axes: BoardRow[];
}

/** The served board: the exact bytes of `GET /api/gspc`. */
export function servedBoard(ctx: PageContext): Board {
  return JSON.parse(ctx.state.current().boards.get('')!.body.toString('utf8')) as Board;
}

const isComparison = (r: BoardRow) => r.kind === 'model-comparison';
const hasInterval = (
  r: BoardRow,
): r is BoardRow & { interval: [number, number]; accuracy: number; separation: Separation } =>
  isComparison(r) &&
  r.status === 'MEASURED' &&
  r.interval !== undefined &&
  r.accuracy !== undefined &&
  r.separation !== undefined;

/**
 * Why a model-comparison row has no interval: its status, or its bank state. A refused bank is
 * stated as the board states it, in the plot, the table and the board's own fields alike:
 * separation UNTESTED because the bank is refused (`UNTESTED · REFUSED_ONE_LABEL_MENU`).
 */
function noResultState(r: BoardRow): string {
  if (r.status !== 'MEASURED') return r.status;
  if (r.bank_state !== undefined) return refusedState(r);
  return r.public_leader_state ?? 'NO_INTERVAL';
}

/** `UNTESTED · REFUSED_ONE_LABEL_MENU`: the separation and the bank state, one statement. */
const refusedState = (r: BoardRow) => `${r.separation ?? 'UNTESTED'} · ${r.bank_state}`;

export function measuredIsland(board: Board): MeasuredIsland {
  const rows: ForestRow[] = [];
  const noResult: NoResultRow[] = [];
  for (const r of board.axes.filter(isComparison)) {
    if (!hasInterval(r)) {
      noResult.push({ axis: r.axis, n: r.n, state: noResultState(r) });
      continue;
    }
    const b = r.separation_evidence?.next_best;
    rows.push({
      axis: r.axis,
      n: r.n,
      separation: r.separation,
      leader: r.leader ?? null,
      leaderState: r.public_leader_state ?? null,
      accuracy: r.accuracy,
      lo: r.interval[0],
      hi: r.interval[1],
      basis: b ? { model: b.model, accuracy: b.accuracy, lo: b.interval[0], hi: b.interval[1] } : null,
    });
  }
  return { tab: 'measured', rows, noResult };
}

const symbol = (d: string, colour: string, filled: boolean) =>
  html`<svg class="dash-swatch" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">${
    {
      circle: html`<circle cx="8" cy="8" r="5" fill="${filled ? colour : '#fff'}" stroke="${colour}" stroke-width="2"/>`,
      diamond: html`<path d="M8 2 L14 8 L8 14 L2 8 Z" fill="#fff" stroke="${colour}" stroke-width="2"/>`,
      square: html`<rect x="3" y="3" width="10" height="10" fill="#fff" stroke="${colour}" stroke-width="2"/>`,
      rule: html`<line x1="1" y1="8" x2="15" y2="8" stroke="${colour}" stroke-width="2"/>`,
    }[d]
  }</svg>`;

const LEGEND = html`<ul class="dash-legend" aria-label="Legend">
<li data-legend="SEPARATED">${symbol('circle', MARK_COLOURS.SEPARATED, true)}<span><strong>SEPARATED</strong>, marked ▲: the leader beat the best base model (exact McNemar, p &lt; 0.05); the only filled mark</span></li>
<li data-legend="TIE">${symbol('diamond', MARK_COLOURS.TIE, false)}<span><strong>TIE</strong>: not separated from the best base model; <em>a tie is not a win</em> (hollow, no ▲)</span></li>
<li data-legend="UNTESTED">${symbol('square', MARK_COLOURS.UNTESTED, false)}<span><strong>UNTESTED</strong>: no paired test was possible; <em>not a tie</em> (hollow, no ▲)</span></li>
<li data-legend="no-public-leader">${symbol('circle', MARK_COLOURS.SEPARATED, false)}<span>State followed by <strong>*</strong> (hollow, no ▲): no public leader (an own model ranked first, or no signed card); the figures describe the best public model</span></li>
<li data-legend="basis">${symbol('rule', MARK_COLOURS.basis, false)}<span>Thin grey interval below a row: the best base model the leader was tested against</span></li>
</ul>`;

/** The axis cell: a model comparison links to its own page (every model, every pair), others to their board row. */
function axisCell(r: BoardRow): SafeHtml {
  const href = r.kind === 'model-comparison' ? axisPagePath(r.axis) : `/api/gspc?axis=${r.axis}`;
  return html`<th scope="row"><a href="${href}">${r.axis}</a><br><span class="note">${r.title ?? ''}</span></th>`;
}

const COMPARISON_COLUMNS: Column[] = [
  { label: 'Axis' },
  { label: 'Leader' },
  { label: 'Accuracy', num: true },
  { label: 'Interval low', num: true },
  { label: 'Interval high', num: true },
  { label: 'Separation' },
  { label: 'p', num: true },
  { label: 'n', num: true },
  { label: 'Basis (next best)' },
  { label: 'Basis accuracy', num: true },
  { label: 'Quotable' },
  { label: 'Notes' },
];

function comparisonTable(rows: BoardRow[]): SafeHtml {
  return cardTable(
    'dash-measured-comparisons',
    "Model-comparison axes, MEASURED: leader accuracy, Wilson 95% interval, separation and n (the plot's values); each axis links to its page of every model and pair",
    COMPARISON_COLUMNS,
    rows.map((r) => {
      const ev = r.separation_evidence;
      const win = r.separation === 'SEPARATED' && r.leader !== undefined;
      const notes = [
        r.public_leader_state,
        r.leader_card_state,
        r.separation === 'UNTESTED' ? r.separation_basis : undefined,
      ].filter((x): x is string => x !== undefined);
      return {
        attrs: html` data-axis="${r.axis}" data-separation="${r.separation ?? ''}" data-win="${win ? 'true' : 'false'}"`,
        cells: [
          axisCell(r),
          html`<td data-field="leader">${r.leader ? breakable(r.leader) : r.public_leader_state ? html`<span class="state">no public leader</span>` : '—'}</td>`,
          pctCell(r.accuracy),
          pctCell(r.interval?.[0]),
          pctCell(r.interval?.[1]),
          html`<td data-field="separation">${r.bank_state !== undefined ? html`${stateSpan(r.separation ?? 'UNTESTED')} · ${stateSpan(r.bank_state)}` : r.separation ? stateSpan(r.separation) : '—'}${win ? html` <span class="dash-win" aria-hidden="true">▲</span>` : ''}</td>`,
          numCell(r.separation_p, r.separation_p === undefined ? undefined : pValue(r.separation_p, ev?.log10_p)),
          numCell(r.n),
          textCell(ev?.next_best?.model),
          pctCell(ev?.next_best?.accuracy),
          html`<td>${r.quotable ? 'yes' : 'no'}</td>`,
          html`<td>${notes.map((n, i) => html`${i > 0 ? html`<br>` : ''}${/^[A-Z_]+$/.test(n) ? stateSpan(n) : n}`)}</td>`,
        ],
      };
    }),
  );
}

const FACTS_COLUMNS: Column[] = [
  { label: 'Axis' },
  { label: 'Family' },
  { label: 'n', num: true },
  { label: 'Facts checked', num: true },
  { label: 'Facts held', num: true },
  { label: 'Facts failed' },
  { label: 'Evidence' },
];

function factsTable(rows: BoardRow[]): SafeHtml {
  return cardTable(
    'dash-measured-facts',
    'Deterministic-facts axes, MEASURED: facts checked and held (no leader, accuracy or separation)',
    FACTS_COLUMNS,
    rows.map((r) => ({
      attrs: html` data-axis="${r.axis}"`,
      cells: [
        axisCell(r),
        textCell(r.family),
        numCell(r.n),
        numCell(r.facts_checked),
        numCell(r.facts_held),
        html`<td>${r.facts_failed && r.facts_failed.length > 0 ? r.facts_failed.join(', ') : 'none'}</td>`,
        html`<td>${r.evidence_url ? html`<a href="${r.evidence_url}">${breakable(r.evidence_url)}</a>` : '—'}</td>`,
      ],
    })),
  );
}

const NOT_MEASURED_COLUMNS: Column[] = [
  { label: 'Axis' },
  { label: 'Status' },
  { label: 'Kind' },
  { label: 'Family' },
  { label: 'n', num: true },
];

function notMeasuredTable(rows: BoardRow[]): SafeHtml {
  return cardTable(
    'dash-measured-unmeasured',
    'Axes not measured yet (UNMEASURED, DRAFT, SPEC, PLANNED): listed with their n, never hidden',
    NOT_MEASURED_COLUMNS,
    rows.map((r) => ({
      attrs: html` data-axis="${r.axis}" data-status="${r.status}"`,
      cells: [axisCell(r), html`<td>${stateSpan(r.status)}</td>`, textCell(r.kind), textCell(r.family), numCell(r.n)],
    })),
  );
}

export function measuredTab(ctx: PageContext): { body: SafeHtml; island: MeasuredIsland } {
  const board = servedBoard(ctx);
  const island = measuredIsland(board);
  const measured = board.axes.filter((r) => r.status === 'MEASURED');
  const body = html`<h2 id="measured-heading">Measured axes</h2>
<p class="note">Every value is read from the served board, <a href="/api/gspc">/api/gspc</a> (<code>${board.schema}</code>). A leader is the best public model by accuracy (own models removed); its Wilson 95% interval is drawn as a line. Measurement, not certification.</p>
<dl class="dash-facts" id="dash-totals">
<dt>Axes</dt><dd data-field="public_count">${board.totals.public_count}</dd>
<dt>Separation</dt><dd data-field="separation_public_count">${board.totals.separation_public_count}</dd>
</dl>
${plotFigure('plot-measured', `Forest plot: leader accuracy with its Wilson 95% interval for ${island.rows.length} model-comparison axes, marked by separation; ${island.noResult.length} model-comparison axes without a result are listed with their state and n.`, 'dash-measured-comparisons', LEGEND)}
${comparisonTable(measured.filter(isComparison))}
${factsTable(measured.filter((r) => r.kind === 'deterministic-facts'))}
${notMeasuredTable(board.axes.filter((r) => r.status !== 'MEASURED'))}`;
  return { body, island };
}
