/**
 * `board.json` for an import: a scaffold when the corpus has none (issuer and doi are
 * placeholders the operator must edit before publishing for real), else the existing file with
 * the imported axes added to `axes` and `as_of` moved to the latest run. An unchanged board.json
 * is not rewritten, so its bytes (and formatting) stay the operator's.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SCAFFOLD_PLACEHOLDER } from '../core/board/model.js';
import { GspcError } from '../core/errors.js';

const PLACEHOLDER = SCAFFOLD_PLACEHOLDER;

export interface BoardUpdate {
  /** The new file's text, or null when nothing changes. */
  text: string | null;
  created: boolean;
}

const later = (a: string, b: string) => (Date.parse(b) > Date.parse(a) ? b : a);

export function boardFile(path: string, axes: readonly string[], asOf: string | null): BoardUpdate {
  if (!existsSync(path)) {
    if (asOf === null)
      throw new GspcError('import_refused', 'no as_of: the runs do not say when they were measured; pass --as-of');
    const board = {
      schema: 'svc.gspc-corpus/1',
      issuer: `${PLACEHOLDER}: the issuing organisation and its registry number`,
      doi: `${PLACEHOLDER}: the identifier of the citable dataset record`,
      as_of: asOf,
      measured_on: {
        model: 'Per-item rows of every measured model: /peritem/manifest.json lists each file with its SHA-256',
        date: `${PLACEHOLDER}: when and where the runs were made`,
        grading:
          "Exact-label match of the extracted label against the gold label, after the harness scorer's normalisation (gspc import checked it row by row against the harness's own verdicts); unparsed responses are reported, never scored as wrong",
      },
      own_models: [],
      axes: [...axes],
      limitations: [],
    };
    return { text: `${JSON.stringify(board, null, 2)}\n`, created: true };
  }
  let board: Record<string, unknown>;
  try {
    board = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new GspcError('import_refused', `board.json: invalid JSON (${(e as Error).message})`);
  }
  const listed = Array.isArray(board.axes) ? (board.axes as string[]) : [];
  const added = axes.filter((a) => !listed.includes(a));
  const asOfNow = typeof board.as_of === 'string' && asOf !== null ? later(board.as_of, asOf) : board.as_of;
  if (added.length === 0 && asOfNow === board.as_of) return { text: null, created: false };
  const next = { ...board, as_of: asOfNow, axes: [...listed, ...added] };
  return { text: `${JSON.stringify(next, null, 2)}\n`, created: false };
}

/** The corpus's `as_of` once `update` is written (its text, or board.json as it is), if it has one. */
export function asOfAfter(path: string, update: BoardUpdate): string | undefined {
  try {
    const board = JSON.parse(update.text ?? readFileSync(path, 'utf8')) as { as_of?: unknown };
    return typeof board.as_of === 'string' ? board.as_of : undefined;
  } catch {
    return undefined; // boardFile refused an unreadable board.json already
  }
}
