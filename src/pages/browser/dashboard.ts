/**
 * The dashboard's plots (issue 7): reads the tab's JSON island (the same values the
 * server-rendered tables show) and draws one plot with @observablehq/plot into the tab's
 * `figure.plot`. Only adds to the page: without this script every value is in the tables.
 * Plot's own `<style>` element is removed before the SVG enters the page (the page's CSP allows
 * no inline styles; site.css carries the equivalent rules).
 */
import * as Plot from '@observablehq/plot';
import {
  ISLAND_ID,
  MARK_COLOURS,
  type ComputeIsland,
  type AxisIsland,
  type DashboardIsland,
  type ForestRow,
  type MeasuredIsland,
  type ProvenanceIsland,
  type RegulatorsIsland,
  type Separation,
} from '../dashboard-islands.js';

import { axisForest } from './plots/axis.js';
import { axisCost } from './plots/cost.js';
import { axisMatrix } from './plots/heat-map.js';
import { pairLinks } from './plots/pair-links.js';
import { boldPixels, forestFrame, LABEL_OFFSET, NARROW, NARROW_MARGIN, nameMargin, rowNames } from './plots/rows.js';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** A leader mark is filled only for a SEPARATED public leader: a TIE or UNTESTED row never looks like a win. */
const isWin = (r: ForestRow) => r.separation === 'SEPARATED' && r.leader !== null;
const SYMBOL: Record<Separation, string> = { SEPARATED: 'circle', TIE: 'diamond', UNTESTED: 'square' };

/** The state label beside a row: `▲ SEPARATED · n=400`, `TIE* · n=24` (no public leader). */
const stateText = (r: ForestRow) => `${isWin(r) ? '▲ ' : ''}${r.separation}${r.leader === null ? '*' : ''} · n=${r.n}`;

function rowLabel(r: ForestRow): string {
  const who = r.leader ?? `no public leader (${r.leaderState ?? 'withheld'})`;
  return `${r.axis}: ${r.separation}${isWin(r) ? ' (separated leader)' : r.separation === 'TIE' ? ' (a tie is not a win)' : ''}, ${who}, accuracy ${pct(r.accuracy)}, interval ${pct(r.lo)} to ${pct(r.hi)}, n ${r.n}`;
}

function measuredPlot(d: MeasuredIsland, width: number): SVGSVGElement | HTMLElement {
  const rows = d.rows;
  const ys = [...rows.map((r) => r.axis), ...d.noResult.map((r) => r.axis)];
  const lows = rows.flatMap((r) => [r.lo, r.basis?.lo ?? r.lo]);
  const xmin = lows.length === 0 ? 0 : Math.max(0, Math.floor(Math.min(...lows) * 10) / 10 - 0.1);
  const withBasis = rows.filter((r) => r.basis !== null) as (ForestRow & { basis: NonNullable<ForestRow['basis']> })[];
  type B = (typeof withBasis)[number];
  const narrow = width < NARROW;
  // On a phone the name is above its row, left, and the state right: when both do not fit on
  // one line, the name goes a line higher (a heading over its state and interval) and the rows
  // are taller to make room.
  const collides = (r: ForestRow) =>
    NARROW_MARGIN + 4 + boldPixels(r.axis.length) + 8 > width - NARROW_MARGIN - boldPixels(stateText(r).length);
  const lifted = new Set(narrow ? rows.filter(collides).map((r) => r.axis) : []);
  const marks: Plot.Markish[] = [
    ...rowNames(ys, narrow, xmin, -12, lifted),
    Plot.ruleY(withBasis, {
      y: 'axis',
      x1: (r: B) => r.basis.lo,
      x2: (r: B) => r.basis.hi,
      dy: 8,
      stroke: MARK_COLOURS.basis,
      strokeWidth: 1.5,
      className: 'dash-basis',
      ariaLabel: (r: B) =>
        `${r.axis}: best base model ${r.basis.model}, accuracy ${pct(r.basis.accuracy)}, interval ${pct(r.basis.lo)} to ${pct(r.basis.hi)}`,
      title: (r: B) => `basis ${r.basis.model}: ${pct(r.basis.accuracy)} [${pct(r.basis.lo)}, ${pct(r.basis.hi)}]`,
    }),
    Plot.dot(withBasis, {
      y: 'axis',
      x: (r: B) => r.basis.accuracy,
      dy: 8,
      r: 2.5,
      fill: MARK_COLOURS.basis,
      className: 'dash-basis-point',
    }),
  ];
  for (const s of ['SEPARATED', 'TIE', 'UNTESTED'] as const) {
    const these = rows.filter((r) => r.separation === s);
    const colour = MARK_COLOURS[s];
    marks.push(
      Plot.ruleY(these, {
        y: 'axis',
        x1: 'lo',
        x2: 'hi',
        stroke: colour,
        strokeWidth: 2.5,
        className: `dash-interval dash-interval-${s}`,
        ariaLabel: rowLabel,
        title: rowLabel,
      }),
      Plot.dot(these, {
        y: 'axis',
        x: 'accuracy',
        r: 5,
        symbol: SYMBOL[s],
        stroke: colour,
        strokeWidth: 2,
        fill: (r: ForestRow) => (isWin(r) ? colour : '#ffffff'),
        className: `dash-leader dash-leader-${s}`,
        ariaLabel: rowLabel,
        title: rowLabel,
      }),
      narrow
        ? Plot.text(these, {
            y: 'axis',
            frameAnchor: 'right',
            dy: -12,
            textAnchor: 'end',
            fill: colour,
            fontWeight: 700,
            className: `dash-state dash-state-${s}`,
            text: stateText,
          })
        : Plot.text(these, {
            y: 'axis',
            x: 'hi',
            dx: 8,
            textAnchor: 'start',
            fill: colour,
            fontWeight: 700,
            className: `dash-state dash-state-${s}`,
            text: stateText,
          }),
    );
  }
  type N = MeasuredIsland['noResult'][number];
  marks.push(
    Plot.text(d.noResult, {
      y: 'axis',
      x: xmin,
      dx: 4,
      textAnchor: 'start',
      fill: '#4a4a4a',
      className: 'dash-noresult',
      // On a phone a long state would run past the plot's edge: the n goes on a second line.
      ...(narrow && { lineAnchor: 'top' as const, dy: -2 }),
      text: (r: N) => `${r.state} ·${narrow ? '\n' : ' '}n=${r.n} · no result`,
      ariaLabel: (r: N) => `${r.axis}: ${r.state}, n ${r.n}, no result`,
    }),
    Plot.ruleX([xmin]),
  );
  return Plot.plot({
    ...forestFrame(ys, xmin, width, {
      rowHeight: 30,
      minLeft: 160,
      right: 130,
      bottom: 40,
      ...(lifted.size > 0 && { narrowRowHeight: 50 }),
    }),
    marks,
  });
}

function regulatorsPlot(d: RegulatorsIsland, width: number): SVGSVGElement | HTMLElement {
  const pts = d.deadlines.map((x) => ({ ...x, date: new Date(`${x.applies_from}T00:00:00Z`) }));
  type P = (typeof pts)[number];
  const today = new Date(d.observed_at);
  const label = (x: P) =>
    `${x.id}: applies from ${x.applies_from}, ${x.in_force ? 'in force' : 'upcoming'}, ${x.days_until} days`;
  const narrow = width < NARROW;
  const ys = pts.map((x) => x.id);
  const first = pts.reduce((m, x) => (x.date < m ? x.date : m), today);
  return Plot.plot({
    width,
    height: 60 + (narrow ? 44 : 32) * Math.max(pts.length, 1),
    marginLeft: narrow ? 20 : nameMargin(ys, 170),
    marginRight: 30,
    marginBottom: 40,
    marginTop: 30,
    x: {
      type: 'utc',
      label: 'Applies from →',
      labelOffset: LABEL_OFFSET,
      grid: true,
      ticks: narrow ? 3 : 6,
      inset: 36,
    },
    y: { domain: ys, label: null, axis: narrow ? null : 'left' },
    marks: [
      ...(narrow
        ? [
            Plot.text(pts, {
              y: 'id',
              x: first,
              dy: -12,
              dx: -30,
              textAnchor: 'start',
              fontWeight: 600,
              fill: '#1a1a1a',
              text: 'id',
              className: 'dash-row-name',
            }),
          ]
        : []),
      Plot.ruleX([today], { stroke: '#1a1a1a', strokeDasharray: '4 3', className: 'dash-today' }),
      Plot.text([today], {
        x: (t: Date) => t,
        frameAnchor: 'top',
        dy: -16,
        text: () => `observed ${d.observed_at.slice(0, 10)}`,
        fill: '#1a1a1a',
      }),
      Plot.dot(
        pts.filter((x) => x.in_force),
        {
          x: 'date',
          y: 'id',
          r: 5,
          fill: MARK_COLOURS.inForce,
          className: 'dash-deadline dash-deadline-in-force',
          ariaLabel: label,
          title: label,
        },
      ),
      Plot.dot(
        pts.filter((x) => !x.in_force),
        {
          x: 'date',
          y: 'id',
          r: 5,
          fill: '#ffffff',
          stroke: MARK_COLOURS.upcoming,
          strokeWidth: 2,
          className: 'dash-deadline dash-deadline-upcoming',
          ariaLabel: label,
          title: label,
        },
      ),
      Plot.text(pts, {
        x: 'date',
        y: 'id',
        dy: narrow ? 14 : -12,
        text: (x: P) => `${x.days_until} d`,
        fill: '#4a4a4a',
        className: 'dash-days',
      }),
    ],
  });
}

function barPlot(
  rows: { key: string; value: number }[],
  width: number,
  xLabel: string,
  className: string,
): SVGSVGElement | HTMLElement {
  const narrow = width < NARROW;
  return Plot.plot({
    width,
    height: 50 + (narrow ? 48 : 26) * Math.max(rows.length, 1),
    marginLeft: narrow
      ? 20
      : nameMargin(
          rows.map((r) => r.key),
          190,
        ),
    marginRight: 40,
    marginBottom: 40,
    marginTop: narrow ? 24 : 20,
    // Counts: whole-number ticks only.
    x: {
      label: xLabel,
      labelOffset: LABEL_OFFSET,
      grid: true,
      ticks: Math.min(Math.max(...rows.map((r) => r.value), 1), narrow ? 4 : 8),
      tickFormat: 'd',
    },
    y: { domain: rows.map((r) => r.key), label: null, axis: narrow ? null : 'left', padding: narrow ? 0.5 : 0.1 },
    marks: [
      ...rowNames(
        rows.map((r) => r.key),
        narrow,
        0,
        -19,
      ),
      Plot.barX(rows, {
        y: 'key',
        x: 'value',
        fill: MARK_COLOURS.bar,
        className,
        ariaLabel: (r: { key: string; value: number }) => `${r.key}: ${r.value}`,
        title: (r: { key: string; value: number }) => `${r.key}: ${r.value}`,
      }),
      Plot.text(rows, {
        y: 'key',
        x: 'value',
        text: (r: { key: string; value: number }) => String(r.value),
        dx: 6,
        textAnchor: 'start',
        fill: '#1a1a1a',
      }),
      Plot.ruleX([0]),
    ],
  });
}

function draw(d: DashboardIsland, plotId: string, width: number): SVGSVGElement | HTMLElement {
  switch (d.tab) {
    case 'axis':
      if (plotId === 'plot-axis-cost') return axisCost(d as AxisIsland, width);
      return plotId === 'plot-axis-pairs'
        ? axisMatrix(d as AxisIsland, width, pairLinks())
        : axisForest(d as AxisIsland, width);
    case 'measured':
      return measuredPlot(d, width);
    case 'regulators':
      return regulatorsPlot(d, width);
    case 'provenance':
      return barPlot(
        (d as ProvenanceIsland).cellsPerAxis.map((r) => ({ key: r.axis, value: r.cells })),
        width,
        'Signed cells →',
        'dash-bar dash-bar-cells',
      );
    case 'compute':
      return barPlot(
        (d as ComputeIsland).states.map((r) => ({ key: r.state, value: r.rails })),
        width,
        'Rails →',
        'dash-bar dash-bar-states',
      );
  }
}

/** Draws one figure's plot at its box's width; again only when that width has changed. */
function drawFigure(data: DashboardIsland, figure: HTMLElement, canvas: HTMLElement): void {
  const width = Math.max(280, Math.floor(canvas.clientWidth || figure.clientWidth));
  if (figure.dataset['width'] === String(width)) return;
  const plot = draw(data, figure.dataset['plot'] ?? '', width);
  // Plot appends a <style> element: removed while detached, so the CSP never has to refuse it.
  for (const s of plot.querySelectorAll('style')) s.remove();
  accessible(plot, figure.querySelector('figcaption')?.textContent ?? 'plot');
  canvas.replaceChildren(plot);
  figure.dataset['width'] = String(width);
  figure.dataset['drawn'] = 'true';
}

/**
 * The svg is one image named by the figure's caption (`role="img"`): a screen reader reads the
 * caption, which names the table that holds the same values, instead of hundreds of marks. Plot
 * names each group of marks with `aria-label` ("rule", "x-axis tick"), and a `<g>` has no role
 * that may be named (axe-core: aria-prohibited-attr, serious): the group's name moves to
 * `data-mark`. A mark's own label (a bar, an interval) stays, as does its `<title>` for a pointer.
 */
function accessible(plot: SVGSVGElement | HTMLElement, name: string): void {
  const svg = plot instanceof SVGSVGElement ? plot : plot.querySelector('svg');
  (svg ?? plot).setAttribute('role', 'img');
  (svg ?? plot).setAttribute('aria-label', name);
  for (const g of plot.querySelectorAll('g[aria-label]')) {
    g.setAttribute('data-mark', g.getAttribute('aria-label') ?? '');
    g.removeAttribute('aria-label');
    g.removeAttribute('aria-description');
  }
}

function main(): void {
  const island = document.getElementById(ISLAND_ID);
  if (!island) return;
  const data = JSON.parse(island.textContent ?? 'null') as DashboardIsland;
  for (const figure of document.querySelectorAll<HTMLElement>('figure.dash-plot')) {
    const canvas = figure.querySelector<HTMLElement>('.dash-canvas');
    if (!canvas) continue;
    drawFigure(data, figure, canvas);
    // A phone turned, a window narrowed: drawn again at the new width, once a frame at most.
    let pending = false;
    new ResizeObserver(() => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        drawFigure(data, figure, canvas);
      });
    }).observe(canvas);
  }
}

main();
