/**
 * The rules of the per-item fields `tags` and `item_date` (issue 41 item 1, docs/formats.md §1),
 * checked by hand like the rest of a row (peritem-rows.ts) and shared with `gspc import`, which
 * refuses a bad value at the harness's record rather than writing a corpus the reader refuses.
 */
import { isRealDay } from './field-schemas.js';
import { HIDDEN_TEXT_REASON, hasHiddenChars } from './display-text.js';

/** The most tags an item may carry (decision IT2). */
const MAX_TAGS = 32;
/** The longest tag, in characters (code points, so a tag in any script counts what a reader sees). */
const MAX_TAG_CHARS = 100;

const DATE_FORM = /^\d{4}-\d{2}(-\d{2})?$/;

/**
 * Values already found valid: a million-row file repeats a few dozen tags and dates, and the
 * checks (a regular expression per tag, a Date round trip per date) cost more than the parse.
 * Capped so that a file of a million distinct values does not grow them without bound.
 */
const MEMO_MAX = 4096;
const goodTags = new Set<string>();
const goodDates = new Set<string>();
function remember(memo: Set<string>, v: string): void {
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.add(v);
}

/** Why `v` is not a valid tag, or undefined when it is one. */
function tagProblem(v: unknown): string | undefined {
  if (typeof v === 'string' && goodTags.has(v)) return undefined;
  if (typeof v !== 'string' || v.length === 0) return 'must be a non-empty string';
  // Code points: a string of more than 2 × MAX_TAG_CHARS UTF-16 units is too long either way.
  if (v.length > MAX_TAG_CHARS && (v.length > 2 * MAX_TAG_CHARS || [...v].length > MAX_TAG_CHARS))
    return `must be at most ${MAX_TAG_CHARS} characters`;
  if (v.trim() !== v) return 'must not start or end with white space';
  if (hasHiddenChars(v)) return HIDDEN_TEXT_REASON;
  // One look, one tag: é written as e and a combining accent would be a second slice that reads
  // the same (review of issue 41), so a tag must be in Unicode's composed form (IT10).
  if (v.normalize('NFC') !== v)
    return `must be in Unicode normalization form C (composed): ${JSON.stringify(v.normalize('NFC'))} reads the same`;
  remember(goodTags, v);
  return undefined;
}

/** Why `v` is not a valid `tags` value, or undefined when it is one. */
export function tagsProblem(v: unknown): string | undefined {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_TAGS)
    return `must be a list of 1 to ${MAX_TAGS} tags (or absent: none)`;
  for (let i = 0; i < v.length; i++) {
    const wrong = tagProblem(v[i]);
    if (wrong !== undefined) return `tag ${i + 1} ${wrong}`;
    // At most 32 tags: a scan is cheaper than a Set per row of a million-row file.
    if (v.indexOf(v[i]) !== i) return `tag ${i + 1} ${JSON.stringify(v[i])} is listed twice: tags are distinct`;
  }
  return undefined;
}

/** Why `v` is not a valid `item_date`, or undefined when it is one. */
export function itemDateProblem(v: unknown): string | undefined {
  if (typeof v === 'string' && goodDates.has(v)) return undefined;
  if (typeof v !== 'string' || !DATE_FORM.test(v)) return 'must be a date, YYYY-MM-DD or YYYY-MM (or absent: unknown)';
  if (!isRealDay(v.length === 7 ? `${v}-01` : v)) return `${v} is not a real date`;
  remember(goodDates, v);
  return undefined;
}
