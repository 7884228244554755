/**
 * What the accessibility and fit tests read in a page (issue 39): axe-core's serious and critical
 * violations, the tables that are wider than their box without being a scroll region a keyboard
 * can reach, and the heat map's texts with their contrast and overlaps. The in-page code is a
 * string (tsx would wrap its functions in a helper the page lacks).
 */
import axe from 'axe-core';
import type { Page } from 'playwright-core';

/**
 * Waits until `expression` (in-page JavaScript) is true, polling every 50 ms; false when it never
 * was within `timeoutMs`. Playwright's waitForFunction compiles its predicate in the page, which
 * the page's CSP (no 'unsafe-eval') refuses with a console error; page.evaluate is not refused.
 */
export async function pollUntil(page: Page, expression: string, timeoutMs = 5_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await page.evaluate(expression)) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A serious or critical axe violation, one line per rule with its node targets. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol, so the page's CSP (script-src 'self') does not refuse it.
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axe.source);
  const result = (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) })))`,
  )) as { id: string; impact: string | null; help: string; targets: string[] }[];
  return result
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id} (${v.help}): ${v.targets.length} nodes: ${v.targets.slice(0, 8).join(' | ')}${v.targets.length > 8 ? ' | …' : ''}`,
    );
}

/**
 * Every table whose box is narrower than the table, unless that box is a scroll region a keyboard
 * can reach and a screen reader can name (`tabindex="0"`, `role="region"`, `aria-label`). The box
 * is the table's nearest ancestor that clips or scrolls sideways, else the page's main column.
 */
const TABLES_JS = `(() => {
  const out = [];
  for (const table of document.querySelectorAll('main table')) {
    let box = table.parentElement;
    while (box && box.tagName !== 'MAIN' && !['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
    if (!box) continue;
    const scrollRegion = box.tagName !== 'MAIN' && ['auto', 'scroll'].includes(getComputedStyle(box).overflowX)
      && box.getAttribute('tabindex') === '0' && box.getAttribute('role') === 'region' && (box.getAttribute('aria-label') || '').length > 0;
    const inner = box.clientWidth - parseFloat(getComputedStyle(box).paddingLeft) - parseFloat(getComputedStyle(box).paddingRight);
    const wide = Math.max(table.scrollWidth, Math.ceil(table.getBoundingClientRect().width));
    const fits = box.tagName === 'MAIN' ? wide <= inner + 1 : box.scrollWidth <= box.clientWidth;
    if (!fits && !scrollRegion) out.push((table.id || table.className || 'table') + ' ' + wide + ' px in ' + Math.round(inner) + ' px');
  }
  return out;
})()`;

export function unfitTables(page: Page): Promise<string[]> {
  return page.evaluate(TABLES_JS) as Promise<string[]>;
}

/** Every plot's svg that is wider than the box it is drawn in (it would be cut or scroll). */
export function widePlots(page: Page): Promise<string[]> {
  return page.evaluate(
    `[...document.querySelectorAll('figure.dash-plot .dash-canvas')].flatMap((c) => { const s = c.querySelector(':scope > svg'); const w = s ? Math.round(s.getBoundingClientRect().width) : 0; return w > c.clientWidth ? [c.closest('figure').id + ' ' + w + ' px in ' + c.clientWidth + ' px'] : []; })`,
  ) as Promise<string[]>;
}

/** The number of tables a page has in its main column. */
export function tableCount(page: Page): Promise<number> {
  return page.evaluate(`document.querySelectorAll('main table').length`) as Promise<number>;
}

/**
 * The heat map's texts (figure[data-plot="plot-axis-pairs"]): each text printed over a cell with
 * its contrast against that cell's fill (WCAG 2.x relative luminance), and every pair of axis
 * labels whose boxes overlap.
 */
const HEATMAP_JS = `(() => {
  const svg = document.querySelector('figure[data-plot="plot-axis-pairs"] svg');
  if (!svg) return null;
  const rgb = (c) => { const m = /rgba?\\(([^)]+)\\)/.exec(c); return m ? m[1].split(',').slice(0, 3).map(Number) : null; };
  const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const cells = [...svg.querySelectorAll('g.axis-cell rect, g.axis-cell > *')].filter((e) => e.tagName === 'rect');
  const texts = [];
  for (const t of svg.querySelectorAll('g[class*="-mark"] text, g[class*="-mark"] > text')) {
    const r = t.getBoundingClientRect();
    if (r.width === 0) continue;
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    const cell = cells.find((c) => { const b = c.getBoundingClientRect(); return cx >= b.left && cx <= b.right && cy >= b.top && cy <= b.bottom; });
    if (!cell) continue;
    const fg = rgb(getComputedStyle(t).fill), bg = rgb(getComputedStyle(cell).fill);
    if (!fg || !bg) continue;
    texts.push({ text: t.textContent, contrast: Math.round(ratio(fg, bg) * 100) / 100 });
  }
  // A turned label's screen box is not its outline: each label is the quadrilateral its own
  // text box becomes on the screen, and two overlap when no edge of either separates them.
  const quad = (t) => { const b = t.getBBox(), m = t.getScreenCTM(); return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]].map(([x, y]) => new DOMPoint(x, y).matrixTransform(m)); };
  const apart = (p, q) => [p, q].some((poly) => poly.some((a, i) => { const b = poly[(i + 1) % 4]; const nx = b.y - a.y, ny = a.x - b.x; const proj = (s) => s.map((v) => v.x * nx + v.y * ny); const pp = proj(p), qq = proj(q); return Math.max(...pp) <= Math.min(...qq) + 0.5 || Math.max(...qq) <= Math.min(...pp) + 0.5; }));
  const labels = [...svg.querySelectorAll('g[data-mark$="axis tick label"] text, g.axis-label text')].filter((t) => t.getBBox().width > 0).map((t) => ({ text: t.textContent, q: quad(t) }));
  const overlaps = [];
  for (let i = 0; i < labels.length; i++)
    for (let j = i + 1; j < labels.length; j++)
      if (!apart(labels[i].q, labels[j].q)) overlaps.push(labels[i].text + ' / ' + labels[j].text);
  return { texts, labels: labels.length, overlaps };
})()`;

/**
 * Every two texts of a plot whose outlines overlap, or stand less than 6 px apart along their
 * baseline (each text's box as the screen shows it, turned or not): a name run into a state
 * label reads as one word. Texts on cells (the heat map's p
 * and S) are inside their cell by construction and are left out.
 */
const OVERLAPS_JS = `(() => {
  const quad = (t) => { const b = t.getBBox(), m = t.getScreenCTM(); return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]].map(([x, y]) => new DOMPoint(x, y).matrixTransform(m)); };
  // Apart: along some edge's normal the two outlines' projections do not meet. Along a text's
  // baseline (the normals of its two ends) they stand at least 6 px apart (two spaces), or two words read as
  // one; across it a text's box holds its line spacing, so boxes of stacked lines may touch.
  const apart = (p, q) => [p, q].some((poly) => poly.some((a, i) => { const gap = i % 2 === 1 ? 6 : -1; const b = poly[(i + 1) % 4]; const len = Math.hypot(b.x - a.x, b.y - a.y) || 1; const nx = (b.y - a.y) / len, ny = (a.x - b.x) / len; const proj = (s) => s.map((v) => v.x * nx + v.y * ny); const pp = proj(p), qq = proj(q); return Math.max(...pp) + gap <= Math.min(...qq) || Math.max(...qq) + gap <= Math.min(...pp); }));
  const out = [];
  for (const svg of document.querySelectorAll('figure.plot .dash-canvas > svg')) {
    const texts = [...svg.querySelectorAll('text')].filter((t) => !t.closest('g[class*="-mark"]') && t.getBBox().width > 0).map((t) => ({ text: (t.firstChild && t.firstChild.nodeType === 3 ? t.firstChild.textContent : [...t.querySelectorAll('tspan')].map((x) => x.textContent).join(' ')) || '', q: quad(t) }));
    for (let i = 0; i < texts.length; i++)
      for (let j = i + 1; j < texts.length; j++)
        if (!apart(texts[i].q, texts[j].q)) out.push(svg.closest('figure').id + ': ' + texts[i].text + ' / ' + texts[j].text);
  }
  return out;
})()`;

export function overlappingTexts(page: Page): Promise<string[]> {
  return page.evaluate(OVERLAPS_JS) as Promise<string[]>;
}

export interface HeatMapTexts {
  texts: { text: string; contrast: number }[];
  labels: number;
  overlaps: string[];
}

export function heatMapTexts(page: Page): Promise<HeatMapTexts | null> {
  return page.evaluate(HEATMAP_JS) as Promise<HeatMapTexts | null>;
}
