/**
 * An axis page's forest plot (issue 29), from its island (the values its tables show): every
 * model with a parsed response, ranked, its Wilson interval as a line, its tie-group letters
 * beside it; own models grey hollow squares marked "own". The matrix is in heat-map.ts.
 */
import * as Plot from '@observablehq/plot';
import { MARK_COLOURS, type AxisIsland, type AxisModelPoint } from '../../dashboard-islands.js';
import { forestFrame, NARROW, rowNames } from './rows.js';

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
