/**
 * The rule of a contamination window (issue 41 item 3, docs/methodology.md §13): which items are
 * dated after a model's knowledge cutoff. Both dates may name a day (`YYYY-MM-DD`) or only a month
 * (`YYYY-MM`), as the corpus reader accepts them (real days, checked there). A month is a span of
 * days, and an item is after a cutoff only when it is after it whatever days the two months stand
 * for: the item's **earliest** possible day is later than the cutoff's **latest** possible day
 * (decision CW1). So an item of 2024-05 is not after a cutoff of 2024-05-15, nor of 2024-05; it
 * is after 2024-04 and after 2024-04-30. Never guessed the other way: a window that may hold an
 * item written before the cutoff would not be clean.
 */
import { itemMask } from './paired-bitsets.js';
import type { ItemTable } from './item-table.js';

/** The earliest day a date may stand for: the day itself, or the first of its month. */
export function earliestDay(date: string): string {
  return date.length === 7 ? `${date}-01` : date;
}

/** The latest day a date may stand for: the day itself, or the last of its month. */
export function latestDay(date: string): string {
  if (date.length !== 7) return date;
  const [y, m] = [Number(date.slice(0, 4)), Number(date.slice(5, 7))];
  // Day 0 of the next month is the last day of this one (a fixed date: no clock is read).
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${date}-${String(last).padStart(2, '0')}`;
}

/** Whether an item dated `itemDate` is strictly after a knowledge cutoff of `cutoff` (decision CW1). */
export function isAfterCutoff(itemDate: string, cutoff: string): boolean {
  // ISO days of four-digit years order as strings.
  return earliestDay(itemDate) > latestDay(cutoff);
}

/**
 * The items of an axis dated after a cutoff, as a bitset for PairCounter: an undated item is after
 * nothing. `earliest` holds each item's earliest day ('' when it carries no date), computed once
 * per axis by {@link itemEarliestDays}.
 */
export function windowMask(earliest: readonly string[], cutoff: string): Uint32Array {
  const end = latestDay(cutoff);
  return itemMask(earliest.length, (i) => earliest[i]! > end);
}

/** Each item's earliest possible day, '' for an undated item (an axis without dates: every item ''). */
export function itemEarliestDays(table: ItemTable): string[] {
  const f = table.facets;
  const n = table.items.length;
  if (!f.dated) return new Array<string>(n).fill('');
  const byDate = new Map(f.dates.map((d) => [d, earliestDay(d)]));
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const d = f.dateOf(i);
    out[i] = d === undefined ? '' : byDate.get(d)!;
  }
  return out;
}
