/**
 * An axis page's heat map (issue 29, issue 39): every pair as a cell, shaded by the Holm-adjusted
 * p (log scale, darker is smaller), SEPARATED cells marked S, UNTESTED U, own pairs grey (outside
 * the Holm family).
 *
 * Every text stays readable at any width: the shade is computed here, so the text on a cell is
 * black or white by the cell's luminance (WCAG AA, at least 4.5:1); the labels are laid out so no
 * two overlap. Where the cells are wide enough, the models are named on both sides, the top names
 * turned 45°; otherwise (a phone, or many models) the columns are numbered and each row is
 * `<number> <model>`, a name too long for half the width shortened in its middle, and when the
 * cells are thinner than a line only every k-th label is printed. Each label and each cell
 * carries its full name in a `<title>`.
 */
import * as Plot from '@observablehq/plot';
import type { AxisCell, AxisIsland } from '../../dashboard-islands.js';
import { css, inkOn, mix, type Rgb } from './contrast.js';
import { labelPixels, NARROW } from './rows.js';

/** The shade of p = 1 and of the axis's smallest p (Observable's Blues at its two ends). */
const LIGHT: Rgb = [247, 251, 255];
const DARK: Rgb = [8, 48, 107];
/** The smallest p shaded apart from zero: an exact p can underflow to 0 (the board gives log10_p). */
const FLOOR = 1e-12;
/** Pixels a 12 px label needs across its baseline, so two labels do not touch. */
const LINE = 15;
/** Cells at least this wide print their p. */
const PRINT_P = 36;

const cellLabel = (c: AxisCell) =>
  `${c.first} vs ${c.second}: ${c.state}${c.own ? ' (own model: unadjusted p, outside the Holm family)' : ''}` +
  `${c.p_holm !== null ? `, p (Holm) ${c.p_holm.toPrecision(2)}` : c.p !== null ? `, p ${c.p.toPrecision(2)}` : ''}`;

/** A p for a cell: three decimals, or one significant digit below 0.001. */
const pText = (p: number | null) => (p === null ? '' : p < 0.001 ? p.toExponential(0) : p.toFixed(3));

/** `name` in at most `max` characters, shortened in its middle (the ends tell models apart). */
function shortened(name: string, max: number): string {
  if (name.length <= max) return name;
  const head = Math.ceil((max - 1) / 2);
  return `${name.slice(0, head)}…${name.slice(name.length - (max - 1 - head))}`;
}

interface Layout {
  left: number;
  top: number;
  right: number;
  size: number;
  /** Columns numbered and rows `<number> <name>`, or names on both sides. */
  numbered: boolean;
  rowText: (model: string, i: number) => string;
  /** Print every k-th row label and every k-th column label. */
  rowStep: number;
  colStep: number;
}

/** Where the labels go and how large the cells are, so the plot fits `width` and no label overlaps another. */
function layout(order: readonly string[], width: number): Layout {
  const n = Math.max(order.length, 1);
  const longest = Math.max(1, ...order.map((s) => s.length));
  if (width >= NARROW) {
    const left = labelPixels(longest) + 16;
    const top = Math.ceil(labelPixels(longest) * 0.72) + 24;
    // A label turned 45° reaches right as far as it rises: room for the last column's.
    const right = top - 12;
    const size = Math.min(56, Math.floor((width - left - right) / n));
    // Turned 45°, two neighbours stand size·sin 45° apart: at 21 px or more that is a line.
    if (size * Math.SQRT1_2 >= LINE)
      return { left, top, right, size, numbered: false, rowText: (m) => m, rowStep: 1, colStep: 1 };
  }
  const digits = String(n).length;
  const maxName = Math.max(6, Math.floor((width * 0.5 - 16) / labelPixels(1)) - digits - 1);
  const rowText = (m: string, i: number) => `${i + 1} ${shortened(m, maxName)}`;
  const left = labelPixels(Math.max(...order.map((m, i) => rowText(m, i).length))) + 12;
  const right = 8;
  // On a phone the cells stay below PRINT_P: a 9 px p is for a wide screen (the table has them all).
  const size = Math.max(2, Math.min(width < NARROW ? PRINT_P - 2 : 56, Math.floor((width - left - right) / n)));
  return {
    left,
    top: 24,
    right,
    size,
    numbered: true,
    rowText,
    rowStep: Math.ceil(LINE / size),
    colStep: Math.ceil((labelPixels(digits) + 4) / size),
  };
}

type Href = (first: string, second: string) => string | undefined;

/**
 * A render transform that gives each cell's rect its pair's item explorer in `data-href`
 * (the rects are drawn in the order of the index).
 */
function linked(cells: readonly AxisCell[], hrefOf: Href | undefined) {
  if (hrefOf === undefined) return {};
  const render: Plot.RenderFunction = (index, scales, values, dimensions, context, next) => {
    const g = next!(index, scales, values, dimensions, context)!;
    const rects = [...g.children];
    index.forEach((i, k) => {
      const href = hrefOf(cells[i]!.first, cells[i]!.second);
      if (href !== undefined) rects[k]?.setAttribute('data-href', href);
    });
    return g;
  };
  return { render };
}

/** A click on a cell opens its `data-href` (with a modifier key or the middle button, in a new tab). */
function follow(event: Event): void {
  const e = event as MouseEvent;
  const href = (e.target as Element).closest('[data-href]')?.getAttribute('data-href');
  if (!href || e.button > 1) return;
  if (e.button === 1 || e.ctrlKey || e.metaKey || e.shiftKey) window.open(href, '_blank', 'noopener');
  else window.location.assign(href);
}

/**
 * `hrefOf`: the item explorer of a cell's pair (pair-links.ts); a cell with one opens it when
 * clicked. Not an `<a>`: the svg is one image (`role="img"`), and links inside an image are
 * interactive content a screen reader never reaches (axe-core: nested-interactive); a keyboard
 * and a screen reader reach the same pages through the pairs table's rows (decision XP2).
 */
export function axisMatrix(d: AxisIsland, width: number, hrefOf?: Href): SVGSVGElement | HTMLElement {
  const order = [...d.models.map((m) => m.model), ...d.noParsed.map((m) => m.model)];
  // Both orientations, so each row reads a model against every other.
  const cells = d.cells.flatMap((c) => [c, { ...c, first: c.second, second: c.first }]);
  const publicTested = cells.filter((c) => !c.own && c.state !== 'UNTESTED');
  const ownTested = cells.filter((c) => c.own && c.state !== 'UNTESTED');
  const untested = cells.filter((c) => c.state === 'UNTESTED');
  // Darkest at the axis's smallest p (or 0.01, when every p is larger), lightest at 1.
  const lowest = Math.min(0.01, Math.max(FLOOR, Math.min(1, ...publicTested.map((c) => c.p_holm ?? 1))));
  const shadeOf = (c: AxisCell) => mix(LIGHT, DARK, Math.log(Math.max(FLOOR, c.p_holm ?? 1)) / Math.log(lowest));
  const ink = (c: AxisCell) => inkOn(shadeOf(c));
  const l = layout(order, width);
  const index = new Map(order.map((m, i) => [m, i]));
  const rows = order.filter((_, i) => i % l.rowStep === 0);
  const cols = order.filter((_, i) => i % l.colStep === 0);
  const big = l.size >= PRINT_P;
  const plot = Plot.plot({
    width: l.left + l.size * order.length + l.right,
    height: l.top + l.size * order.length + 12,
    marginLeft: l.left,
    marginTop: l.top,
    marginRight: l.right,
    marginBottom: 12,
    x: { domain: order, axis: null },
    y: { domain: order, axis: null },
    marks: [
      Plot.cell(publicTested, {
        x: 'second',
        y: 'first',
        fill: (c: AxisCell) => css(shadeOf(c)),
        inset: 0.5,
        className: 'axis-cell axis-cell-public',
        ...linked(publicTested, hrefOf),
        ariaLabel: cellLabel,
        title: cellLabel,
      }),
      Plot.cell(ownTested, {
        x: 'second',
        y: 'first',
        fill: '#e4e4e4',
        inset: 0.5,
        className: 'axis-cell axis-cell-own',
        ...linked(ownTested, hrefOf),
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
        ...linked(untested, hrefOf),
        ariaLabel: cellLabel,
        title: cellLabel,
      }),
      Plot.text(rows, {
        y: (m: string) => m,
        frameAnchor: 'left',
        dx: -6,
        textAnchor: 'end',
        fill: '#1a1a1a',
        text: (m: string) => l.rowText(m, index.get(m)!),
        title: (m: string) => m,
        className: 'axis-label axis-label-row',
      }),
      Plot.text(cols, {
        x: (m: string) => m,
        frameAnchor: 'top',
        dy: -6,
        ...(l.numbered
          ? {
              textAnchor: 'middle' as const,
              lineAnchor: 'bottom' as const,
              text: (m: string) => String(index.get(m)! + 1),
            }
          : { textAnchor: 'start' as const, lineAnchor: 'middle' as const, rotate: -45, text: (m: string) => m }),
        fill: '#1a1a1a',
        title: (m: string) => m,
        className: 'axis-label axis-label-column',
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
                fill: ink,
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
          fill: ink,
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
  if (hrefOf !== undefined) {
    plot.addEventListener('click', follow);
    plot.addEventListener('auxclick', follow);
  }
  return plot;
}
