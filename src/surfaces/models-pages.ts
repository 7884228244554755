/**
 * The every-model document (`/api/models?axis=`) in pages an agent answer can hold (issue 39): the
 * document's head (every key but its lists) on every page, `leader_group` up to
 * {@link LEADER_NAMES} names, then as many models and pairs as fit, in the document's order, and a
 * cursor to the next page. The lists are walked as one sequence (every model, then every pair, then
 * any extra list the caller adds, such as a board row's `per_model`), so following `next_cursor`
 * from no cursor to null reads each entry exactly once. A cursor is `<scope>.<list>:<offset>`
 * (`3f09a1c2.pairs:1200`), its scope a digest of the release and the axis: a cursor kept across
 * a republish, or taken to another axis, is refused (start again), never read as a position in
 * other lists, which skipped and repeated entries (review of issue 39). One that names no list
 * or lies past its end is refused too.
 */
import { createHash } from 'node:crypto';
import type { ModelsDocument } from '../core/board/models-document.js';
import { jsonBytes } from './answer-budget.js';

/** Names of the leader's group on a page (the rest are counted; the document has them all). */
export const LEADER_NAMES = 50;

/** One list of a page: where it starts, where it stops (exclusive) and its length. */
export interface ListSpan {
  from: number;
  to: number;
  of: number;
}

export interface Page {
  cursor: string | null;
  next_cursor: string | null;
  lists: Record<string, ListSpan>;
}

/** A sequence of named lists walked by one cursor. */
export type Lists = readonly (readonly [name: string, items: readonly unknown[]])[];

export type Cursor = { list: number; offset: number };

/** The cursor's position, or why it is refused. */
export function readCursor(lists: Lists, cursor: string | undefined, scope: string): Cursor | { error: string } {
  if (cursor === undefined) return { list: 0, offset: 0 };
  const m = /^([0-9a-f]{8})\.([a-z_]{1,20}):(\d{1,9})$/.exec(cursor);
  const list = m ? lists.findIndex(([name]) => name === m[2]) : -1;
  if (!m || list === -1)
    return {
      error: `cursor '${cursor.slice(0, 40)}': expected a page.next_cursor (<scope>.<list>:<offset>, list one of ${lists.map(([n]) => n).join(', ')})`,
    };
  if (m[1] !== scope)
    return {
      error: `cursor '${cursor}' is from another release or another axis (the board may have been republished since): start again without a cursor`,
    };
  const offset = Number(m[3]);
  const length = lists[list]![1].length;
  if (offset > length)
    return { error: `cursor '${cursor}': ${lists[list]![0]} has ${length} ${length === 1 ? 'entry' : 'entries'}` };
  return { list, offset };
}

/** A cursor's scope: the release and the axis it pages (8 hex digits of their SHA-256). */
export function cursorScope(release: string, axis: string): string {
  return createHash('sha256').update(`${release}\n${axis}`).digest('hex').slice(0, 8);
}

/** The entries from `at` that fit in `budget` bytes, across lists; and the page's spans and next cursor. */
export function fillPage(
  lists: Lists,
  at: Cursor,
  budget: number,
  cursor: string | null,
  scope: string,
): { taken: Record<string, unknown[]>; page: Page } {
  const taken: Record<string, unknown[]> = Object.fromEntries(lists.map(([name]) => [name, []]));
  const spans: Record<string, ListSpan> = {};
  let used = 0;
  let next: Cursor | null = null;
  let { list, offset } = at;
  outer: for (; list < lists.length; list++, offset = 0) {
    const [name, items] = lists[list]!;
    const start = offset;
    for (; offset < items.length; offset++) {
      const size = jsonBytes(items[offset]) + 1;
      // Always one entry per page, so a page moves on whatever its budget.
      if (used + size > budget && used > 0) {
        spans[name] = { from: start, to: offset, of: items.length };
        next = { list, offset };
        break outer;
      }
      used += size;
      taken[name]!.push(items[offset]);
    }
    spans[name] = { from: start, to: items.length, of: items.length };
  }
  for (const [name, items] of lists) spans[name] ??= { from: items.length, to: items.length, of: items.length };
  // Mark lists before the cursor's as done, and after the stop as not reached.
  lists.forEach(([name, items], i) => {
    if (i < at.list) spans[name] = { from: items.length, to: items.length, of: items.length };
    if (next && i > next.list) spans[name] = { from: 0, to: 0, of: items.length };
  });
  return {
    taken,
    page: { cursor, next_cursor: next && `${scope}.${lists[next.list]![0]}:${next.offset}`, lists: spans },
  };
}

/** The document's head on a page: every key but its lists, `leader_group` up to LEADER_NAMES (and its UNTESTED ones). */
export function documentHead(doc: ModelsDocument): Record<string, unknown> {
  const { models: _models, pairs: _pairs, leader_group, leader_untested, ...head } = doc;
  return {
    ...head,
    leader_group: leader_group.slice(0, LEADER_NAMES),
    ...(leader_group.length > LEADER_NAMES && { leader_group_total: leader_group.length }),
    // Those of the names given whose pair with the leader is UNTESTED (bounded with them).
    leader_untested: leader_untested.filter((m) => leader_group.indexOf(m) < LEADER_NAMES),
  };
}
