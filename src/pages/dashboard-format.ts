/**
 * Small helpers the dashboard tabs share: reading one of the service's own documents in-process,
 * and the cells that show a number (the exact served value in `data-value`, a rounded text for
 * reading). Nothing here types a number: every value comes from a served document.
 */
import { breakable } from './card-table.js';
import { html, type SafeHtml } from './html.js';
import type { PageContext } from './page-context.js';

/** A registered document read in-process (`ctx.documents`): its JSON, or why it could not be read. */
export type Read<T> = { ok: true; value: T } | { ok: false; reason: string };

export async function readJson<T>(ctx: PageContext, path: string): Promise<Read<T>> {
  try {
    const r = await ctx.documents.readPath<T>(path);
    if (!r.ok) return { ok: false, reason: `GET ${path} answered HTTP ${r.status}` };
    return { ok: true, value: r.value };
  } catch (e) {
    return { ok: false, reason: `GET ${path} failed: ${(e as Error).message}` };
  }
}

/** A proportion as a percentage with one decimal (the cell's `data-value` keeps the exact value). */
export function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

export function pValue(p: number, log10p?: number): string {
  if (p === 0 && log10p !== undefined) return `10^${log10p.toFixed(1)}`;
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}

/** A numeric cell: `data-value` is the served number exactly, the text is for reading. */
export function numCell(value: number | null | undefined, text?: string): SafeHtml {
  if (value === null || value === undefined) return html`<td class="num" data-value="">—</td>`;
  return html`<td class="num" data-value="${String(value)}">${text ?? String(value)}</td>`;
}

export function pctCell(value: number | null | undefined): SafeHtml {
  return numCell(value, value === null || value === undefined ? undefined : pct(value));
}

/** A state word with its colour class (the word itself carries the meaning, never the colour alone). */
export function stateSpan(state: string): SafeHtml {
  return html`<span class="state state-${state.replace(/[^A-Z_]/g, '')}">${breakable(state)}</span>`;
}

export function textCell(text: string | null | undefined): SafeHtml {
  return html`<td>${text === null || text === undefined ? '—' : breakable(text)}</td>`;
}

/** A duration in seconds, in words (e.g. `8 h 30 min 30 s`). */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  const d = Math.floor(s / 86400),
    h = Math.floor((s % 86400) / 3600),
    m = Math.floor((s % 3600) / 60),
    r = s % 60;
  const parts = [d && `${d} d`, h && `${h} h`, m && `${m} min`, r && `${r} s`].filter(Boolean);
  return parts.length === 0 ? '0 s' : parts.join(' ');
}

/** A note shown where a document could not be read (the tab still renders what it could). */
export function unread(what: string, reason: string): SafeHtml {
  return html`<p class="callout dash-unread"><strong>${what} not read:</strong> ${reason}</p>`;
}

/**
 * The figure a plot is drawn into. Without JavaScript it says which table holds the same values;
 * the legend (when given) is server-rendered so it reads without the script too.
 */
export function plotFigure(id: string, caption: string, tableId: string, legend?: SafeHtml): SafeHtml {
  return html`<figure class="plot dash-plot" id="${id}" data-plot="${id}" aria-describedby="${id}-caption">
<div class="dash-canvas"><p class="note dash-fallback">The plot is drawn by a script; <a href="#${tableId}">the table below</a> holds the same values.</p></div>
${legend ?? ''}
<figcaption id="${id}-caption">${caption}</figcaption>
</figure>`;
}
