/** PairCounter (bitsets and popcounts) gives exactly the counts of pairedOutcomes (a pass per pair). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ItemTable } from '../../src/core/board/item-table.js';
import { PairCounter } from '../../src/core/board/paired-bitsets.js';
import { pairedOutcomes } from '../../src/core/board/paired-outcomes.js';

describe('PairCounter', () => {
  it('agrees with pairedOutcomes on random tables (missing, unparsed, right, wrong, hash conflicts; any length)', () => {
    const cell = fc.constantFrom('missing', 'unparsed', 'right', 'wrong', 'right-conflict');
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.array(fc.array(cell, { minLength: 100, maxLength: 100 }), { minLength: 2, maxLength: 4 }),
        (items, models) => {
          const table = new ItemTable();
          let line = 0;
          models.forEach((cells, m) => {
            for (let i = 0; i < items; i++) {
              const v = cells[i]!;
              if (v === 'missing') continue;
              const hash = v === 'right-conflict' && m > 0 ? 'f'.repeat(64) : 'a'.repeat(64);
              table.add(
                {
                  item: `i${i}`,
                  model: `m${m}`,
                  gold: 'A',
                  label: v === 'unparsed' ? null : v === 'wrong' ? 'B' : 'A',
                  item_hash: hash,
                },
                ++line,
              );
            }
          });
          const counter = new PairCounter(table);
          const names = [...table.columns.keys()];
          for (const x of names)
            for (const y of names) if (x !== y) assert.deepEqual(counter.count(x, y), pairedOutcomes(table, x, y));
        },
      ),
      { numRuns: 200, seed: 29 },
    );
  });
});
