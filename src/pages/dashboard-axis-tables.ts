/**
 * The two tables of an axis page (issue 29): every model and every pair of `/api/models`, each
 * value in `data-value` exactly as served (an interval as its JSON `[low, high]`, tie groups as
 * their labels joined by commas, `not_separated` as its JSON ranges), rounded for reading. Cards on a phone (card-table.ts).
 */
import type { ModelEntry, ModelsDocument, PairEntry } from '../core/board/models-document.js';
import { groupsText, rangesText } from '../core/stats/letters.js';
import { breakable, cardTable, type Column } from './card-table.js';
import { numCell, pct, pctCell, pValue, stateSpan } from './dashboard-format.js';
import { html, type SafeHtml } from './html.js';

/** Percentage points with one decimal and a sign: `+2.3`. */
const points = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}`;

/** An interval cell: `data-value` is the served `[low, high]` as JSON. */
function intervalCell(iv: [number, number] | null | undefined, format: (x: number) => string): SafeHtml {
  if (!iv) return html`<td class="num" data-value="">—</td>`;
  return html`<td class="num" data-value="${JSON.stringify(iv)}">${format(iv[0])} to ${format(iv[1])}</td>`;
}

/**
 * The models table: `models` (all of the document's, or the rows an axis page keeps at scale);
 * `cardLine`, the model card's line under each name (axis-model-cards.ts).
 */
export function modelsTable(
  doc: ModelsDocument,
  models: readonly ModelEntry[] = doc.models,
  cardLine?: (model: string) => SafeHtml,
): SafeHtml {
  const clustered = doc.models.some((m) => m.se_clustered !== undefined);
  const columns: Column[] = [
    { label: 'Model' },
    { label: 'Rank', num: true },
    { label: 'Tie group' },
    { label: 'Not separated from (ranks)' },
    { label: 'Accuracy', num: true },
    { label: 'Wilson 95% interval', num: true },
    { label: 'k', num: true },
    { label: 'Parsed', num: true },
    { label: 'Unparsed', num: true },
    ...(clustered
      ? [
          { label: 'SE', num: true },
          { label: 'Clustered SE', num: true },
          { label: 'Clusters', num: true },
        ]
      : []),
  ];
  return cardTable(
    'axis-models',
    `${models.length < doc.models.length ? `The first ${models.length} of ${doc.models.length} models` : 'Every model'} of ${doc.axis}, in the board's ranking order: accuracy k / parsed with its Wilson 95% interval, tie-group letters and the ranks each is not separated from (public models only)${clustered ? ', standard errors with and without clustering' : ''}`,
    columns,
    models.map((m) => {
      const letters = groupsText(m.tie_groups, doc.groups);
      return {
        attrs: html` data-model="${m.model}" data-own="${String(m.own)}" data-rank="${m.rank === null ? '' : String(m.rank)}" data-letters="${letters}"`,
        cells: [
          html`<th scope="row">${breakable(m.model)}${m.own ? html` <span class="state axis-own">own</span>` : ''}${m.base ? html` <span class="note">base</span>` : ''}${cardLine?.(m.model) ?? ''}</th>`,
          numCell(m.rank),
          html`<td data-value="${(m.tie_groups ?? []).join(',')}"><strong class="axis-letters">${letters || '—'}</strong></td>`,
          html`<td data-value="${m.not_separated === null ? '' : JSON.stringify(m.not_separated)}">${rangesText(m.not_separated) || '—'}</td>`,
          pctCell(m.accuracy),
          intervalCell(m.interval, pct),
          numCell(m.k),
          numCell(m.parsed),
          numCell(m.unparsed),
          ...(clustered
            ? [
                numCell(m.se, m.se == null ? undefined : m.se.toFixed(4)),
                numCell(m.se_clustered, m.se_clustered == null ? undefined : m.se_clustered.toFixed(4)),
                numCell(m.clusters),
              ]
            : []),
        ],
      };
    }),
  );
}

const PAIR_COLUMNS: Column[] = [
  { label: 'Pair' },
  { label: 'State' },
  { label: 'Items both parsed', num: true },
  { label: 'b / c', num: true },
  { label: 'p', num: true },
  { label: 'p (Holm)', num: true },
  { label: 'Difference (points)', num: true },
  { label: '95% interval (Newcombe)', num: true },
  { label: 'MDD (points)', num: true },
  { label: 'Items to detect', num: true },
];

/** A power figure: its value, or — with the reason it is not given (the normal approximation fails). */
function reasonedCell(
  v: number | null | undefined,
  reason: string | undefined,
  format: (x: number) => string,
): SafeHtml {
  // Not a numeric cell when it holds a reason: a sentence must wrap.
  if (v === null || v === undefined)
    return reason ? html`<td data-value="">—<br><span class="note">${reason}</span></td>` : numCell(v);
  return numCell(v, format(v));
}

/** Run settings that cannot be compared (docs/methodology.md §12); a pair run unalike says so in its reason. */
function settingsNote(p: PairEntry): SafeHtml | '' {
  if (p.like_for_like !== null || p.settings_unknown === undefined) return '';
  const which = p.settings_unknown.length > 0 ? `${p.settings_unknown.join(', ')} for one only` : 'none for one';
  return html`<br><span class="note">run settings not comparable (${which})</span>`;
}

function pairState(p: PairEntry): SafeHtml {
  if (p.state === 'UNTESTED')
    return html`${stateSpan('UNTESTED')}<br><span class="note">${p.reason ?? ''}</span>${settingsNote(p)}`;
  const by = p.better ? html`<br><span class="note">${breakable(p.better)} better</span>` : '';
  return html`${stateSpan(p.state)}${p.own ? html` <span class="note">(own: unadjusted)</span>` : ''}${by}${settingsNote(p)}`;
}

/**
 * The pairs table: `pairs` (all of the document's, or those among the models a page plots);
 * `itemsHref`, where the axis has per-item rows, the item explorer of a pair (issue 41 item 4),
 * linked from its row and read from there by the heat map's cells (decision XP2).
 */
export function pairsTable(
  doc: ModelsDocument,
  pairs: readonly PairEntry[] = doc.pairs,
  itemsHref?: (p: PairEntry) => string,
): SafeHtml {
  return cardTable(
    'axis-pairs',
    `${pairs.length < doc.pairs.length ? `${pairs.length} of the ${doc.pairs.length} pairs (those among the models plotted)` : `Every pair of ${doc.axis}'s models`}: exact McNemar on the items both parsed, Holm-adjusted over the ${doc.m} public tested pairs; the difference first − second with its interval; the minimum detectable difference (80% power, normal approximation)`,
    PAIR_COLUMNS,
    pairs.map((p) => ({
      attrs: html` data-first="${p.first}" data-second="${p.second}" data-state="${p.state}" data-own="${String(p.own)}" data-like="${String(p.like_for_like)}"`,
      cells: [
        html`<th scope="row">${breakable(p.first)} <span class="note">vs</span> ${breakable(p.second)}${itemsHref ? html`<br><a class="axis-pair-items" href="${itemsHref(p)}">the items that differ</a>` : ''}</th>`,
        html`<td>${pairState(p)}</td>`,
        numCell(p.n_pairs),
        p.b === undefined
          ? numCell(undefined)
          : html`<td class="num" data-value="${JSON.stringify([p.b, p.c])}">${p.b} / ${p.c}</td>`,
        numCell(p.p, p.p === undefined ? undefined : pValue(p.p)),
        numCell(p.p_holm, p.p_holm == null ? undefined : pValue(p.p_holm)),
        numCell(p.difference, p.difference === undefined ? undefined : points(p.difference)),
        intervalCell(p.difference_interval, points),
        reasonedCell(p.mdd, p.mdd_reason, (x) => (x * 100).toFixed(1)),
        reasonedCell(p.n_needed, p.n_needed_reason, (x) => Math.ceil(x).toLocaleString('en')),
      ],
    })),
  );
}
