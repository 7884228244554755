/**
 * A board of many axes in pages an agent answer can hold (review of issue 39: 150 axes gave MCP
 * `gspc_board` 153 kB and A2A `board-summary` 184 kB): every key of the board but `axes` on each
 * page, then the axes from the cursor, as many as fit, and `page.next_cursor` for the rest (the
 * cursor grammar of models-pages.ts, list `axes`, scoped to the release). A page, like a board
 * whose per-model lists were cut, is not the signed document: GET /api/gspc is.
 */
import { jsonBytes } from './answer-budget.js';
import { fillPage, type Page, readCursor } from './models-pages.js';

type Json = Record<string, unknown>;

export function pageBoard(
  board: Json,
  cursor: string | undefined,
  budget: number,
  scope: string,
): { value: Json & { axes: unknown[]; page: Page }; page: Page } | { error: string } {
  const lists = [['axes', (board.axes ?? []) as unknown[]]] as const;
  const at = readCursor(lists, cursor, scope);
  if ('error' in at) return at;
  // Room for the head (every other key) and the page object itself.
  const room = budget - jsonBytes({ ...board, axes: [] }) - 400;
  const { taken, page } = fillPage(lists, at, room, cursor ?? null, scope);
  return { value: { ...board, axes: taken.axes!, page }, page };
}

/** "Axes 1 to 60 of 150": which axes a page holds. */
export function pageWords(page: Page): string {
  const span = page.lists.axes;
  return span ? `axes ${span.from + 1} to ${span.to} of ${span.of}` : 'no axis';
}
