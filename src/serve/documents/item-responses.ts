/**
 * The `response` text of per-item rows, for the item explorer (`/api/items`, issue 41 item 4).
 * The ItemTable keeps no response (decision IX2): holding every response as a string would
 * multiply a large axis's memory. The published JSONL bytes of the axis are already held for
 * `/peritem/<axis>.jsonl`, so on the first explorer read of an axis one pass records where each
 * (model, item) row starts in those bytes (4 bytes a row, like the table's label column); a page
 * then parses only its own rows' lines. A response longer than {@link RESPONSE_CHARS} is cut
 * and says so, so a page stays bounded whatever a harness recorded.
 */
import type { ItemTable } from '../../core/board/item-table.js';
import type { PreparedRelease } from '../prepared.js';
import { driveInSlices } from './sliced-build.js';

/** The longest response given whole; longer ones are cut there, with `response_truncated`. */
export const RESPONSE_CHARS = 2000;

export interface ResponseText {
  /** The row's `response` when it is a string; null when the row carries none (or not text). */
  response: string | null;
  response_truncated?: true;
}

export interface Index {
  bytes: Buffer;
  /** Per model: 1 + the byte offset of its row's line per item index; 0 where it has no row. */
  starts: Map<string, Uint32Array>;
  /** Rows that carry a `response` string. */
  withResponse: number;
  /**
   * The response of each line over {@link LONG_LINE} bytes, cut when indexed, by the line's entry
   * in `starts`: a page parses no such line again (review R2, decision R2-2).
   */
  long: Map<number, ResponseText>;
}

const byCorpus = new WeakMap<object, Map<string, Index | null | Promise<Index | null>>>();

function lineAt(bytes: Buffer, start: number): string {
  let end = bytes.indexOf(10, start);
  if (end === -1) end = bytes.length;
  if (end > start && bytes[end - 1] === 13) end--;
  return bytes.toString('utf8', start, end);
}

/** The axis's published rows file, or undefined (an aggregate-only axis publishes none). */
function rowsFile(p: PreparedRelease, axis: string): Buffer | undefined {
  return p.release.corpus.files.find((f) => f.path === `peritem/${axis}.jsonl`)?.bytes;
}

/** Lines indexed between two looks at the clock. */
const LINES_PER_STEP = 2048;
/**
 * Bytes parsed between two looks at the clock, whatever the number of lines: 2,048 lines of
 * 100 kB responses (a reasoning model's) were 200 MB of JSON.parse in one step (decision R2-2).
 */
const BYTES_PER_STEP = 1 << 20;
/** A line longer than this has its response cut once, when indexed (decision R2-2). */
const LONG_LINE = 64 * 1024;

/** A row's `response` as a page gives it: null when not text, cut past {@link RESPONSE_CHARS}. */
function shown(response: unknown): ResponseText {
  if (typeof response !== 'string') return { response: null };
  if (response.length <= RESPONSE_CHARS) return { response };
  // Never cut between the two halves of a surrogate pair (the text would not be valid UTF-16).
  const cut = /[\uD800-\uDBFF]/.test(response[RESPONSE_CHARS - 1]!) ? RESPONSE_CHARS - 1 : RESPONSE_CHARS;
  return { response: response.slice(0, cut), response_truncated: true };
}

/** The index built a step at a time: a step is at most {@link LINES_PER_STEP} lines or about {@link BYTES_PER_STEP} bytes. */
export function* buildSteps(bytes: Buffer, table: ItemTable): Generator<void, Index | null, void> {
  const itemIndex = new Map<string, number>();
  table.items.forEach((id, i) => itemIndex.set(id, i));
  const starts = new Map<string, Uint32Array>();
  const long = new Map<number, ResponseText>();
  let withResponse = 0;
  let start = 0;
  let lines = 0;
  let stepStart = 0;
  // The corpus reader accepted every line already (one JSON object per line): no checks again.
  while (start < bytes.length) {
    let end = bytes.indexOf(10, start);
    if (end === -1) end = bytes.length;
    const row = JSON.parse(lineAt(bytes, start)) as { item: string; model: string; response?: unknown };
    const idx = itemIndex.get(row.item);
    if (idx !== undefined) {
      let s = starts.get(row.model);
      if (s === undefined) starts.set(row.model, (s = new Uint32Array(table.items.length)));
      s[idx] = start + 1;
      if (end - start > LONG_LINE) long.set(start + 1, shown(row.response));
    }
    if (typeof row.response === 'string') withResponse++;
    start = end + 1;
    if (++lines % LINES_PER_STEP === 0 || start - stepStart >= BYTES_PER_STEP) {
      stepStart = start;
      yield;
    }
  }
  return withResponse === 0 ? null : { bytes, starts, withResponse, long };
}

/**
 * Whether some row might carry a `response` key: its name as written, or some `\u` escape
 * (a key may be spelt `"\u0072esponse"` in the file). A scan of the bytes, so an axis without responses
 * (the demo's) never pays the parse of every line.
 */
function mayCarryResponses(bytes: Buffer): boolean {
  return bytes.includes('"response"') || bytes.includes('\\u');
}

/**
 * The axis's response index: null when the axis has no rows file or no row carries a `response`
 * string; a promise while it is being built (readers of one axis share one build). Kept per
 * corpus, so a swap for key health or witness evidence keeps it; a build that fails is dropped,
 * so the next reader starts again.
 */
export function responseIndex(
  p: PreparedRelease,
  axis: string,
  table: ItemTable,
): Index | null | Promise<Index | null> {
  let m = byCorpus.get(p.release.corpus);
  if (m === undefined) byCorpus.set(p.release.corpus, (m = new Map()));
  const known = m.get(axis);
  if (known !== undefined) return known;
  const bytes = rowsFile(p, axis);
  // Node buffers stay under 4 GiB on 64-bit, so a Uint32 offset (+1) always fits.
  if (bytes === undefined || !mayCarryResponses(bytes)) {
    m.set(axis, null);
    return null;
  }
  const cache = m;
  const building = driveInSlices(buildSteps(bytes, table)).then(
    (ix) => {
      cache.set(axis, ix);
      return ix;
    },
    (e: unknown) => {
      cache.delete(axis);
      throw e;
    },
  );
  cache.set(axis, building);
  return building;
}

/** The response of one model's row of an item (null when the row carries none). */
export function responseOf(ix: Index, model: string, idx: number): ResponseText {
  const start = ix.starts.get(model)?.[idx] ?? 0;
  if (start === 0) return { response: null };
  const held = ix.long.get(start);
  if (held !== undefined) return held;
  return shown((JSON.parse(lineAt(ix.bytes, start - 1)) as { response?: unknown }).response);
}
