/**
 * An axis page's accuracy-against-cost plot (issue 40), from its island (the values the
 * `axis-cost` table shows): each model with a cost, accuracy (y) with its Wilson interval against
 * cost per item (x) with its interval; dominated models a red ×, not-compared ones a grey
 * diamond, own models a grey hollow square. Cost runs on a log scale when the costs span more than
 * thirty-fold (cheap models would otherwise sit on top of each other at 0), linear from 0
 * otherwise (decision CV3). Names are placed beside their points where they fit without touching
 * another name, a point or the frame; a name that does not fit is left out (each mark keeps its
 * `<title>`, and the table names every model) rather than overlap (decision PG6).
 */
import * as Plot from '@observablehq/plot';
import type { AxisCostPoint, AxisIsland } from '../../dashboard-islands.js';
import { LABEL_OFFSET, labelPixels, NARROW } from './rows.js';
import { usd } from '../../usd.js';

const PUBLIC = '#0b57d0';
const DOMINATED = '#a8071a';
const GREY = '#4a4a4a';
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

const colour = (p: AxisCostPoint) => (p.own || p.dominated === null ? GREY : p.dominated ? DOMINATED : PUBLIC);

function label(p: AxisCostPoint): string {
  const state = p.own
    ? 'own model, never compared'
    : p.dominated === null
      ? 'not compared'
      : p.dominated
        ? `dominated by ${p.by.join(', ')}`
        : 'not dominated';
  const iv = p.costLo === null || p.costHi === null ? '' : ` (${usd(p.costLo)} to ${usd(p.costHi)})`;
  return `${p.model}: accuracy ${pct(p.accuracy)} (${pct(p.lo)} to ${pct(p.hi)}), ${usd(p.cost)} per item${iv}; ${state}`;
}

/** A name shortened in its middle to `max` characters. */
const short = (s: string, max: number) =>
  s.length <= max ? s : `${s.slice(0, Math.ceil((max - 1) / 2))}…${s.slice(s.length - Math.floor((max - 1) / 2))}`;

/** Ticks a reader can read on a log axis: powers of ten, with 2 and 5 between them when there are few. */
function logTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  const decades = Math.log10(hi / lo);
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++)
    for (const m of decades < 2.5 ? [1, 2, 5] : [1]) {
      const t = m * 10 ** e;
      if (t >= lo && t <= hi) out.push(t);
    }
  return out;
}

/**
 * The ticks whose labels stand at least a label's width plus 12 px from every other: powers of
 * ten first, then the 2× and 5× ticks where there is room, so a narrow axis keeps $0.001, not $0.0005.
 */
function spaced(ticks: number[], px: (t: number) => number): number[] {
  const decade = (t: number) => (Math.abs(Math.log10(t) - Math.round(Math.log10(t))) < 1e-9 ? 0 : 1);
  const kept: number[] = [];
  for (const t of [...ticks].sort((a, b) => decade(a) - decade(b)))
    if (kept.every((k) => Math.abs(px(t) - px(k)) >= labelPixels(Math.max(usd(t).length, usd(k).length)) + 12))
      kept.push(t);
  return kept.sort((a, b) => a - b);
}

interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}
const meets = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

export function axisCost(d: AxisIsland, width: number): SVGSVGElement | HTMLElement {
  const points = d.cost ?? [];
  const narrow = width < NARROW;
  const height = narrow ? 320 : 400;
  const m = { left: 48, right: narrow ? 14 : 24, top: 28, bottom: 48 };
  const costs = points.map((p) => p.cost);
  const min = Math.min(...costs);
  const max = Math.max(...points.map((p) => p.costHi ?? p.cost), ...costs);
  const log = min > 0 && max / min > 30;
  const x0 = log ? min / 1.6 : 0;
  const x1 = max * (log ? 1.6 : 1.08) || 1;
  // A log axis is drawn as log10 of the cost on a linear scale: Plot's log axis leaves the labels
  // of 5× ticks blank (d3's log tick format), and these ticks are chosen here.
  const tx = (v: number) => (log ? Math.log10(Math.min(x1, Math.max(x0, v))) : v);
  const plotW = width - m.left - m.right;
  const px = (t: number) => m.left + ((tx(t) - tx(x0)) / (tx(x1) - tx(x0) || 1)) * plotW;
  const ylo = Math.max(0, Math.floor(Math.min(...points.map((p) => p.lo)) * 10) / 10);
  const yhi = Math.min(1, Math.ceil(Math.max(...points.map((p) => p.hi)) * 10) / 10);
  const withCostIv = points.filter((p) => p.costLo !== null && p.costHi !== null);
  const of = (pred: (p: AxisCostPoint) => boolean) => points.filter(pred);
  const x = (p: AxisCostPoint) => tx(p.cost);
  const plot = Plot.plot({
    width,
    height,
    marginLeft: m.left,
    marginRight: m.right,
    marginTop: m.top,
    marginBottom: m.bottom,
    x: {
      domain: [tx(x0), tx(x1)],
      label: `Cost per item, USD${log ? ', log scale' : ''} →`,
      labelOffset: LABEL_OFFSET,
      grid: true,
      ...(log
        ? { ticks: spaced(logTicks(x0, x1), px).map(tx), tickFormat: (v: number) => usd(10 ** v) }
        : { ticks: narrow ? 3 : 6, tickFormat: usd }),
    },
    y: {
      domain: [ylo, yhi === ylo ? Math.min(1, ylo + 0.1) : yhi],
      label: '↑ Accuracy (Wilson 95% interval)',
      tickFormat: (y: number) => `${Math.round(y * 100)}%`,
      grid: true,
      ticks: narrow ? 4 : 6,
    },
    marks: [
      Plot.ruleX(points, {
        x,
        y1: 'lo',
        y2: 'hi',
        stroke: colour,
        strokeWidth: 1.5,
        className: 'axis-cost-accuracy-interval',
        title: label,
      }),
      Plot.ruleY(withCostIv, {
        y: 'accuracy',
        x1: (p: AxisCostPoint) => tx(p.costLo!),
        x2: (p: AxisCostPoint) => tx(p.costHi!),
        stroke: colour,
        strokeWidth: 1.5,
        className: 'axis-cost-cost-interval',
        title: label,
      }),
      Plot.dot(
        of((p) => !p.own && p.dominated === false),
        { x, y: 'accuracy', r: 5, fill: PUBLIC, className: 'axis-cost-point axis-cost-frontier', title: label },
      ),
      Plot.dot(
        of((p) => !p.own && p.dominated === true),
        {
          x,
          y: 'accuracy',
          r: 6,
          symbol: 'times',
          stroke: DOMINATED,
          strokeWidth: 2.5,
          className: 'axis-cost-point axis-cost-dominated',
          title: label,
        },
      ),
      Plot.dot(
        of((p) => !p.own && p.dominated === null),
        {
          x,
          y: 'accuracy',
          r: 5,
          symbol: 'diamond',
          stroke: GREY,
          strokeWidth: 2,
          fill: '#ffffff',
          className: 'axis-cost-point axis-cost-uncompared',
          title: label,
        },
      ),
      Plot.dot(
        of((p) => p.own),
        {
          x,
          y: 'accuracy',
          r: 5,
          symbol: 'square',
          stroke: GREY,
          strokeWidth: 2,
          fill: '#ffffff',
          className: 'axis-cost-point axis-cost-own',
          title: label,
        },
      ),
    ],
  });
  placeNames(plot, points, tx, { width, height, ...m, narrow });
  return plot;
}

type Scale = { apply(v: number): number };

/**
 * Each point's name beside it, greedily: the frontier first, then the rest, each at the first of
 * eight places around its point that stays inside the frame and clear of every point, every
 * interval line and every name placed so far (6 px along the line, PG6). Widths are the generous
 * estimate of rows.ts.
 */
function placeNames(
  plot: SVGSVGElement | HTMLElement,
  points: readonly AxisCostPoint[],
  tx: (v: number) => number,
  f: { width: number; height: number; left: number; right: number; top: number; bottom: number; narrow: boolean },
): void {
  const svg = plot instanceof SVGSVGElement ? plot : plot.querySelector('svg');
  const scale = (plot as unknown as { scale(n: string): Scale }).scale.bind(plot);
  if (!svg) return;
  const sx = scale('x');
  const sy = scale('y');
  const at = points.map((p) => ({ p, x: sx.apply(tx(p.cost)), y: sy.apply(p.accuracy) }));
  const taken: Box[] = at.flatMap(({ p, x, y }) => [
    { x0: x - 7, x1: x + 7, y0: y - 7, y1: y + 7 },
    { x0: x - 1.5, x1: x + 1.5, y0: sy.apply(p.hi), y1: sy.apply(p.lo) },
    ...(p.costLo === null || p.costHi === null
      ? []
      : [{ x0: sx.apply(tx(p.costLo)), x1: sx.apply(tx(p.costHi)), y0: y - 1.5, y1: y + 1.5 }]),
  ]);
  const order = (p: AxisCostPoint) => (p.own ? 2 : p.dominated === false ? 0 : p.dominated === null ? 1 : 3);
  const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
  g.setAttribute('class', 'axis-cost-names');
  for (const a of [...at].sort((u, v) => order(u.p) - order(v.p) || (u.p.rank ?? 1e9) - (v.p.rank ?? 1e9))) {
    const text = `${short(a.p.model, f.narrow ? 18 : 28)}${a.p.own ? ' (own)' : ''}`;
    const w = labelPixels(text.length);
    // Baseline positions, each box clear of the point's own 14 px: right, left, the four corners, above, below.
    const options: [number, number, 'start' | 'end' | 'middle'][] = [
      [a.x + 11, a.y + 4, 'start'],
      [a.x - 11, a.y + 4, 'end'],
      [a.x + 10, a.y - 8, 'start'],
      [a.x - 10, a.y - 8, 'end'],
      [a.x + 10, a.y + 16, 'start'],
      [a.x - 10, a.y + 16, 'end'],
      [a.x, a.y - 12, 'middle'],
      [a.x, a.y + 22, 'middle'],
    ];
    for (const [x, y, anchor] of options) {
      const left = anchor === 'start' ? x : anchor === 'end' ? x - w : x - w / 2;
      const box = { x0: left - 3, x1: left + w + 3, y0: y - 12, y1: y + 4 };
      const inside =
        box.x0 >= f.left && box.x1 <= f.width - f.right && box.y0 >= f.top && box.y1 <= f.height - f.bottom;
      if (!inside || taken.some((t) => meets(t, box))) continue;
      taken.push(box);
      const t = document.createElementNS('http://www.w3.org/2000/svg', 'text');
      t.setAttribute('x', String(x));
      t.setAttribute('y', String(y));
      t.setAttribute('text-anchor', anchor);
      t.setAttribute('fill', a.p.own || a.p.dominated === null ? GREY : a.p.dominated ? DOMINATED : '#1a1a1a');
      t.textContent = text;
      g.appendChild(t);
      break;
    }
  }
  svg.appendChild(g);
}
