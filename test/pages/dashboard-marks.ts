/**
 * What a dashboard plot drew, read in the page: the number of marks in each of Plot's mark
 * groups (by the class the script gives them), the leader marks' fills and the state labels.
 * The in-page code is a string (tsx would wrap its functions in a helper the page lacks).
 */
import type { Page } from 'playwright-core';

export interface Marks {
  svg: number;
  intervals: number;
  intervalsBy: Record<'SEPARATED' | 'TIE' | 'UNTESTED', number>;
  leaders: number;
  basis: number;
  noResult: string[];
  fills: Record<'SEPARATED' | 'TIE' | 'UNTESTED', (string | null)[]>;
  stateTexts: Record<'SEPARATED' | 'TIE' | 'UNTESTED', string[]>;
  deadlines: number;
  inForce: number;
  upcoming: number;
  cells: number;
  states: number;
  barLabels: (string | null)[];
}

const MARKS_JS = `(() => {
  const n = (sel) => [...document.querySelectorAll('figure.plot svg g' + sel)].reduce((s, g) => s + g.children.length, 0);
  const all = (sel) => [...document.querySelectorAll('figure.plot svg g' + sel + ' > *')];
  const fills = (sel) => all(sel).map((e) => e.getAttribute('fill'));
  // A label Plot wrapped is one tspan per line: read back as one line.
  const line = (e) => { const t = [...e.querySelectorAll('tspan')]; return t.length > 0 ? t.map((x) => x.textContent).join(' ') : e.textContent || ''; };
  const texts = (sel) => all(sel).map(line);
  const by = (f, p) => ({ SEPARATED: f(p + 'SEPARATED'), TIE: f(p + 'TIE'), UNTESTED: f(p + 'UNTESTED') });
  return {
    svg: document.querySelectorAll('figure.plot .dash-canvas > svg').length,
    intervals: n('.dash-interval'), intervalsBy: by(n, '.dash-interval-'),
    leaders: n('.dash-leader'), basis: n('.dash-basis'), noResult: texts('.dash-noresult'),
    fills: by(fills, '.dash-leader-'), stateTexts: by(texts, '.dash-state-'),
    deadlines: n('.dash-deadline'), inForce: n('.dash-deadline-in-force'), upcoming: n('.dash-deadline-upcoming'),
    cells: n('.dash-bar-cells'), states: n('.dash-bar-states'),
    barLabels: all('.dash-bar').map((e) => e.getAttribute('aria-label')),
  };
})()`;

export function plotMarks(page: Page): Promise<Marks> {
  return page.evaluate(MARKS_JS) as Promise<Marks>;
}

/** Page width against the viewport: a page-level horizontal scroll shows as scroll > view. */
export function pageWidth(page: Page): Promise<{ scroll: number; view: number }> {
  return page.evaluate('({ scroll: document.documentElement.scrollWidth, view: window.innerWidth })') as Promise<{
    scroll: number;
    view: number;
  }>;
}

/**
 * Every text of every plot that is not wholly inside its svg (an svg clips what overflows it):
 * a clipped axis or row name, with how far it overruns each edge (left, right, top, bottom).
 */
const CLIPPED_JS = `(() => {
  const out = [];
  for (const svg of document.querySelectorAll('figure.plot svg')) {
    if (svg.parentElement.closest('svg')) continue;
    const s = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll('text')) {
      const r = t.getBoundingClientRect();
      if (r.width === 0) continue;
      const over = [s.left - r.left, r.right - s.right, s.top - r.top, r.bottom - s.bottom].map(Math.round);
      if (over.some((x) => x > 0)) out.push(t.textContent + ' ' + JSON.stringify(over));
    }
  }
  return out;
})()`;

export function clippedTexts(page: Page): Promise<string[]> {
  return page.evaluate(CLIPPED_JS) as Promise<string[]>;
}

/** Tables wider than their box (which would scroll sideways), by table id: none on a page that fits. */
export function overflowingTables(page: Page): Promise<string[]> {
  return page.evaluate(
    `[...document.querySelectorAll('.table-wrap')].filter((w) => w.scrollWidth > w.clientWidth).map((w) => (w.querySelector('table') || w).id + ' ' + w.scrollWidth + '>' + w.clientWidth)`,
  ) as Promise<string[]>;
}
