/**
 * Every pair of models of an axis counted at once (issue 29: 4,950 pairs of 100 models over
 * 100,000 items): each model's parsed and correct items as bitsets, built once, so a pair's
 * 2×2 table is a few popcounts over the AND of two bitsets instead of a pass over its outcome
 * columns with a hash-conflict lookup per item. The same counts as `pairedOutcomes`
 * (test/board/paired-bitsets.test.ts checks them against it).
 */
import { OUTCOME_CORRECT, OUTCOME_WRONG, type ItemTable } from './item-table.js';
import type { PairedOutcomes } from './paired-outcomes.js';

/** Set bits of a 32-bit word (the classic SWAR popcount). */
function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

export class PairCounter {
  private readonly words: number;
  private readonly parsed = new Map<string, Uint32Array>();
  private readonly correct = new Map<string, Uint32Array>();
  private readonly conflicts: Uint32Array;
  private readonly anyConflict: boolean;

  constructor(private readonly table: ItemTable) {
    const n = table.items.length;
    this.words = (n + 31) >>> 5;
    for (const [model, col] of table.columns) {
      const p = new Uint32Array(this.words);
      const c = new Uint32Array(this.words);
      const o = col.outcome;
      for (let i = 0; i < n; i++) {
        const v = o[i];
        if (v === OUTCOME_CORRECT) {
          p[i >>> 5]! |= 1 << (i & 31);
          c[i >>> 5]! |= 1 << (i & 31);
        } else if (v === OUTCOME_WRONG) p[i >>> 5]! |= 1 << (i & 31);
      }
      this.parsed.set(model, p);
      this.correct.set(model, c);
    }
    this.conflicts = new Uint32Array(this.words);
    for (const i of table.hashConflicts) this.conflicts[i >>> 5]! |= 1 << (i & 31);
    this.anyConflict = table.hashConflicts.size > 0;
  }

  /** The 2×2 table of `first` against `second` on the items both parsed. */
  count(first: string, second: string): PairedOutcomes {
    const px = this.parsed.get(first)!;
    const py = this.parsed.get(second)!;
    const cx = this.correct.get(first)!;
    const cy = this.correct.get(second)!;
    const h = this.conflicts;
    let paired = 0;
    let b = 0;
    let c = 0;
    let both = 0;
    let conflicts = 0;
    for (let w = 0; w < this.words; w++) {
      const p = px[w]! & py[w]!;
      if (p === 0) continue;
      paired += popcount(p);
      const x = cx[w]! & p;
      const y = cy[w]! & p;
      b += popcount(x & ~y);
      c += popcount(y & ~x);
      both += popcount(x & y);
      if (this.anyConflict) {
        // Items where some two models' hashes differ: refused for this pair only if its own do.
        let m = p & h[w]!;
        while (m !== 0) {
          const low = m & -m;
          if (this.table.hashesDiffer((w << 5) + 31 - Math.clz32(low), first, second)) conflicts++;
          m ^= low;
        }
      }
    }
    return { paired, b, c, both, conflicts };
  }
}
