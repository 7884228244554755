/**
 * What the dashboard's plots share: the accuracy axis of the forest plots, the x label's offset,
 * and their row names: below {@link NARROW} pixels the names
 * go above each row (no y axis), so the plot keeps the width for its marks instead of scrolling;
 * on a wide screen the left margin is sized to the longest name, so no name is clipped.
 */
import * as Plot from '@observablehq/plot';

export const NARROW = 560;

/** Pixels a 12 px system-ui label of `chars` characters may need (generous: digits and capitals are wide). */
export const labelPixels = (chars: number) => Math.ceil(chars * 7.4);

/** The same for a bold label (capitals in bold run to about 8 px each). */
export const boldPixels = (chars: number) => Math.ceil(chars * 8.2);

/** On a phone, the margins beside a forest plot's frame (the names are above the rows). */
export const NARROW_MARGIN = 20;

/** The left margin that fits the longest of `names` as y-axis labels (with the tick and a gap). */
export function nameMargin(names: readonly string[], min = 60): number {
  return Math.max(min, labelPixels(Math.max(0, ...names.map((s) => s.length))) + 16);
}

/** How much higher a lifted row name goes: a line, so a label to its right gets the line below. */
export const LIFT = 15;

/**
 * The row names above each row on a phone. A name in `lifted` goes a line higher, so the label
 * the plot puts at the right of the name's usual line (a state) does not run into it; one
 * group either way, so the names stay in row order.
 */
export function rowNames(
  ys: string[],
  narrow: boolean,
  x: number,
  dy = -12,
  lifted: ReadonlySet<string> = new Set(),
): Plot.Markish[] {
  return narrow
    ? [
        Plot.text(ys, {
          y: (a: string) => a,
          x,
          dx: 4,
          dy,
          textAnchor: 'start',
          fontWeight: 600,
          fill: '#1a1a1a',
          text: (a: string) => a,
          className: 'dash-row-name',
          render(index, scales, values, dimensions, context, next) {
            const g = next?.(index, scales, values, dimensions, context) ?? null;
            const texts = g?.querySelectorAll('text') ?? [];
            [...index].forEach((i, k) => {
              const t = texts[k];
              const at = /translate\(([^,]+),([^)]+)\)/.exec(t?.getAttribute('transform') ?? '');
              if (t && at && lifted.has(ys[i]!))
                t.setAttribute('transform', `translate(${at[1]},${Number(at[2]) - LIFT})`);
            });
            return g;
          },
        }),
      ]
    : [];
}

/** The x label inside the svg, descenders included (Plot's default puts its box a pixel past the edge). */
export const LABEL_OFFSET = 34;

/** The accuracy axis of a forest plot, from `xmin` to 100 %. */
export function accuracyX(xmin: number, narrow: boolean) {
  return {
    domain: [xmin, 1],
    label: 'Accuracy (Wilson 95% interval) →',
    labelOffset: LABEL_OFFSET,
    tickFormat: (x: number) => `${Math.round(x * 100)}%`,
    grid: true,
    ticks: narrow ? 4 : 8,
  };
}

/**
 * The frame both forest plots share: one row per name, names in a margin sized to the longest
 * (above each row on a phone), the accuracy axis from `xmin` to 100 %.
 */
export function forestFrame(
  ys: string[],
  xmin: number,
  width: number,
  o: { rowHeight: number; minLeft: number; right: number; bottom: number; narrowRowHeight?: number },
) {
  const narrow = width < NARROW;
  return {
    width,
    height: 50 + (narrow ? (o.narrowRowHeight ?? 44) : o.rowHeight) * Math.max(ys.length, 1),
    marginLeft: narrow ? NARROW_MARGIN : nameMargin(ys, o.minLeft),
    marginRight: narrow ? NARROW_MARGIN : o.right,
    marginBottom: o.bottom,
    marginTop: narrow ? 24 : 20,
    x: accuracyX(xmin, narrow),
    y: { domain: ys, label: null, axis: narrow ? null : ('left' as const) },
  };
}
