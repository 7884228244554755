/**
 * An axis's ItemTable restricted to the items carrying one tag (issue 41 item 2): the same
 * columns, gold, clusters, content hashes (per model, so a pair is refused on a slice's item
 * exactly where its two models' hashes differ) and run settings, over the slice's items in the
 * axis's item order. Everything the every-model document reads comes out as it would from a
 * corpus holding only those items' rows; usage columns are not carried (no slice document
 * reads them). Built from an index of each tag's items made once per axis, so a slice costs
 * its own items times the models, not a pass over the axis.
 */
import { ItemTable, type ModelColumn } from './item-table.js';

/** Each tag of an axis with its items' indexes, ascending; tags in sorted order (code units). */
export function itemsByTag(table: ItemTable): Map<string, Int32Array> {
  const lists = new Map<string, number[]>();
  const f = table.facets;
  if (f.tagged)
    for (let i = 0; i < table.items.length; i++) {
      const tags = f.tagsOf(i);
      if (tags === undefined) continue;
      for (const t of tags) {
        let l = lists.get(t);
        if (l === undefined) lists.set(t, (l = []));
        l.push(i);
      }
    }
  const out = new Map<string, Int32Array>();
  for (const t of [...lists.keys()].sort()) out.set(t, Int32Array.from(lists.get(t)!));
  return out;
}

/** The table of `items` (indexes of `table`, ascending) alone. */
export function sliceTable(table: ItemTable, items: Int32Array): ItemTable {
  const s = new ItemTable();
  const n = items.length;
  const remap = new Map<number, number>();
  for (let k = 0; k < n; k++) {
    const i = items[k]!;
    remap.set(i, k);
    s.items.push(table.items[i]!);
    s.gold.push(table.gold[i]!);
    s.goldLabels.push(table.goldLabels[i]!);
    s.itemHash.push(table.itemHash[i]);
    s.cluster.push(table.cluster[i]);
  }
  for (const i of table.hashConflicts) {
    const k = remap.get(i);
    if (k !== undefined) s.hashConflicts.add(k);
  }
  // Labels keep their ids: a slice shares the axis's label list rather than copying it.
  (s as { labels: string[] }).labels = table.labels;
  for (const col of table.columns.values()) {
    const outcome = new Uint8Array(n);
    const label = new Int32Array(n);
    const hash = col.hash === undefined ? undefined : new Int32Array(n);
    let rows = 0;
    for (let k = 0; k < n; k++) {
      const i = items[k]!;
      if (i >= col.outcome.length) continue;
      const o = col.outcome[i]!;
      if (o === 0) continue;
      outcome[k] = o;
      label[k] = col.label[i]!;
      if (hash !== undefined && i < col.hash!.length) hash[k] = col.hash![i]!;
      rows++;
    }
    // A model without a row on the slice is not a model of the slice (as in a corpus of its rows).
    if (rows === 0) continue;
    const sliced: ModelColumn = { model: col.model, outcome, label, rows };
    if (hash !== undefined) sliced.hash = hash;
    if (col.settings !== undefined) sliced.settings = col.settings;
    s.columns.set(col.model, sliced);
    s.rowCount += rows;
  }
  // Clustered standard errors are given on a slice exactly when on the whole axis: every row of
  // the axis carries a cluster (then every row of the slice does), or the slice says it is mixed.
  const c = table.clusterRows;
  if (c.with > 0 && c.without === 0) Object.assign(s.clusterRows, { with: s.rowCount, firstWith: c.firstWith });
  else
    Object.assign(s.clusterRows, {
      without: Math.max(1, s.rowCount),
      firstWithout: c.firstWithout,
      with: c.with > 0 ? 1 : 0,
    });
  return s;
}

/**
 * How many model pairs every slice of an axis holds together: per tag, C(k, 2) for the k models
 * with a row on the tag's items. Every slice's every pair is an object until the family across
 * slices is adjusted (slice-family.ts), so this is what the build holds at once; a server checks
 * it against a budget before building (review R1-3). A model's scan of a tag stops at its first row.
 */
export function slicePairCount(table: ItemTable, byTag: ReadonlyMap<string, Int32Array> = itemsByTag(table)): number {
  let pairs = 0;
  for (const items of byTag.values()) {
    let k = 0;
    for (const col of table.columns.values())
      for (const i of items)
        if (i < col.outcome.length && col.outcome[i] !== 0) {
          k++;
          break;
        }
    pairs += (k * (k - 1)) / 2;
  }
  return pairs;
}
