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
  const texts = (sel) => all(sel).map((e) => e.textContent || '');
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
