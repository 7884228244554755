/**
 * Inspect's `match` scorer (inspect_ai/scorer/_match.py and `match_str` in _common.py), restated
 * so that exact equality of the imported label and gold reproduces Inspect's verdict.
 *
 * Inspect strips whitespace from answer and target, casefolds both (`ignore_case`, default
 * true), strips leading and trailing punctuation (`ignore_punctuation`, default true; older logs
 * like log_streaming.eval already score "No." correct against " No"), then tests the target at a
 * `location` of the answer: `end` (default: the answer ends with it), `begin`, `any` or `exact`.
 * With `numeric=True` and a numeric target, both sides become numbers written with 5 significant
 * digits (Python's `format(x, ".5g")`) after currency, thousands separators and `*`/`_` go, and
 * the answer's number is the last (end), first (begin) or any number in it.
 *
 * The label is the part of the answer Inspect compared: the normalised target it found at the
 * location, else the whole normalised answer (or, numeric, the number it extracted). Not
 * restated: Python's casefold beyond `toLowerCase` (ß, ligatures) and the Unicode numerals
 * (fractions, superscripts, CJK) Inspect's numeric parse accepts; a row where this differs shows
 * up as a disagreement with Inspect's own verdict, which the importer checks on every row.
 */

export type Location = 'begin' | 'end' | 'any' | 'exact';

export interface MatchOptions {
  location: Location;
  ignoreCase: boolean;
  ignorePunctuation: boolean;
  numeric: boolean;
}

/** Python's `string.whitespace + string.punctuation`, which `strip_punctuation` strips from both ends. */
const EDGE = /^[\s!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]+|[\s!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]+$/g;
/** What Inspect strips from a number token's edges before reading it (`_TOKEN_PUNCTUATION`). */
const TOKEN_EDGE = /^[!?:;()[\]{}'"`~<=>@#^&|]+|[!?:;()[\]{}'"`~<=>@#^&|]+$/g;
const FLOAT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/** The text normalisation (whitespace, case, edge punctuation); idempotent. */
export function matchText(s: string, o: MatchOptions): string {
  let v = s.trim();
  if (o.ignoreCase) v = v.toLowerCase();
  if (o.ignorePunctuation) v = v.replace(EDGE, '');
  return v;
}

/** One target as Inspect compares it: a normalised number when numeric and it reads as one, else text. */
export function matchTarget(target: string, o: MatchOptions): string {
  if (o.numeric) {
    const t = stripNumericPunctuation(caseOnly(target, o));
    if (parseNumber(t) !== null) return normaliseNumber(t);
  }
  return matchText(target, o);
}

/** The label: the gold the answer matched at the location, else what Inspect extracted from it. */
export function matchLabel(answer: string, golds: readonly string[], targets: readonly string[], o: MatchOptions) {
  const text = matchText(answer, o);
  for (const [i, gold] of golds.entries()) {
    const numericTarget = o.numeric && parseNumber(stripNumericPunctuation(caseOnly(targets[i]!, o))) !== null;
    if (numericTarget ? numbersIn(answer, o).includes(gold) : found(text, gold, o.location)) return gold;
  }
  if (o.numeric && golds.some((_, i) => parseNumber(stripNumericPunctuation(caseOnly(targets[i]!, o))) !== null)) {
    const numbers = numbersIn(answer, o);
    return numbers[0] ?? text;
  }
  return text;
}

function found(answer: string, target: string, location: Location): boolean {
  if (location === 'begin') return answer.startsWith(target);
  if (location === 'end') return answer.endsWith(target);
  if (location === 'exact') return answer === target;
  return answer.includes(target);
}

function caseOnly(s: string, o: MatchOptions): string {
  const v = s.trim();
  return o.ignoreCase ? v.toLowerCase() : v;
}

/** The numbers Inspect would compare, best first: the last (end), the first (begin), the whole (exact), all (any). */
function numbersIn(answer: string, o: MatchOptions): string[] {
  const v = stripNumericPunctuation(caseOnly(answer, o));
  if (o.location === 'exact') return [normaliseNumber(v)];
  const words = v.split(/\s+/).filter((w) => w !== '');
  if (o.location === 'end') words.reverse();
  const numbers = words.flatMap((w) => {
    const token = numberToken(w);
    return token === null ? [] : [normaliseNumber(token)];
  });
  return o.location === 'any' ? numbers : numbers.slice(0, 1);
}

function numberToken(word: string): string | null {
  if (parseNumber(word) !== null) return word;
  const stripped = word.replace(TOKEN_EDGE, '');
  return parseNumber(stripped) !== null ? stripped : null;
}

/** Inspect's `strip_numeric_punctuation`: drop $ , £ € * _, and a `.` not followed by a digit. */
export function stripNumericPunctuation(s: string): string {
  return s.replace(/[$,£€*_]/g, '').replace(/\.(?=\s|$|\D)/g, '');
}

/** A finite number in Python `float` syntax, or null (nan and inf are not numbers here, as in Inspect). */
function parseNumber(s: string): number | null {
  const t = s.trim();
  if (!FLOAT.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** Python's `format(float(s), ".5g")`; a string that is not a number is returned unchanged. */
export function normaliseNumber(s: string): string {
  const n = parseNumber(s);
  if (n === null) return s;
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, exp] = n.toExponential(4).split('e') as [string, string];
  const e = Number(exp);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace(/[-.]/g, '');
  let body: string;
  if (e < -4 || e >= 5) {
    const m = trimZeros(`${digits[0]}.${digits.slice(1)}`);
    body = `${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  } else if (e >= 0) {
    body = trimZeros(`${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`);
  } else {
    body = trimZeros(`0.${'0'.repeat(-e - 1)}${digits}`);
  }
  return negative ? `-${body}` : body;
}

function trimZeros(s: string): string {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}
