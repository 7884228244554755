/**
 * Epochs reduced to one row per item (`--epochs first|majority`), as they stream in any order.
 * McNemar pairs one binary outcome per item, so a sample run k times gives one row, not k
 * (log_streaming.eval: 2 samples x 2 epochs, n = 2).
 * - `first` (default): the row of the lowest epoch number, whatever the order in the ZIP.
 * - `majority`: correct when more than half the epochs are correct, incorrect when fewer than
 *   half are (unparsed epochs count as not correct); a tie takes the lowest epoch's outcome. The
 *   row kept is the lowest epoch whose outcome agrees with the majority, so label and verdict
 *   stay those of one real epoch, and provenance `epoch` names it.
 * Memory: a sample's epochs are held only until all `expected` of them have arrived (Inspect
 * writes them close together); with one epoch nothing is held. A sample id repeated in a log
 * thus reaches the importer as two rows of one item, which it refuses as a duplicate.
 */
import { GspcError } from '../../core/errors.js';
import type { ImportedRow } from '../imported.js';

export type EpochRule = 'first' | 'majority';

export class EpochReducer {
  readonly #pending = new Map<string, ImportedRow[]>();
  #items = 0;
  #meanSum = 0;

  constructor(
    private readonly rule: EpochRule,
    private readonly expected: number,
  ) {}

  /** Adds one epoch's row; returns the item's reduced row once all its epochs are in. */
  add(row: ImportedRow): ImportedRow | null {
    if (this.expected === 1) return row; // nothing to reduce, nor to average (the hot path)
    const rows = this.#pending.get(row.item) ?? [];
    if (rows.some((r) => r.provenance.epoch === row.provenance.epoch))
      throw new GspcError(
        'import_refused',
        `${row.at}: item ${row.item} epoch ${row.provenance.epoch} appears twice (sample ids 1 and "1" are the same item)`,
      );
    rows.push(row);
    if (rows.length < this.expected) {
      this.#pending.set(row.item, rows);
      return null;
    }
    this.#pending.delete(row.item);
    return this.#reduce(rows);
  }

  /**
   * Inspect's own figure for the epochs reduced so far (with more than one epoch): the mean over
   * items of each item's mean over its epochs (Inspect's default `mean` epoch reducer, then
   * `accuracy`; N counts 0). NaN before any item is complete.
   */
  meanOfEpochMeans(): number {
    return this.#meanSum / this.#items;
  }

  #reduce(rows: ImportedRow[]): ImportedRow {
    this.#items++;
    this.#meanSum += rows.filter((r) => r.verdict?.correct === true).length / rows.length;
    return reduce(rows, this.rule);
  }

  /** Items still short of epochs (a cancelled run), reduced from the epochs they have, in first-seen order. */
  *flush(): Generator<ImportedRow> {
    for (const rows of this.#pending.values()) yield this.#reduce(rows);
    this.#pending.clear();
  }
}

function reduce(rows: ImportedRow[], rule: EpochRule): ImportedRow {
  const byEpoch = [...rows].sort((a, b) => (a.provenance.epoch ?? 0) - (b.provenance.epoch ?? 0));
  const first = byEpoch[0]!;
  if (rule === 'first') return first;
  const correct = byEpoch.filter((r) => r.verdict?.correct === true).length;
  const majority = 2 * correct === byEpoch.length ? first.verdict?.correct === true : 2 * correct > byEpoch.length;
  return byEpoch.find((r) => (r.verdict?.correct === true) === majority)!;
}
