/** docs/decisions.md: every decision has an id of its own, so "decision X1" names one entry. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './helpers/repo.js';

/**
 * The ids that open an entry, in every form the file uses: a table row (`| M1 |`), a list item
 * (`- **MCP1.`, `- **C1 …`, `- CX1.`) or a paragraph (`F1. **…`).
 */
function decisionIds(markdown: string): { id: string; line: number }[] {
  const ids: { id: string; line: number }[] = [];
  markdown.split('\n').forEach((text, i) => {
    const m = /^(?:\| |- )?(?:\*\*)?([A-Z][A-Z0-9]*[0-9])(?:\.|,| \|| )/.exec(text);
    if (m) ids.push({ id: m[1]!, line: i + 1 });
  });
  return ids;
}

describe('docs/decisions.md', () => {
  const ids = decisionIds(readFileSync(join(repoRoot, 'docs', 'decisions.md'), 'utf8'));

  it('reads the entries of every section', () => {
    for (const id of [
      'M1',
      'E1',
      'I1',
      'A1',
      'P1',
      'F1',
      'C1',
      'R1',
      'CX1',
      'AJ1',
      'MCP1',
      'A2A1',
      'G1',
      'V1',
      'MP1',
      'D1',
      'H1',
    ]) {
      assert.ok(
        ids.some((e) => e.id === id),
        `no entry ${id} found: has the file's entry form changed?`,
      );
    }
  });

  it('gives every decision an id of its own', () => {
    const first = new Map<string, number>();
    const twice: string[] = [];
    for (const { id, line } of ids) {
      const seen = first.get(id);
      if (seen === undefined) first.set(id, line);
      else twice.push(`${id} (lines ${seen} and ${line})`);
    }
    assert.deepEqual(twice, [], `decision ids used twice: ${twice.join(', ')}`);
  });

  it('finds a repeated id', () => {
    assert.deepEqual(
      decisionIds('| M1 | a | b |\n- **M1. again.**\nF1. **x**\n').map((e) => e.id),
      ['M1', 'M1', 'F1'],
    );
  });
});
