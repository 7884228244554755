/**
 * Tokens and latency beside the accuracies of an axis page (issue 40, item 3): for the models the
 * page tables, the mean input and output tokens and latency per response with their 95%
 * intervals and coverage, and the output tokens per correct answer, from `GET /api/usage?axis=`.
 * Means below 100 show one decimal (1.5, not 2). A model whose rows record nothing shows "not recorded", never 0; a model with partial coverage
 * shows its figures with "over k of n rows". An axis none of whose rows records usage says so in
 * one line instead of a table of dashes.
 */
import type { UsageDocument, UsageFigure, UsageModel } from '../core/board/usage.js';
import { breakable, cardTable, type Column } from './card-table.js';
import { html, type SafeHtml } from './html.js';

const COLUMNS: Column[] = [
  { label: 'Model' },
  { label: 'Input tokens per response', num: true },
  { label: 'Output tokens per response', num: true },
  { label: 'Output tokens per correct answer', num: true },
  { label: 'Latency per response (ms)', num: true },
];

const NOT_RECORDED = html`<span class="note">not recorded</span>`;

/** `1,234 (1,200 to 1,268)`, with the coverage when not every row carries the field. */
function figureCell(f: UsageFigure | null, rows: number, perCorrect = false): SafeHtml {
  if (f === null) return html`<td class="num" data-value="">${NOT_RECORDED}</td>`;
  const value = perCorrect ? f.per_correct : f.mean;
  const iv = perCorrect ? f.per_correct_interval : f.mean_interval;
  if (value === null) return html`<td class="num" data-value="">— <span class="note">(no correct answer)</span></td>`;
  // Below 100 a whole number hides the difference read (1.5 read as 2): one decimal there, the
  // interval alike so it reads in the same unit (decision PG9); data-value stays exact.
  const digits = Math.abs(value) < 100 ? 1 : 0;
  const n = (x: number) => x.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const coverage = f.rows < rows ? html` <span class="note">over ${f.rows} of ${rows} rows</span>` : '';
  return html`<td class="num" data-value="${String(value)}">${n(value)}${iv ? html` <span class="note">(${n(iv[0])} to ${n(iv[1])})</span>` : ''}${coverage}</td>`;
}

/** The usage table for `models` (the ids the page tables, in its order), or one line when none is recorded. */
export function usageSection(doc: UsageDocument, models: readonly string[]): SafeHtml {
  const byModel = new Map<string, UsageModel>(doc.models.map((m) => [m.model, m]));
  const recorded = doc.models.some((m) => m.input_tokens || m.output_tokens || m.latency_ms);
  const heading = html`<h2 id="axis-usage-heading">Tokens and latency</h2>`;
  if (!recorded)
    return html`${heading}<p class="note" id="axis-usage-none">No row of ${doc.axis} records tokens or latency (<a href="/api/usage?axis=${doc.axis}">/api/usage?axis=${doc.axis}</a>): nothing is shown rather than a zero.</p>`;
  const rows = models.flatMap((id) => {
    const m = byModel.get(id);
    if (m === undefined) return [];
    return [
      {
        attrs: html` data-model="${m.model}"`,
        cells: [
          html`<th scope="row">${breakable(m.model)}${m.own ? html` <span class="state axis-own">own</span>` : ''}</th>`,
          figureCell(m.input_tokens, m.rows),
          figureCell(m.output_tokens, m.rows),
          figureCell(m.output_tokens, m.rows, true),
          figureCell(m.latency_ms, m.rows),
        ],
      },
    ];
  });
  return html`${heading}
<p class="note">Per response, every response counted (unparsed ones too), with the 95% interval${doc.clustered ? ' over clusters' : ''}; "not recorded" where a model's rows carry no such field. Read from <a href="/api/usage?axis=${doc.axis}">/api/usage?axis=${doc.axis}</a> (<code>${doc.schema}</code>); the formulas: <a href="/methodology">methodology §10</a>.</p>
${cardTable('axis-usage', `Tokens and latency of the models above, on ${doc.axis}`, COLUMNS, rows)}`;
}
