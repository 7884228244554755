/**
 * Colours a plot computes itself, so the text printed on them can be chosen to read (WCAG 2.x,
 * 1.4.3: at least 4.5:1 for normal text). Between two colours, relative luminance as WCAG defines
 * it; on any background, black or white, whichever contrasts more, is at least 4.58:1.
 */
export type Rgb = readonly [number, number, number];

const channel = (v: number) => {
  const s = v / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};

/** WCAG 2.x relative luminance of an sRGB colour (0–255 channels). */
export function luminance([r, g, b]: Rgb): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The contrast ratio of two colours, from 1 to 21. */
export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const BLACK: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];

/** The text colour for a background: black or white, whichever contrasts more with it. */
export function inkOn(background: Rgb): '#000000' | '#ffffff' {
  return contrast(background, BLACK) >= contrast(background, WHITE) ? '#000000' : '#ffffff';
}

/** `from` at t = 0 to `to` at t = 1, each channel in sRGB. */
export function mix(from: Rgb, to: Rgb, t: number): Rgb {
  const u = Math.min(1, Math.max(0, t));
  return [0, 1, 2].map((i) => Math.round(from[i]! + (to[i]! - from[i]!) * u)) as unknown as Rgb;
}

export const css = ([r, g, b]: Rgb) => `rgb(${r}, ${g}, ${b})`;
