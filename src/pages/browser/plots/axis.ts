/**
 * An axis page's two plots (issue 29), from its island (the values its tables show):
 * - the forest plot: every model with a parsed response, ranked, its Wilson interval as a line,
 *   its tie-group letters beside it; own models grey hollow squares marked "own";
 * - the matrix: every pair as a cell, shaded by the Holm-adjusted p (log scale, darker is
 *   smaller), SEPARATED cells marked S, UNTESTED U, own pairs grey (outside the Holm family).
 */
import * as Plot from '@observablehq/plot';
import { MARK_COLOURS, type AxisCell, type AxisIsland, type AxisModelPoint } from '../../dashboard-islands.js';
import { forestFrame, labelPixels, NARROW, nameMargin, rowNames } from './rows.js';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const PUBLIC = '#0b57d0';
const OWN = MARK_COLOURS.UNTESTED;

function modelLabel(m: AxisModelPoint): string {
  const who = m.own ? 'own model, not ranked' : `rank ${m.rank}, tie group ${m.letters || 'none'}`;
  return `${m.model}: ${who}, accuracy ${pct(m.accuracy)}, interval ${pct(m.lo)} to ${pct(m.hi)}`;
}

export function axisForest(d: AxisIsland, width: number): SVGSVGElement | HTMLElement {
  const narrow = width < NARROW;
  const ys = [...d.models.map((m) => m.model), ...d.noParsed.map((m) => m.model)];
  const lows = d.models.map((m) => m.lo);
  const xmin = Math.max(0, Math.floor(Math.min(...lows) * 10) / 10 - 0.1);
  const tag = (m: AxisModelPoint) => (m.own ? 'own' : m.letters);
  const publicModels = d.models.filter((m) => !m.own);
  const own = d.models.filter((m) => m.own);
  const tags = Plot.text(d.models, {
    y: 'model',
    ...(narrow
      ? { frameAnchor: 'right' as const, dy: -12, textAnchor: 'end' as const }
      : { x: 'hi', dx: 8, textAnchor: 'start' as const }),
    fill: (m: AxisModelPoint) => (m.own ? OWN : PUBLIC),
    fontWeight: 700,
    text: tag,
    className: 'axis-letters-mark',
  });
  return Plot.plot({
    ...forestFrame(ys, xmin, width, { rowHeight: 28, minLeft: 120, right: 70, bottom: 44 }),
    marks: [
      ...rowNames(ys, narrow, xmin),
      Plot.ruleY(d.models, {
        y: 'model',
        x1: 'lo',
        x2: 'hi',
        stroke: (m: AxisModelPoint) => (m.own ? OWN : PUBLIC),
        strokeWidth: 2.5,
        className: 'axis-interval',
        ariaLabel: modelLabel,
        title: modelLabel,
      }),
      Plot.dot(publicModels, {
        y: 'model',
        x: 'accuracy',
        r: 5,
        fill: PUBLIC,
        className: 'axis-point axis-point-public',
      }),
      Plot.dot(own, {
        y: 'model',
        x: 'accuracy',
        r: 5,
        symbol: 'square',
        stroke: OWN,
        strokeWidth: 2,
        fill: '#ffffff',
        className: 'axis-point axis-point-own',
      }),
      tags,
      Plot.text(d.noParsed, {
        y: 'model',
        x: xmin,
        dx: 4,
        textAnchor: 'start',
        fill: '#4a4a4a',
        text: (m: { rows: number }) => `no parsed response · rows=${m.rows}`,
        className: 'axis-noparsed',
      }),
      Plot.ruleX([xmin]),
    ],
  });
}

const cellLabel = (c: AxisCell) =>
  `${c.first} vs ${c.second}: ${c.state}${c.own ? ' (own model: unadjusted p, outside the Holm family)' : ''}` +
  `${c.p_holm !== null ? `, p (Holm) ${c.p_holm.toPrecision(2)}` : c.p !== null ? `, p ${c.p.toPrecision(2)}` : ''}`;

/** A p for a cell: three decimals, or one significant digit below 0.001. */
const pText = (p: number | null) => (p === null ? '' : p < 0.001 ? p.toExponential(0) : p.toFixed(3));

/** The smallest p shaded apart from zero: an exact p can underflow to 0 (the board gives log10_p). */
const FLOOR = 1e-12;

export function axisMatrix(d: AxisIsland, width: number): SVGSVGElement | HTMLElement {
  const order = [...d.models.map((m) => m.model), ...d.noParsed.map((m) => m.model)];
  // Both orientations, so each row reads a model against every other.
  const cells = d.cells.flatMap((c) => [c, { ...c, first: c.second, second: c.first }]);
  const left = nameMargin(order);
  const top = Math.ceil(labelPixels(Math.max(...order.map((s) => s.length))) * 0.72) + 24;
  // The top labels are turned 45°, so the last column's label reaches right as far as it rises.
  const right = top - 12;
  const size = Math.max(8, Math.min(56, Math.floor((width - left - right) / Math.max(order.length, 1))));
  const publicTested = cells.filter((c) => !c.own && c.state !== 'UNTESTED');
  const ownTested = cells.filter((c) => c.own && c.state !== 'UNTESTED');
  const untested = cells.filter((c) => c.state === 'UNTESTED');
  const smallest = Math.max(FLOOR, Math.min(1, ...publicTested.map((c) => c.p_holm ?? 1)));
  const shade = (c: AxisCell) => Math.max(FLOOR, c.p_holm ?? 1);
  const dark = (c: AxisCell) => shade(c) < Math.sqrt(smallest);
  const big = size >= 36;
  return Plot.plot({
    width: left + size * order.length + right,
    height: top + size * order.length + 12,
    marginLeft: left,
    marginTop: top,
    marginRight: right,
    marginBottom: 12,
    x: { domain: order, axis: 'top', tickRotate: -45, label: null, tickSize: 0 },
    y: { domain: order, label: null, tickSize: 0 },
    color: { type: 'log', domain: [Math.min(smallest, 0.01), 1], range: ['#08306b', '#f7fbff'], clamp: true },
    marks: [
      Plot.cell(publicTested, {
        x: 'second',
        y: 'first',
        fill: shade,
        inset: 0.5,
        className: 'axis-cell axis-cell-public',
        ariaLabel: cellLabel,
        title: cellLabel,
      }),
      Plot.cell(ownTested, {
        x: 'second',
        y: 'first',
        fill: '#e4e4e4',
        inset: 0.5,
        className: 'axis-cell axis-cell-own',
        ariaLabel: cellLabel,
        title: cellLabel,
      }),
      Plot.cell(untested, {
        x: 'second',
        y: 'first',
        fill: '#ffffff',
        stroke: '#c8c8c8',
        inset: 1,
        className: 'axis-cell axis-cell-untested',
        ariaLabel: cellLabel,
        title: cellLabel,
      }),
      // Large cells also show the value they are shaded by (under the S of a SEPARATED pair).
      ...(big
        ? [true, false].map((separated) =>
            Plot.text(
              publicTested.filter((c) => (c.state === 'SEPARATED') === separated),
              {
                x: 'second',
                y: 'first',
                dy: separated ? 9 : 0,
                fontSize: 9,
                text: (c: AxisCell) => pText(c.p_holm),
                fill: (c: AxisCell) => (dark(c) ? '#ffffff' : '#1a1a1a'),
                className: 'axis-p-mark',
              },
            ),
          )
        : []),
      Plot.text(
        publicTested.filter((c) => c.state === 'SEPARATED'),
        {
          x: 'second',
          y: 'first',
          ...(big && { dy: -5 }),
          text: () => 'S',
          fontWeight: 700,
          fill: (c: AxisCell) => (dark(c) ? '#ffffff' : '#1a1a1a'),
          className: 'axis-separated-mark',
        },
      ),
      Plot.text(untested, {
        x: 'second',
        y: 'first',
        text: () => 'U',
        fill: '#4a4a4a',
        className: 'axis-untested-mark',
      }),
      Plot.text(ownTested, {
        x: 'second',
        y: 'first',
        text: () => (big ? 'own' : 'o'),
        fill: '#4a4a4a',
        fontSize: big ? 10 : 9,
        className: 'axis-own-mark',
      }),
    ],
  });
}
