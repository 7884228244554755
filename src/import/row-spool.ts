/**
 * The imported rows of one axis, serialised as corpus lines into a staged file while the runs
 * stream in, with a compact index: each item id once (a Map to a number), per model a Map of
 * item number → row number, and each row's byte offset. The rows themselves stay on disk, so
 * memory grows by tens of bytes per row, not by the row (docs/performance.md, "Import").
 */
import { GspcError } from '../core/errors.js';
import { goldKey } from './corpus-row.js';
import type { ImportedRow } from './imported.js';
import { StagedFile } from './staged-file.js';

export class RowSpool {
  readonly file: StagedFile;
  private readonly items = new Map<string, number>();
  /** The gold of each item (`goldKey`), the same on every row of the item. */
  private readonly itemGold: string[] = [];
  private readonly byModel = new Map<string, Map<number, number>>();
  private offsets: Float64Array = new Float64Array(1024);
  /** Every distinct gold label (for the axis's label menu). */
  readonly golds = new Set<string>();
  rows = 0;

  constructor(corpusDir: string, axis: string) {
    this.file = new StagedFile(corpusDir, `${axis}.spool`);
  }

  get itemCount(): number {
    return this.items.size;
  }

  get models(): string[] {
    return [...this.byModel.keys()];
  }

  add(row: ImportedRow, gold: string | string[], line: string): void {
    const key = goldKey(gold);
    let item = this.items.get(row.item);
    if (item === undefined) {
      item = this.items.size;
      this.items.set(row.item, item);
      this.itemGold.push(key);
    } else if (this.itemGold[item] !== key) {
      throw new GspcError(
        'import_refused',
        `${row.at} ${row.item}: gold ${JSON.stringify(gold)} differs from the gold ${this.itemGold[item]!.slice(1)} another row of this import gives the same item`,
      );
    }
    let rowsOfModel = this.byModel.get(row.model);
    if (rowsOfModel === undefined) this.byModel.set(row.model, (rowsOfModel = new Map()));
    if (rowsOfModel.has(item))
      throw new GspcError(
        'import_refused',
        `${row.at} ${row.item}: a second row for model ${row.model} in this import (one row per item and model; the same run given twice?)`,
      );
    rowsOfModel.set(item, this.rows);
    if (typeof gold === 'string') this.golds.add(gold);
    else for (const g of gold) this.golds.add(g);
    if (this.rows + 1 >= this.offsets.length) {
      const grown = new Float64Array(this.offsets.length * 2);
      grown.set(this.offsets);
      this.offsets = grown;
    }
    this.offsets[this.rows] = this.file.write(`${line}\n`);
    this.rows++;
    this.offsets[this.rows] = this.file.size;
  }

  /** The row number of (model, item) in this import, if it has one. */
  rowOf(model: string, item: string): number | undefined {
    const i = this.items.get(item);
    return i === undefined ? undefined : this.byModel.get(model)?.get(i);
  }

  /** The gold (`goldKey`) this import gives the item, if it has the item. */
  goldOf(item: string): string | undefined {
    const i = this.items.get(item);
    return i === undefined ? undefined : this.itemGold[i];
  }

  /** Row `n`'s line, newline included, read back from the staged file. */
  line(n: number): string {
    return this.file.read(this.offsets[n]!, this.offsets[n + 1]! - this.offsets[n]!);
  }
}
