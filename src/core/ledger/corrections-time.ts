/**
 * The timestamps a correction entry records (specification, "Corrections ledger"): an ISO 8601
 * UTC datetime, an ISO date when only the day is known, or `UNRECORDED`. Each is read as an
 * interval of instants, so that detection and publication can be compared and bounded honestly:
 * a datetime is one instant, a date is the whole UTC day (its end, 24:00:00Z, is exclusive).
 */

/** The word an entry writes when a time was never recorded. */
export const UNRECORDED = 'UNRECORDED';

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** A recorded time: one instant, one UTC day, or nothing recorded. Instants are ms since the epoch. */
export type RecordedTime =
  | { kind: 'datetime'; text: string; at: number }
  | { kind: 'date'; text: string; start: number; end: number }
  | { kind: 'unrecorded' };

/** A span of possible instants; `hiOpen` when `hi` itself is excluded (the end of a day). */
export interface Instants {
  lo: number;
  hi: number;
  hiOpen: boolean;
}

/** Midnight UTC of a real calendar date `YYYY-MM-DD` (ms), or undefined (bad form, 2026-02-30). */
export function calendarDay(y: number, m: number, d: number): number | undefined {
  if (m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  const at = Date.UTC(y, m - 1, d);
  const back = new Date(at);
  // Date.UTC rolls 31 April over into 1 May; a real date survives the round trip unchanged.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return undefined;
  return at;
}

/** Midnight UTC of an ISO date text, or undefined when it is not a real `YYYY-MM-DD` date. */
export function isoDay(text: string): number | undefined {
  const m = DATE.exec(text);
  return m ? calendarDay(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
}

/**
 * Reads a recorded time; undefined when the text is none of the three forms (or names a
 * calendar day or clock time that does not exist). `UNRECORDED` is accepted only when allowed.
 */
export function readRecordedTime(text: string, allowUnrecorded: boolean): RecordedTime | undefined {
  if (text === UNRECORDED) return allowUnrecorded ? { kind: 'unrecorded' } : undefined;
  const day = isoDay(text);
  if (day !== undefined) return { kind: 'date', text, start: day, end: day + DAY_MS };
  const m = DATETIME.exec(text);
  if (!m) return undefined;
  const start = calendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
  const [h, min, s] = [Number(m[4]), Number(m[5]), Number(m[6])];
  // No leap seconds: a UTC instant written with :60 cannot be placed on the POSIX time line.
  if (start === undefined || h > 23 || min > 59 || s > 59) return undefined;
  const ms = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0'));
  return { kind: 'datetime', text, at: start + ((h * 60 + min) * 60 + s) * 1000 + ms };
}

/** The instants a recorded time allows; undefined for UNRECORDED. */
export function instantsOf(t: RecordedTime): Instants | undefined {
  if (t.kind === 'datetime') return { lo: t.at, hi: t.at, hiOpen: false };
  if (t.kind === 'date') return { lo: t.start, hi: t.end, hiOpen: true };
  return undefined;
}

/** Whether every instant of `a` is strictly before every instant of `b`. */
export function entirelyBefore(a: Instants, b: Instants): boolean {
  return a.hi < b.lo || (a.hi === b.lo && a.hiOpen);
}

/** The instants two spans share, or undefined when they share none. */
export function intersect(a: Instants, b: Instants): Instants | undefined {
  const lo = Math.max(a.lo, b.lo);
  const hi = Math.min(a.hi, b.hi);
  const hiOpen = a.hi === b.hi ? a.hiOpen || b.hiOpen : a.hi < b.hi ? a.hiOpen : b.hiOpen;
  if (lo > hi || (lo === hi && hiOpen)) return undefined;
  return { lo, hi, hiOpen };
}
