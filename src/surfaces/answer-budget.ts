/**
 * Every agent answer stays within {@link ANSWER_MAX_BYTES} of JSON, whatever the number of models
 * (issue 39: MCP `gspc_axis` answered 6.8 MB at 200 models). What does not fit is cut, said
 * where it was cut (`{shown, of}`), and reachable elsewhere: the every-model document page by page
 * (models-pages.ts), a board's per-model lists through `gspc_axis`'s pages or its HTTP route.
 */

/** The most bytes of JSON one agent answer (MCP result, A2A message, AG-UI event) carries. */
export const ANSWER_MAX_BYTES = 64 * 1024;

export const jsonBytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v));

/** What was left out of a list: the first `shown` of `of` entries are given. */
export interface Cut {
  shown: number;
  of: number;
}

/** The longest run of `items` from `from` whose JSON, as array elements, fits in `budget` bytes. */
export function fitRun<T>(items: readonly T[], budget: number, from = 0): T[] {
  const out: T[] = [];
  let used = 2; // the brackets
  for (let i = from; i < items.length; i++) {
    const size = jsonBytes(items[i]) + (out.length > 0 ? 1 : 0);
    if (used + size > budget) break;
    used += size;
    out.push(items[i]!);
  }
  return out;
}

/**
 * `doc` with its largest top-level arrays cut, largest first, until its JSON fits in `budget`
 * bytes; `cut` names each list cut. An object that cannot fit with every array emptied comes back
 * with them empty (the caller's budget is then wrong for it).
 */
export function fitLists<T extends Record<string, unknown>>(
  doc: T,
  budget: number,
): { value: T; cut: Record<string, Cut> } {
  const cut: Record<string, Cut> = {};
  let value: Record<string, unknown> = doc;
  for (let size = jsonBytes(value); size > budget; size = jsonBytes(value)) {
    const lists = Object.entries(value)
      .filter((e): e is [string, unknown[]] => Array.isArray(e[1]) && e[1].length > 0)
      .map(([k, v]) => [k, v, jsonBytes(v)] as const)
      .sort((x, y) => y[2] - x[2]);
    const largest = lists[0];
    if (!largest) break;
    const [key, list, bytes] = largest;
    const kept = fitRun(list, Math.max(2, bytes - (size - budget)));
    cut[key] = { shown: kept.length, of: cut[key]?.of ?? list.length };
    value = { ...value, [key]: kept };
  }
  return { value: value as T, cut };
}

/** A board row as an answer carries it. */
interface Row {
  axis?: unknown;
  per_model?: unknown[];
}

/**
 * A board document (`/api/gspc`) within `budget` bytes: if it is larger, every row's `per_model`
 * (a per-model list: one entry per model on a classification axis) is cut to the same number of
 * entries, the most that fits. `cut` is keyed `<axis>.per_model`. The rows' other fields are never
 * cut: a board of many axes that does not fit even then comes back with per_model empty.
 */
export function fitBoard<T extends Record<string, unknown>>(
  board: T,
  budget: number,
): { value: T; cut: Record<string, Cut> } {
  if (jsonBytes(board) <= budget) return { value: board, cut: {} };
  const axes = (Array.isArray(board.axes) ? board.axes : []) as Row[];
  const longest = Math.max(0, ...axes.map((r) => r.per_model?.length ?? 0));
  const withCap = (cap: number) =>
    ({
      ...board,
      axes: axes.map((r) =>
        r.per_model && r.per_model.length > cap ? { ...r, per_model: r.per_model.slice(0, cap) } : r,
      ),
    }) as T;
  // The largest cap that fits: a binary search over 0..longest.
  let [lo, hi] = [0, longest];
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (jsonBytes(withCap(mid)) <= budget) lo = mid;
    else hi = mid - 1;
  }
  const cut: Record<string, Cut> = {};
  for (const r of axes)
    if (r.per_model && r.per_model.length > lo)
      cut[`${String(r.axis)}.per_model`] = { shown: lo, of: r.per_model.length };
  return { value: withCap(lo), cut };
}

/** What was cut, in words: "jail.per_model: 120 of 1,001". */
export function cutText(cut: Record<string, Cut>): string {
  return Object.entries(cut)
    .map(([k, c]) => `${k}: ${c.shown.toLocaleString('en')} of ${c.of.toLocaleString('en')}`)
    .join('; ');
}
