/**
 * The instants the service reads and writes: ISO 8601 in UTC, `Z`, seconds, an optional fraction
 * (up to nanoseconds, as harnesses write them). `Date.parse` alone is not a check: it rolls an
 * impossible date over (2025-02-30 is read as 2 March), so a board would state one day and every
 * computation on it use another.
 */
export const ISO_UTC_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/** Whether `s` has the form and names a moment that exists (no 2025-02-30, no 24:00:00, no :60). */
export function isIsoUtcInstant(s: string): boolean {
  if (!ISO_UTC_INSTANT.test(s)) return false;
  const t = Date.parse(s);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 19) === s.slice(0, 19);
}
