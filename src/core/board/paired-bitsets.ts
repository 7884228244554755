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
    this.conflicts = new Uint32Array(this.words);
    for (const i of table.hashConflicts) this.conflicts[i >>> 5]! |= 1 << (i & 31);
    this.anyConflict = table.hashConflicts.size > 0;
  }

  /**
   * A model's parsed and correct bitsets, built at its first pair rather than all in the
   * constructor: a server building pairs in slices of 10 ms (issues 39 and 41) then spreads the
   * pass over every model's outcome column (50-100 ms at 100 models × 100,000 items) across
   * its slices instead of holding the event loop for it at once. Same bits, same counts.
   */
  private bits(model: string): void {
    if (this.parsed.has(model)) return;
    const n = this.table.items.length;
    const p = new Uint32Array(this.words);
    const c = new Uint32Array(this.words);
    const o = this.table.columns.get(model)!.outcome;
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

  /** Items of the axis: the length a mask of {@link count} and {@link tally} is built for. */
  get items(): number {
    return this.table.items.length;
  }

  /**
   * The 2×2 table of `first` against `second` on the items both parsed; with `mask` (a bitset of
   * {@link items} bits, as {@link itemMask} builds), on those of them the mask holds only
   * (issue 41: a contamination window). The unmasked pass is unchanged: the mask is a second loop.
   */
  count(first: string, second: string, mask?: Uint32Array): PairedOutcomes {
    this.bits(first);
    this.bits(second);
    if (mask !== undefined) return this.countMasked(first, second, mask);
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

  /** {@link count} restricted to the items `mask` holds: the same words ANDed with the mask first. */
  private countMasked(first: string, second: string, mask: Uint32Array): PairedOutcomes {
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
      const p = px[w]! & py[w]! & mask[w]!;
      if (p === 0) continue;
      paired += popcount(p);
      const x = cx[w]! & p;
      const y = cy[w]! & p;
      b += popcount(x & ~y);
      c += popcount(y & ~x);
      both += popcount(x & y);
      let m = this.anyConflict ? p & h[w]! : 0;
      while (m !== 0) {
        const low = m & -m;
        if (this.table.hashesDiffer((w << 5) + 31 - Math.clz32(low), first, second)) conflicts++;
        m ^= low;
      }
    }
    return { paired, b, c, both, conflicts };
  }

  /** One model's parsed and correct items among those `mask` holds (its accuracy on a window). */
  tally(model: string, mask: Uint32Array): { parsed: number; correct: number } {
    this.bits(model);
    const p = this.parsed.get(model)!;
    const c = this.correct.get(model)!;
    let parsed = 0;
    let correct = 0;
    for (let w = 0; w < this.words; w++) {
      const m = p[w]! & mask[w]!;
      if (m === 0) continue;
      parsed += popcount(m);
      correct += popcount(c[w]! & m);
    }
    return { parsed, correct };
  }
}

/** A bitset of `n` items holding item i exactly when `holds(i)`: a mask for {@link PairCounter.count}. */
export function itemMask(n: number, holds: (i: number) => boolean): Uint32Array {
  const mask = new Uint32Array((n + 31) >>> 5);
  for (let i = 0; i < n; i++) if (holds(i)) mask[i >>> 5]! |= 1 << (i & 31);
  return mask;
}
