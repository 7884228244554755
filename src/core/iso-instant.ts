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

const WITH_ZONE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/;

/**
 * An ISO 8601 instant with seconds and a zone (`Z` or `±HH:MM`), as the UTC instant it names
 * (`toISOString`, milliseconds), or undefined when the text is not one or names a moment that
 * does not exist: the date and time are checked as written (no 2026-02-30, no 24:00:00, no :60)
 * and the offset is a real one (hours to 23, minutes to 59). What it returns parses back to the
 * same instant, so an operator's typo is refused instead of silently moved to another day.
 */
export function parseIsoInstant(text: string): string | undefined {
  const m = WITH_ZONE.exec(text);
  if (!m || !isIsoUtcInstant(`${m[1]}Z`)) return undefined;
  if (m[3] !== undefined && (Number(m[3]) > 23 || Number(m[4]) > 59)) return undefined;
  const t = Date.parse(text);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}
