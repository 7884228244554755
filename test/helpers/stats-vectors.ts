import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { vectorPath } from './repo.js';

/** The lines of test/vectors/stats/stats-vectors.jsonl whose `test` is `kind`. */
export function statsVectors<T extends { test: string }>(kind: T['test']): T[] {
  return readFileSync(vectorPath('stats', 'stats-vectors.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { test: string })
    .filter((v): v is T => v.test === kind);
}

/** The Wilson tolerance of vectors/stats/README.md: the references are correctly rounded. */
export function assertWilsonClose(actual: number, expected: number, what: string): void {
  const tolerance = 1e-15 + 1e-12 * Math.abs(expected);
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: got ${actual}, want ${expected}`);
}
