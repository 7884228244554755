/**
 * The model filter of the dashboard's Models tab and the axis pages (issue 40): open weights
 * (yes, no or unknown), a parameter range and an organisation, read from the query, applied to
 * the model cards of `GET /api/model-cards`, and written back into every link so that moving
 * between the tab and the axis pages keeps it. A model a filter cannot judge (no parameter count
 * under a range, no organisation under an organisation) is left out and counted, never guessed:
 * the page says how many.
 */
import { GspcError } from '../core/errors.js';
import type { ModelCard } from '../core/board/model-card.js';

export const FILTER_KEYS = ['open_weights', 'min_params', 'max_params', 'org'] as const;

export interface ModelFilter {
  open_weights?: 'yes' | 'no' | 'unknown';
  /** Inclusive bounds on the parameter count. */
  min_params?: number;
  max_params?: number;
  /** The organisation exactly as the cards state it. */
  org?: string;
}

const SIZE = /^(\d+(?:\.\d+)?)([KMBT]?)$/i;
const SCALE: Record<string, number> = { '': 1, K: 1e3, M: 1e6, B: 1e9, T: 1e12 };

/** `7B`, `350M`, `1.5T` or a plain count; a bad one is `bad_query`. */
function parameterCount(key: string, v: string): number {
  const m = SIZE.exec(v.trim());
  if (!m) throw new GspcError('bad_query', `${key}: expected a parameter count such as 7B, 350M or 7000000000`);
  const n = Number(m[1]) * SCALE[m[2]!.toUpperCase()]!;
  // Rounding 0.5 up to 1 would filter on a count nobody asked for (decision PG8).
  if (n < 1) throw new GspcError('bad_query', `${key}: a parameter count is at least 1 (${v} is below)`);
  return Math.round(n);
}

/** The filter a query gives (keys absent or empty are no filter). */
export function readModelFilter(query: ReadonlyMap<string, string>): ModelFilter {
  const f: ModelFilter = {};
  const ow = query.get('open_weights');
  if (ow) {
    if (ow !== 'yes' && ow !== 'no' && ow !== 'unknown')
      throw new GspcError('bad_query', 'open_weights: expected yes, no or unknown');
    f.open_weights = ow;
  }
  const min = query.get('min_params');
  if (min) f.min_params = parameterCount('min_params', min);
  const max = query.get('max_params');
  if (max) f.max_params = parameterCount('max_params', max);
  if (f.min_params !== undefined && f.max_params !== undefined && f.min_params > f.max_params)
    throw new GspcError('bad_query', 'min_params is above max_params');
  const org = query.get('org');
  if (org) {
    if (org.length > 200) throw new GspcError('bad_query', 'org: at most 200 characters');
    f.org = org;
  }
  return f;
}

export const isFiltered = (f: ModelFilter) => Object.keys(f).length > 0;

/** Why a card is left out by the filter, or null when it is kept. */
export function filterOut(f: ModelFilter, card: Omit<ModelCard, 'model'>): 'unknown' | 'other' | null {
  if (f.open_weights !== undefined) {
    const ow = card.open_weights === undefined ? 'unknown' : card.open_weights ? 'yes' : 'no';
    if (ow !== f.open_weights) return 'other';
  }
  if (f.min_params !== undefined || f.max_params !== undefined) {
    if (card.parameters === undefined) return 'unknown';
    if (f.min_params !== undefined && card.parameters < f.min_params) return 'other';
    if (f.max_params !== undefined && card.parameters > f.max_params) return 'other';
  }
  if (f.org !== undefined) {
    if (card.organisation === undefined) return 'unknown';
    if (card.organisation !== f.org) return 'other';
  }
  return null;
}

/** The filter as a query string (`open_weights=yes&org=…`), '' without one; keys in a fixed order. */
export function filterQuery(f: ModelFilter): string {
  const q = new URLSearchParams();
  if (f.open_weights !== undefined) q.set('open_weights', f.open_weights);
  if (f.min_params !== undefined) q.set('min_params', String(f.min_params));
  if (f.max_params !== undefined) q.set('max_params', String(f.max_params));
  if (f.org !== undefined) q.set('org', f.org);
  return q.toString();
}

/** `href` with the filter's query added (`?` or `&`). */
export function withFilter(href: string, f: ModelFilter): string {
  const q = filterQuery(f);
  if (q === '') return href;
  return `${href}${href.includes('?') ? '&' : '?'}${q}`;
}

/** A parameter count for reading: `70.6B`, `350M`, `124,439` below a million. */
export function parametersText(n: number): string {
  for (const [suffix, scale] of [
    ['T', 1e12],
    ['B', 1e9],
    ['M', 1e6],
  ] as const)
    if (n >= scale) return `${Number((n / scale).toPrecision(3))}${suffix}`;
  return n.toLocaleString('en');
}

/** The filter in words, for the note above a filtered table. */
export function filterWords(f: ModelFilter): string {
  const parts: string[] = [];
  if (f.open_weights === 'yes') parts.push('open weights');
  if (f.open_weights === 'no') parts.push('weights not open');
  if (f.open_weights === 'unknown') parts.push('open weights unknown');
  // "1 parameter", never "1 parameters": the noun follows the count it ends on.
  const noun = (n: number) => (n === 1 ? 'parameter' : 'parameters');
  if (f.min_params !== undefined && f.max_params !== undefined)
    parts.push(`${parametersText(f.min_params)} to ${parametersText(f.max_params)} ${noun(f.max_params)}`);
  else if (f.min_params !== undefined) parts.push(`at least ${parametersText(f.min_params)} ${noun(f.min_params)}`);
  else if (f.max_params !== undefined) parts.push(`at most ${parametersText(f.max_params)} ${noun(f.max_params)}`);
  if (f.org !== undefined) parts.push(`organisation ${f.org}`);
  return parts.join(', ');
}
