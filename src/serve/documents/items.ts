/**
 * `GET /api/items`: the item explorer of one model-comparison axis (`svc.gspc-items/0.1`, issue 41
 * item 4), the JSON the explorer page reads and agents read.
 * - `?axis=&first=&second=[&side=first|second][&cursor=]`: the pair's 2×2 counts (the same a, b,
 *   c as the pair of `/api/models?axis=`, by the same pairing rule) and its discordant items of one
 *   side in item order (`first`: first right and second wrong, the b items; `second`: the c
 *   items), each with its gold, both labels and both responses, in pages of at most
 *   {@link PAGE_BYTES}.
 * - `?axis=&item=`: every model's outcome, label and response on one item, paged alike.
 * A cursor is `<scope>.<list>:<offset>` with a scope digest of the release and the query
 * (decision IX3), so a cursor from another release, pair or item is refused, never misread.
 * Built per request from the release's ItemTable (a pass over its items) and the published rows
 * (responses, item-responses.ts); nothing is fetched. Not mirrored (`paths` is empty, IX4).
 */
import { createHash } from 'node:crypto';
import {
  OUTCOME_CORRECT,
  OUTCOME_MISSING,
  OUTCOME_UNPARSED,
  OUTCOME_WRONG,
  type ItemTable,
} from '../../core/board/item-table.js';
import { GspcError } from '../../core/errors.js';
import { ITEM_ID_MAX } from '../../corpus/peritem-rows.js';
import { CACHE_CONTROL } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';
import { discordantList } from './discordant-lists.js';
import { built, type DocumentEntry } from './document.js';
import { type Index, RESPONSE_CHARS, responseIndex, responseOf } from './item-responses.js';
import { requiredAxis } from './models.js';

export const ITEMS_SCHEMA = 'svc.gspc-items/0.1';
/** The most a page's JSON may take (one entry always fits: responses are cut at RESPONSE_CHARS). */
export const PAGE_BYTES = 64 * 1024;
/** Model ids named in a `not_found` answer (the rest are counted). */
const KNOWN_NAMED = 50;

const QUERY = ['axis', 'first', 'second', 'side', 'item', 'cursor'] as const;

/**
 * The longest label, and gold label, a page gives whole; longer ones are cut there with
 * `label_truncated` / `gold_truncated`, and a gold list past {@link GOLD_LABELS} labels is cut to
 * them (review of issue 41: the corpus bounds no label, and 20 labels of 200 kB made a 4 MB
 * explorer page). The published rows hold every label whole.
 */
export const LABEL_CHARS = 500;
const GOLD_LABELS = 20;

/** Cut at `max` code units, never between the two halves of a surrogate pair. */
const cut = (s: string, max: number) => s.slice(0, /[\uD800-\uDBFF]/.test(s[max - 1]!) ? max - 1 : max);

function shownLabel(label: string | null): { label: string | null; label_truncated?: true } {
  if (label === null || label.length <= LABEL_CHARS) return { label };
  return { label: cut(label, LABEL_CHARS), label_truncated: true };
}

function shownGold(gold: string | string[]): { gold: string | string[]; gold_truncated?: true } {
  if (typeof gold === 'string')
    return gold.length <= LABEL_CHARS ? { gold } : { gold: cut(gold, LABEL_CHARS), gold_truncated: true };
  const long = gold.length > GOLD_LABELS || gold.some((g) => g.length > LABEL_CHARS);
  if (!long) return { gold };
  return {
    gold: gold.slice(0, GOLD_LABELS).map((g) => (g.length <= LABEL_CHARS ? g : cut(g, LABEL_CHARS))),
    gold_truncated: true,
  };
}
/** An item id may be up to 512 characters (docs/formats.md §1), past the 200 of other values. */
export const ITEMS_QUERY_MAX = { item: ITEM_ID_MAX } as const;

function tableOf(p: PreparedRelease, axis: string): ItemTable {
  const def = p.release.corpus.definitions.find((d) => d.axis === axis);
  const known = () => p.release.corpus.definitions.filter((d) => d.kind === 'model-comparison').map((d) => d.axis);
  if (def?.kind !== 'model-comparison') throw new GspcError('unknown_axis', 'unknown axis', { known: known() });
  const table = p.release.corpus.tables.get(axis);
  if (table === undefined)
    throw new GspcError('not_found', `axis '${axis}' publishes no per-item rows (aggregate results only)`, { axis });
  return table;
}

function modelOf(table: ItemTable, param: string, model: string): void {
  if (table.columns.has(model)) return;
  const all = [...table.columns.keys()].sort();
  throw new GspcError('not_found', `${param}: no model '${model}' has rows on this axis`, {
    known: all.slice(0, KNOWN_NAMED),
    known_total: all.length,
  });
}

function scopeOf(p: PreparedRelease, parts: readonly string[]): string {
  return createHash('sha256')
    .update([p.release.id, ...parts].join('\n'))
    .digest('hex')
    .slice(0, 8);
}

/** A pair's side, or one item: what a cursor's scope and list are taken from. */
export type ItemsView = { first: string; second: string; side: 'first' | 'second' } | { item: string };

const scopeParts = (axis: string, v: ItemsView) =>
  'item' in v ? [axis, '\u0000item', v.item] : [axis, v.first, v.second, v.side];

/**
 * The cursor naming `offset` in a view's list, as `page.next_cursor` names it: the explorer page
 * (src/pages) links pages of a fixed number of entries with it (decision XP3), one rule for both.
 */
export function itemsCursor(p: PreparedRelease, axis: string, v: ItemsView, offset: number): string {
  return `${scopeOf(p, scopeParts(axis, v))}.${'item' in v ? 'models' : v.side}:${offset}`;
}

/** The offset a cursor names in `list` (of `length` entries), or a 400 saying why not. */
function offsetOf(cursor: string | undefined, scope: string, list: string, length: number): number {
  if (cursor === undefined) return 0;
  const m = /^([0-9a-f]{8})\.([a-z]{1,20}):(\d{1,9})$/.exec(cursor);
  if (!m || m[2] !== list)
    throw new GspcError('bad_query', `cursor: expected a page.next_cursor of this query (<scope>.${list}:<offset>)`);
  if (m[1] !== scope)
    throw new GspcError(
      'bad_query',
      'cursor: from another release, axis, pair, side or item (the board may have been republished): start again without a cursor',
    );
  const offset = Number(m[3]);
  if (offset > length) throw new GspcError('bad_query', `cursor: the list has ${length} entries`);
  return offset;
}

/**
 * The document: `head` then as many `entries` from `offset` as fit in {@link PAGE_BYTES} (at
 * least one), with `page` saying where it starts and stops and the cursor to the next page.
 */
function paged(
  head: Record<string, unknown>,
  listName: string,
  cursorList: string,
  count: number,
  entryAt: (i: number) => unknown,
  offset: number,
  scope: string,
  cursor: string | undefined,
) {
  // The page object's largest form, so the page cannot pass the budget once it is filled in.
  const pageRoom = 200;
  let size = Buffer.byteLength(JSON.stringify({ ...head, [listName]: [] })) + pageRoom;
  const entries: unknown[] = [];
  let i = offset;
  for (; i < count; i++) {
    const e = entryAt(i);
    const bytes = Buffer.byteLength(JSON.stringify(e)) + 1;
    if (entries.length > 0 && size + bytes > PAGE_BYTES) break;
    entries.push(e);
    size += bytes;
  }
  const page = {
    cursor: cursor ?? null,
    next_cursor: i < count ? `${scope}.${cursorList}:${i}` : null,
    from: offset,
    to: i,
    of: count,
  };
  return { ...head, [listName]: entries, page };
}

const own = (p: PreparedRelease, model: string) => p.release.corpus.meta.own_models.includes(model);

function responsesNote(ix: Index | null) {
  return ix === null
    ? { available: false, reason: "no row of this axis carries a 'response' text: labels only" }
    : { available: true, max_chars: RESPONSE_CHARS };
}

function pairDocument(
  p: PreparedRelease,
  axis: string,
  table: ItemTable,
  q: ReadonlyMap<string, string>,
  ix: Index | null,
) {
  const first = q.get('first');
  const second = q.get('second');
  if (first === undefined || second === undefined)
    throw new GspcError('bad_query', 'first and second: both required (or item alone)');
  if (first === second) throw new GspcError('bad_query', 'first and second: two different models');
  modelOf(table, 'first', first);
  modelOf(table, 'second', second);
  const side = q.get('side') ?? 'first';
  if (side !== 'first' && side !== 'second') throw new GspcError('bad_query', 'side: first or second');
  const x = table.columns.get(first)!;
  const y = table.columns.get(second)!;
  const scope = scopeOf(p, scopeParts(axis, { first, second, side }));
  // The discordant items of the side, in item order (the order of the rows file), kept between
  // reads: a pass over every item is paid once, not once a page (decision R2-1). Kept under the
  // query itself, never the 8-hex scope, which a chosen pair could be made to share with another.
  const key = [p.release.id, axis, first, second, side].join('\n');
  const { counts: o, items: found } = discordantList(key, table, first, second, side);
  const offset = offsetOf(q.get('cursor'), scope, side, found.length);
  const labelled = (col: typeof x, idx: number) => ({
    ...shownLabel(table.labelOf(col, idx)),
    ...(ix !== null && responseOf(ix, col.model, idx)),
  });
  const head = {
    schema: ITEMS_SCHEMA,
    axis,
    first,
    second,
    // As /api/models's pair: an own model is in it (never ranked, outside the Holm family).
    own: own(p, first) || own(p, second),
    side,
    counts: { n_pairs: o.paired, a: o.both, b: o.b, c: o.c, d: o.paired - o.both - o.b - o.c, conflicts: o.conflicts },
    responses: responsesNote(ix),
  };
  return paged(
    head,
    'items',
    side,
    found.length,
    (k) => {
      const idx = found[k]!;
      return {
        item: table.items[idx],
        ...shownGold(table.goldLabels[idx]!),
        first: labelled(x, idx),
        second: labelled(y, idx),
      };
    },
    offset,
    scope,
    q.get('cursor'),
  );
}

const OUTCOME_WORD: Record<number, string> = {
  [OUTCOME_CORRECT]: 'correct',
  [OUTCOME_WRONG]: 'wrong',
  [OUTCOME_UNPARSED]: 'unparsed',
};

function itemDocument(
  p: PreparedRelease,
  axis: string,
  table: ItemTable,
  item: string,
  cursor: string | undefined,
  ix: Index | null,
) {
  const idx = table.indexOf(item);
  if (idx === -1) throw new GspcError('not_found', 'item: no such item on this axis', { axis });
  const cols = [...table.columns.values()]
    .filter((c) => idx < c.outcome.length && c.outcome[idx] !== OUTCOME_MISSING)
    .sort((u, v) => (u.model < v.model ? -1 : u.model > v.model ? 1 : 0));
  const scope = scopeOf(p, scopeParts(axis, { item }));
  const offset = offsetOf(cursor, scope, 'models', cols.length);
  const head = {
    schema: ITEMS_SCHEMA,
    axis,
    item,
    ...shownGold(table.goldLabels[idx]!),
    models_without_row: table.columns.size - cols.length,
    responses: responsesNote(ix),
  };
  return paged(
    head,
    'models',
    'models',
    cols.length,
    (k) => {
      const c = cols[k]!;
      return {
        model: c.model,
        own: own(p, c.model),
        outcome: OUTCOME_WORD[c.outcome[idx]!],
        ...shownLabel(table.labelOf(c, idx)),
        ...(ix !== null && responseOf(ix, c.model, idx)),
      };
    },
    offset,
    scope,
    cursor,
  );
}

function samplePaths(p: PreparedRelease): string[] {
  return p.release.corpus.definitions.flatMap((d) => {
    const table = d.kind === 'model-comparison' ? p.release.corpus.tables.get(d.axis) : undefined;
    if (table === undefined || table.items.length === 0) return [];
    const models = [...table.columns.keys()].sort();
    const out = [`/api/items?${new URLSearchParams({ axis: d.axis, item: table.items[0]! })}`];
    if (models.length >= 2)
      out.unshift(`/api/items?${new URLSearchParams({ axis: d.axis, first: models[0]!, second: models[1]! })}`);
    return out;
  });
}

export const itemsDocumentEntry: DocumentEntry = {
  id: 'items',
  route: '/api/items',
  query: QUERY,
  queryMax: ITEMS_QUERY_MAX,
  schema: ITEMS_SCHEMA,
  // Built per request (a page of a pair or an item), a function of the release and the query.
  cache: { kind: 'request', cacheControl: CACHE_CONTROL },
  // Every ordered pair, side, page and item is unbounded: `paths` names a bounded sample (the
  // first pair and the first item of each axis with rows) for the registry's checks and OpenAPI
  // validators, and a static mirror, which writes only per-release documents, writes none (IX4).
  paths: samplePaths,
  read: (ctx, req) => {
    const current = ctx.state.current();
    const q = req.query;
    const axis = requiredAxis(q, current);
    const table = tableOf(current, axis);
    const item = q.get('item');
    if (item !== undefined) {
      const extra = ['first', 'second', 'side'].filter((k) => q.has(k));
      if (extra.length > 0)
        throw new GspcError('bad_query', `item: not with ${extra.join(', ')} (one item, every model)`);
    }
    const answer = (ix: Index | null) =>
      built(
        item !== undefined
          ? itemDocument(current, axis, table, item, q.get('cursor'), ix)
          : pairDocument(current, axis, table, q, ix),
        CACHE_CONTROL,
      );
    // The first read of an axis builds its response index in slices (item-responses.ts); every
    // later read is answered synchronously. A query refused then is refused by the promise.
    const ix = responseIndex(current, axis, table);
    return ix instanceof Promise ? ix.then(answer) : answer(ix);
  },
};
