/**
 * What the dashboard tests read from a page, the same way from plain HTML (app.inject) and from
 * a rendered page in Chromium: every table by id (rows with their data-* attributes, cells with
 * their text and `data-value`), and the first text of each `data-field` element.
 */
import type { Page } from 'playwright-core';

export interface Cell {
  text: string;
  value: string | null;
}
export interface Row {
  data: Record<string, string>;
  cells: Cell[];
}
export interface View {
  tables: Record<string, Row[]>;
  fields: Record<string, string>;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);
const text = (s: string) =>
  decode(s.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();

function attrs(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [, k, v] of tag.matchAll(/\sdata-([a-z-]+)="([^"]*)"/g)) out[k!] = decode(v!);
  return out;
}

/** The view of server-rendered HTML (the page as a browser without JavaScript gets it). */
export function htmlView(html: string): View {
  const tables: Record<string, Row[]> = {};
  for (const [, id, inner] of html.matchAll(/<table id="([^"]+)"[^>]*>([\s\S]*?)<\/table>/g)) {
    const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(inner!)?.[1] ?? '';
    tables[id!] = [...body.matchAll(/<tr([^>]*)>([\s\S]*?)<\/tr>/g)].map(([, tag, row]) => ({
      data: attrs(tag!),
      cells: [...row!.matchAll(/<(th|td)([^>]*)>([\s\S]*?)<\/\1>/g)].map(([, , cellTag, content]) => ({
        text: text(content!),
        value: /\sdata-value="([^"]*)"/.exec(cellTag!)?.[1] ?? null,
      })),
    }));
  }
  const fields: Record<string, string> = {};
  for (const [, name, content] of html.matchAll(/data-field="([^"]+)">([^<]*)<\//g))
    if (!(name! in fields)) fields[name!] = text(content!);
  return { tables, fields };
}

/**
 * The same view of a page rendered in the browser (after its script ran). The in-page code is a
 * string: tsx would otherwise wrap its functions in a helper the page does not have.
 */
const PAGE_VIEW_JS = `(() => {
  const clean = (s) => (s || '').replace(/\\s+/g, ' ').trim();
  const tables = {};
  for (const t of document.querySelectorAll('table[id]')) {
    tables[t.id] = [...t.querySelectorAll('tbody > tr')].map((tr) => ({
      data: { ...tr.dataset },
      cells: [...tr.children].map((c) => ({ text: clean(c.textContent), value: c.getAttribute('data-value') })),
    }));
  }
  const fields = {};
  for (const el of document.querySelectorAll('[data-field]')) {
    const name = el.getAttribute('data-field');
    // Only elements holding text alone, as the HTML view reads them.
    if (!(name in fields) && el.children.length === 0) fields[name] = clean(el.textContent);
  }
  return { tables, fields };
})()`;

export function pageView(page: Page): Promise<View> {
  return page.evaluate(PAGE_VIEW_JS) as Promise<View>;
}
