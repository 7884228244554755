/** The `equals` fact decides as `util.isDeepStrictEqual` did before src/core stopped importing node:util. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { evaluateFact } from '../../src/core/board/facts-row.js';

function holds(json: unknown, value: unknown): boolean {
  return evaluateFact({ op: 'equals', pointer: '', value }, { path: 'evidence.json', sha256: '', json }).holds;
}

/** A copy with every object's keys in reverse order: equal, though not in the same order. */
function reordered(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reordered);
  if (v === null || typeof v !== 'object') return v;
  // Object.fromEntries defines own properties (a "__proto__" key stays a key) and keeps -0, which
  // a JSON round trip would turn into 0.
  return Object.fromEntries(
    Object.entries(v)
      .reverse()
      .map(([k, x]) => [k, reordered(x)]),
  );
}

describe('equals fact', () => {
  it('agrees with util.isDeepStrictEqual on JSON values', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(json, json, (a, b) => holds(a, b) === isDeepStrictEqual(a, b)),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(json, (a) => holds(a, reordered(a)) && isDeepStrictEqual(a, reordered(a))),
      { numRuns: 500 },
    );
  });

  it('agrees on the cases that differ between loose and strict equality', () => {
    const cases: [unknown, unknown][] = [
      [0, -0],
      [-0, -0],
      [1, '1'],
      [null, {}],
      [[], {}],
      [{}, []],
      [
        [1, 2],
        [2, 1],
      ],
      [{ a: 1 }, { a: 1, b: undefined }],
      [{ a: [1, { b: null }] }, { a: [1, { b: null }] }],
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      [[null], []],
      [true, 1],
      [JSON.parse('{"__proto__": 1}'), JSON.parse('{"__proto__": 1}')],
      [JSON.parse('{"__proto__": 1}'), {}],
      [JSON.parse('-0'), 0],
      ['', ''],
      [[[]], [[]]],
    ];
    for (const [a, b] of cases)
      assert.equal(holds(a, b), isDeepStrictEqual(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  });
});
