/**
 * The imported rows of one axis, serialised as corpus lines into a staged file while the runs
 * stream in, with a compact index: each item id once (a Map to an item number), per item the
 * number of its gold (golds are interned), per model a typed array item number → row number + 1,
 * and each row's byte offset. The rows themselves stay on disk, so memory grows by the item id
 * and a few numbers per row, not by the row (docs/performance.md §9).
 */

/** A growable typed array (doubling), so a million entries are a few flat megabytes. */
function grown<T extends Int32Array | Float64Array>(a: T, need: number): T {
  if (need < a.length) return a;
  let len = a.length;
  while (len <= need) len *= 2;
  const b = new (a.constructor as new (n: number) => T)(len);
  b.set(a);
  return b;
}
import { GspcError } from '../core/errors.js';
import { goldKey, goldText } from './corpus-row.js';
import { facetKey, facetText } from './facet-key.js';
import type { ImportedRow } from './imported.js';
import { StagedFile } from './staged-file.js';

export class RowSpool {
  readonly file: StagedFile;
  private readonly items = new Map<string, number>();
  /** Interned golds: `goldKey` → number, and back. */
  private readonly goldIds = new Map<string, number>();
  private readonly goldKeys: string[] = [];
  /** Item number → gold number (the same gold on every row of the item). */
  private itemGold = new Int32Array(1024);
  /** Per model: item number → row number + 1 (0: no row). */
  private readonly byModel = new Map<string, Int32Array>();
  private offsets = new Float64Array(1024);
  /** Every distinct gold label (for the axis's label menu). */
  readonly golds = new Set<string>();
  /** Item number → its cluster (`--cluster`); empty when the import gives none. */
  private readonly itemCluster: string[] = [];
  /** Item number → its tags and date as a `facetKey`; unset for an item whose rows carry neither. */
  private readonly itemFacet: string[] = [];
  /** Whether this import's rows carry a cluster (all of them or none: one reader, one option). */
  clustered = false;
  rows = 0;

  constructor(corpusDir: string, axis: string) {
    this.file = new StagedFile(corpusDir, `${axis}.spool`);
  }

  get itemCount(): number {
    return this.items.size;
  }

  add(row: ImportedRow, gold: string | string[], line: string): void {
    const key = goldKey(gold);
    let goldId = this.goldIds.get(key);
    if (goldId === undefined) {
      goldId = this.goldKeys.length;
      this.goldIds.set(key, goldId);
      this.goldKeys.push(key);
      if (typeof gold === 'string') this.golds.add(gold);
      else for (const g of gold) this.golds.add(g);
    }
    let item = this.items.get(row.item);
    const first = item === undefined;
    if (item === undefined) {
      item = this.items.size;
      this.items.set(row.item, item);
      this.itemGold = grown(this.itemGold, item);
      this.itemGold[item] = goldId;
    } else if (this.itemGold[item] !== goldId) {
      throw new GspcError(
        'import_refused',
        `${row.at} ${row.item}: gold ${JSON.stringify(gold)} differs from the gold ${goldText(this.goldKeys[this.itemGold[item]!]!)} another row of this import gives the same item`,
      );
    }
    if (row.cluster !== undefined) {
      this.clustered = true;
      const theirs = this.itemCluster[item];
      if (theirs === undefined) this.itemCluster[item] = row.cluster;
      else if (theirs !== row.cluster)
        throw new GspcError(
          'import_refused',
          `${row.at} ${row.item}: cluster ${JSON.stringify(row.cluster)} differs from the cluster ${JSON.stringify(theirs)} another row of this import gives the same item`,
        );
    }
    const facet = row.tags === undefined && row.item_date === undefined ? '' : facetKey(row.tags, row.item_date);
    if (first) {
      if (facet !== '') this.itemFacet[item] = facet;
    } else if ((this.itemFacet[item] ?? '') !== facet)
      throw new GspcError(
        'import_refused',
        `${row.at} ${row.item}: ${facetText(facet)} differ from the ${facetText(this.itemFacet[item] ?? '')} another row of this import gives the same item: rows of one item must agree on both`,
      );
    let rowsOfModel = this.byModel.get(row.model) ?? new Int32Array(1024);
    if (rowsOfModel[item] !== undefined && rowsOfModel[item] !== 0)
      throw new GspcError(
        'import_refused',
        `${row.at} ${row.item}: a second row for model ${row.model} in this import (one row per item and model; the same run given twice?)`,
      );
    rowsOfModel = grown(rowsOfModel, item);
    rowsOfModel[item] = this.rows + 1;
    this.byModel.set(row.model, rowsOfModel);
    this.offsets = grown(this.offsets, this.rows + 1);
    this.offsets[this.rows] = this.file.write(`${line}\n`);
    this.rows++;
    this.offsets[this.rows] = this.file.size;
  }

  /** The row number of (model, item) in this import, if it has one. */
  rowOf(model: string, item: string): number | undefined {
    const i = this.items.get(item);
    const r = i === undefined ? 0 : (this.byModel.get(model)?.[i] ?? 0);
    return r === 0 ? undefined : r - 1;
  }

  /** The gold (`goldKey`) this import gives the item, if it has the item. */
  goldOf(item: string): string | undefined {
    const i = this.items.get(item);
    return i === undefined ? undefined : this.goldKeys[this.itemGold[i]!];
  }

  /** The cluster this import gives the item, if it gives the item one. */
  clusterOf(item: string): string | undefined {
    const i = this.items.get(item);
    return i === undefined ? undefined : this.itemCluster[i];
  }

  /** The tags and date this import gives the item, as a `facetKey` ('' for neither), if it has the item. */
  facetOf(item: string): string | undefined {
    const i = this.items.get(item);
    return i === undefined ? undefined : (this.itemFacet[i] ?? '');
  }

  /** Row `n`'s line, newline included, read back from the staged file. */
  line(n: number): string {
    return this.file.read(this.offsets[n]!, this.offsets[n + 1]! - this.offsets[n]!);
  }
}
