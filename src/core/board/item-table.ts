/**
 * A compact, column-oriented table of one axis's per-item rows: one outcome column per model
 * over interned item ids. Built row by row while a JSONL file is read, so a corpus of millions
 * of rows is held as small typed arrays rather than millions of objects.
 */
import { ItemFacets } from './item-facets.js';
import type { PerItemRow } from './model.js';
import type { RunSettings } from './run-settings.js';

export const OUTCOME_MISSING = 0;
export const OUTCOME_CORRECT = 1;
export const OUTCOME_WRONG = 2;
export const OUTCOME_UNPARSED = 3;

const UNPARSED_LABEL = -1;

/** The optional measurements a row may carry (docs/formats.md §1): tokens read, tokens written, time taken. */
export const USAGE_FIELDS = ['input_tokens', 'output_tokens', 'latency_ms'] as const;
export type UsageField = (typeof USAGE_FIELDS)[number];

/** One usage field of one model: its value per item index, NaN where the row does not carry it (unknown, never 0). */
export interface UsageColumn {
  values: Float64Array;
  /** Rows of the model that carry the field (its coverage). */
  rows: number;
}

/** Per-model column: outcome and extracted-label id per item index. */
export interface ModelColumn {
  model: string;
  outcome: Uint8Array;
  label: Int32Array;
  rows: number;
  /**
   * Usage fields, each allocated only when a row of this model carries it: an axis whose rows
   * carry none holds no more memory than before (issue 40).
   */
  usage?: Partial<Record<UsageField, UsageColumn>>;
  /**
   * How the model was run on this axis, from the corpus's `runs.json` (issue 40; absent: nothing
   * recorded, which is unknown). Set by the corpus reader once the rows are read.
   */
  settings?: RunSettings;
  /**
   * The interned `item_hash` of each of this model's rows (0: the row carries none), allocated
   * only once a row of the model carries one: two models' pairing is refused on an item only
   * where *their* hashes differ (review of issue 39: a third model's hash refused every pair).
   */
  hash?: Int32Array;
}

function grow<T extends Uint8Array | Int32Array>(a: T, size: number): T {
  if (size <= a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(size, a.length * 2));
  next.set(a);
  return next;
}

/** Grows a usage column; the new cells are NaN (unknown). */
function growUnknown(a: Float64Array, size: number): Float64Array {
  if (size <= a.length) return a;
  const next = new Float64Array(Math.max(size, a.length * 2, 1024)).fill(Number.NaN);
  next.set(a);
  return next;
}

/** A usage field's value on an item, NaN when the row does not carry it (or there is no row). */
export function usageAt(col: UsageColumn, idx: number): number {
  return idx < col.values.length ? col.values[idx]! : Number.NaN;
}

function recordUsage(col: ModelColumn, idx: number, field: UsageField, value: number): void {
  col.usage ??= {};
  let u = col.usage[field];
  if (u === undefined) u = col.usage[field] = { values: new Float64Array(0), rows: 0 };
  u.values = growUnknown(u.values, idx + 1);
  u.values[idx] = value;
  u.rows++;
}

export class ItemTable {
  readonly items: string[] = [];
  private readonly itemIndex = new Map<string, number>();
  /** Interned gold key per item (a label, or labels joined for an accepted list). */
  readonly gold: string[] = [];
  readonly goldLabels: (string | string[])[] = [];
  readonly itemHash: (string | undefined)[] = [];
  /** The cluster of each item (undefined when its rows carry none). */
  readonly cluster: (string | undefined)[] = [];
  /** How many rows carry a cluster and how many do not, with the first line of each. */
  readonly clusterRows = { with: 0, without: 0, firstWith: 0, firstWithout: 0 };
  /** Each item's tags and date (issue 41), allocated only once a row carries them. */
  readonly facets = new ItemFacets();
  /**
   * Items whose content hash differs between some two models. Only a candidate: a pair is refused
   * on such an item when its own two models' hashes differ ({@link hashesDiffer}).
   */
  readonly hashConflicts = new Set<number>();
  private readonly hashIndex = new Map<string, number>();
  private firstLine = new Int32Array(1024);
  readonly labels: string[] = [];
  private readonly labelIndex = new Map<string, number>();
  readonly columns = new Map<string, ModelColumn>();
  rowCount = 0;

  /**
   * Adds one row; returns a reason when the row contradicts an earlier one (the caller
   * reports it with the file and line), or undefined when it was added.
   */
  add(row: PerItemRow, line: number): { field: string; reason: string } | undefined {
    let idx = this.itemIndex.get(row.item);
    const goldKey = Array.isArray(row.gold) ? JSON.stringify([...row.gold].sort()) : row.gold;
    if (idx === undefined) {
      idx = this.items.length;
      this.items.push(row.item);
      this.itemIndex.set(row.item, idx);
      this.gold.push(goldKey);
      this.goldLabels.push(row.gold);
      this.itemHash.push(row.item_hash);
      this.cluster.push(row.cluster);
      this.firstLine = grow(this.firstLine, idx + 1);
      this.firstLine[idx] = line;
      if (row.tags !== undefined || row.item_date !== undefined) this.facets.note(idx, true, row.tags, row.item_date);
    } else {
      if (this.gold[idx] !== goldKey) {
        return {
          field: 'gold',
          reason: `gold label differs from line ${this.firstLine[idx]} for the same item '${row.item}'`,
        };
      }
      if (row.cluster !== undefined && this.cluster[idx] !== undefined && row.cluster !== this.cluster[idx])
        return {
          field: 'cluster',
          reason: `cluster differs from line ${this.firstLine[idx]} for the same item '${row.item}'`,
        };
      // Rows without tags or a date skip this unless some row of the axis carries one.
      const f = this.facets;
      if (f.used || row.tags !== undefined || row.item_date !== undefined) {
        const differs = f.note(idx, false, row.tags, row.item_date);
        if (differs !== undefined)
          return {
            field: differs,
            reason: `${differs === 'tags' ? 'tags differ' : 'item_date differs'} from line ${this.firstLine[idx]} for the same item '${row.item}' (the same on every row of an item, or absent on every one)`,
          };
      }
      if (this.cluster[idx] === undefined) this.cluster[idx] = row.cluster;
      const known = this.itemHash[idx];
      if (row.item_hash !== undefined && known !== undefined && known !== row.item_hash) this.hashConflicts.add(idx);
      else if (known === undefined && row.item_hash !== undefined) this.itemHash[idx] = row.item_hash;
    }
    let col = this.columns.get(row.model);
    if (!col) {
      col = { model: row.model, outcome: new Uint8Array(1024), label: new Int32Array(1024), rows: 0 };
      this.columns.set(row.model, col);
    }
    col.outcome = grow(col.outcome, idx + 1);
    col.label = grow(col.label, idx + 1);
    if (col.outcome[idx] !== OUTCOME_MISSING) {
      return {
        field: 'item',
        reason: `duplicate row for item '${row.item}' and model '${row.model}' (each pair may appear once; reduce epochs or filters first)`,
      };
    }
    if (row.label === null) {
      col.outcome[idx] = OUTCOME_UNPARSED;
      col.label[idx] = UNPARSED_LABEL;
    } else {
      const correct = Array.isArray(row.gold) ? row.gold.includes(row.label) : row.gold === row.label;
      col.outcome[idx] = correct ? OUTCOME_CORRECT : OUTCOME_WRONG;
      col.label[idx] = this.internLabel(row.label);
    }
    if (row.item_hash !== undefined) {
      let id = this.hashIndex.get(row.item_hash);
      if (id === undefined) this.hashIndex.set(row.item_hash, (id = this.hashIndex.size + 1));
      col.hash = grow(col.hash ?? new Int32Array(1024), idx + 1);
      col.hash[idx] = id;
    }
    col.rows++;
    this.rowCount++;
    // Three property reads on the hot path; the columns exist only once a row carries the field.
    if (row.input_tokens !== undefined) recordUsage(col, idx, 'input_tokens', row.input_tokens);
    if (row.output_tokens !== undefined) recordUsage(col, idx, 'output_tokens', row.output_tokens);
    if (row.latency_ms !== undefined) recordUsage(col, idx, 'latency_ms', row.latency_ms);
    const c = this.clusterRows;
    if (row.cluster === undefined) {
      if (c.without++ === 0) c.firstWithout = line;
    } else if (c.with++ === 0) c.firstWith = line;
    return undefined;
  }

  /** The index of an item id, or -1: a map lookup, not a scan (the explorer's one-item view at a million items). */
  indexOf(item: string): number {
    return this.itemIndex.get(item) ?? -1;
  }

  /** Whether two models' rows of an item carry different content hashes (both must carry one). */
  hashesDiffer(idx: number, first: string, second: string): boolean {
    const x = this.columns.get(first)?.hash;
    const y = this.columns.get(second)?.hash;
    const hx = x !== undefined && idx < x.length ? x[idx]! : 0;
    const hy = y !== undefined && idx < y.length ? y[idx]! : 0;
    return hx !== 0 && hy !== 0 && hx !== hy;
  }

  private internLabel(label: string): number {
    let id = this.labelIndex.get(label);
    if (id === undefined) {
      id = this.labels.length;
      this.labels.push(label);
      this.labelIndex.set(label, id);
    }
    return id;
  }

  /** The extracted label of a model on an item, or null when unparsed or missing. */
  labelOf(col: ModelColumn, idx: number): string | null {
    const o = col.outcome[idx];
    if (o === OUTCOME_MISSING || o === OUTCOME_UNPARSED) return null;
    return this.labels[col.label[idx]!] ?? null;
  }

  /**
   * The one gold class of an item: its gold label, or the label of a gold list whose accepted
   * labels are all the same. Undefined when the item accepts two or more distinct labels: it has
   * no single class for macro-F1 or the per-model TP/FP/TN/FN (docs/methodology.md §6).
   */
  goldClass(idx: number): string | undefined {
    const g = this.goldLabels[idx];
    if (typeof g === 'string') return g;
    if (g === undefined || g.length === 0) return undefined;
    return g.every((x) => x === g[0]) ? g[0] : undefined;
  }

  /** Items that accept two or more distinct labels (no single gold class). */
  goldListItems(): number {
    let n = 0;
    for (let i = 0; i < this.items.length; i++) if (this.goldClass(i) === undefined) n++;
    return n;
  }

  /** Distinct gold labels that occur on this axis (every label of a gold list included). */
  distinctGoldLabels(): Set<string> {
    const out = new Set<string>();
    for (const g of this.goldLabels) {
      if (Array.isArray(g)) g.forEach((x) => out.add(x));
      else out.add(g);
    }
    return out;
  }
}
