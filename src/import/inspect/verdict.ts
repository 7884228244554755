/**
 * Inspect's per-sample score value as one binary verdict (docs/import.md, "Inspect AI", "Verdicts").
 * Inspect's own `value_to_float` maps C 1, I 0, P 0.5, N 0, numbers as numbers, yes/true 1 and
 * no/false 0. The board grades one exact label per item, so:
 * - `C` correct, `I` incorrect;
 * - `N`, an empty string, a missing value or NaN: unparsed (null); Inspect counts N as 0, and an
 *   unparsed row also counts wrong in the board's accuracy, so the two accuracies agree;
 * - numbers and booleans: correct iff the value is 1 (or true), incorrect iff 0 (or false);
 * - refused: `P` (partial credit has no exact-label equivalent, and importing it as wrong would
 *   silently lower the score Inspect reports), any other number (a continuous scorer such as
 *   `closeness_log` cannot be regraded by label equality once it gives 0.37), a dict of several
 *   metrics, and any string Inspect itself would not read as a score.
 */
import { GspcError } from '../../core/errors.js';

/** The verdict of one value: true, false, or null for unparsed. Throws the refusal for the rest. */
export function readVerdict(value: unknown, at: string): boolean | null {
  if (value === undefined || value === null || value === '' || value === 'N') return null;
  if (value === 'C' || value === true) return true;
  if (value === 'I' || value === false) return false;
  if (value === 'P')
    throw new GspcError(
      'import_refused',
      `${at}: the score is P (partial credit, counted 0.5 by Inspect); the board grades one exact label per item, so a run with partial credit is refused`,
    );
  if (typeof value === 'number') return numeric(value, at);
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (word === 'yes' || word === 'true') return true;
    if (word === 'no' || word === 'false') return false;
    if (word === 'nan') return null;
    if (word !== '' && Number.isFinite(Number(word))) return numeric(Number(word), at);
    throw new GspcError('import_refused', `${at}: the score value ${JSON.stringify(value)} is not one Inspect grades`);
  }
  throw new GspcError(
    'import_refused',
    `${at}: the score value is ${Array.isArray(value) ? 'a list' : 'an object of several metrics'}, not one verdict per item`,
  );
}

function numeric(value: number, at: string): boolean | null {
  if (Number.isNaN(value)) return null;
  if (value === 1) return true;
  if (value === 0) return false;
  throw new GspcError(
    'import_refused',
    `${at}: the score ${value} is neither 0 nor 1; a non-binary numeric scorer cannot be regraded by exact labels`,
  );
}
