/**
 * The paired sample of two models on one axis: the items both parsed, and the discordant ones
 * (one right, the other wrong) that the exact McNemar test reads (docs/methodology.md). Shared by
 * the board's separation and the east-west bench, so both pair items by one rule.
 */
import { OUTCOME_CORRECT, OUTCOME_WRONG, type ItemTable } from './item-table.js';

export interface PairedOutcomes {
  /** Items both models parsed. */
  paired: number;
  /** `first` right, `second` wrong. */
  b: number;
  /** `first` wrong, `second` right. */
  c: number;
  /** Both right (with b, c and the paired count, the whole 2×2 table). */
  both: number;
  /** Paired items whose content hashes differ between the models' rows: a pairing to refuse. */
  conflicts: number;
}

export function pairedOutcomes(table: ItemTable, first: string, second: string): PairedOutcomes {
  const a = table.columns.get(first)!.outcome;
  const z = table.columns.get(second)!.outcome;
  let b = 0;
  let c = 0;
  let both = 0;
  let paired = 0;
  let conflicts = 0;
  for (let i = 0; i < table.items.length; i++) {
    const x = a[i];
    const y = z[i];
    if ((x !== OUTCOME_CORRECT && x !== OUTCOME_WRONG) || (y !== OUTCOME_CORRECT && y !== OUTCOME_WRONG)) continue;
    if (table.hashConflicts.has(i) && table.hashesDiffer(i, first, second)) conflicts++;
    paired++;
    if (x === OUTCOME_CORRECT && y === OUTCOME_WRONG) b++;
    else if (x === OUTCOME_WRONG && y === OUTCOME_CORRECT) c++;
    else if (x === OUTCOME_CORRECT) both++;
  }
  return { paired, b, c, both, conflicts };
}
