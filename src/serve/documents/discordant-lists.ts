/**
 * The discordant items of a pair's side for `/api/items` (issue 41 item 4), kept between reads.
 * Finding them is a pass over every item of the axis (and the pair's 2×2 counts another): about
 * 10 ms at 500,000 items. Without a store every page paid it again, so reading a side to its end
 * cost pages × items, and the explorer page, which reads up to 20 document pages for its 20
 * entries when responses are long, paid it up to 20 times a view: one client within the free
 * budget (3,000 a minute) could hold the event loop (review R2, decision R2-1). A side's list is
 * kept under its key (the release id, axis, pair and side in full: not the cursor's 8-hex scope,
 * whose collisions a reader choosing pairs could find and so poison another pair's list), most
 * recently used last, up to {@link MAX_HELD} item indices in all; a list larger than that is
 * built for its read only.
 */
import { OUTCOME_CORRECT, OUTCOME_WRONG, type ItemTable } from '../../core/board/item-table.js';
import { pairedOutcomes, type PairedOutcomes } from '../../core/board/paired-outcomes.js';

export interface SideList {
  counts: PairedOutcomes;
  /** Item indices where the side's model is right and the other wrong, in item order. */
  items: Int32Array;
}

/** Item indices held across every kept list: 16 MiB. */
const MAX_HELD = 1 << 22;
/** Lists kept at most, whatever their sizes (each also holds its counts and key). */
const MAX_LISTS = 256;

const kept = new Map<string, SideList>();
let held = 0;

function build(table: ItemTable, winner: string, loser: string, counts: PairedOutcomes): SideList {
  const win = table.columns.get(winner)!.outcome;
  const lose = table.columns.get(loser)!.outcome;
  const found: number[] = [];
  for (let i = 0; i < table.items.length; i++)
    if (win[i] === OUTCOME_CORRECT && lose[i] === OUTCOME_WRONG) found.push(i);
  return { counts, items: Int32Array.from(found) };
}

/** The side's list and the pair's counts, from the store when `key` was read before. */
export function discordantList(
  key: string,
  table: ItemTable,
  first: string,
  second: string,
  side: 'first' | 'second',
): SideList {
  const known = kept.get(key);
  if (known !== undefined) {
    kept.delete(key);
    kept.set(key, known);
    return known;
  }
  const counts = pairedOutcomes(table, first, second);
  const list = side === 'first' ? build(table, first, second, counts) : build(table, second, first, counts);
  if (list.items.length > MAX_HELD) return list;
  kept.set(key, list);
  held += list.items.length;
  for (const [key, old] of kept) {
    if (held <= MAX_HELD && kept.size <= MAX_LISTS) break;
    kept.delete(key);
    held -= old.items.length;
  }
  return list;
}
