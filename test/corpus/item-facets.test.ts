/**
 * The optional per-item fields `tags` and `item_date` (issue 41 item 1, docs/formats.md §1): a
 * bad value is refused at file:line with its field, rows of one item that disagree are refused
 * at the later row naming the first, the ItemTable holds each item's tags and date (interned),
 * an axis whose rows carry neither allocates nothing, and the board does not change by a byte.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildBoard, type LiveState } from '../../src/core/board/board.js';
import { GspcError, type CorpusProblem } from '../../src/core/errors.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { deriveRelease } from '../../src/release/derive.js';
import { demoCopy, demoCorpus } from '../helpers/tmp.js';

function problemsOf(dir: string): CorpusProblem[] {
  try {
    readCorpus(dir);
  } catch (e) {
    assert.ok(e instanceof GspcError && e.code === 'corpus_invalid', `expected corpus_invalid, got ${String(e)}`);
    return e.details!.problems as CorpusProblem[];
  }
  assert.fail('the corpus was accepted');
}

/** The demo's safety rows with `edit(row, lineIndex)` applied to each parsed line. */
function editedSafety(edit: (row: Record<string, unknown>, i: number) => void, dir = demoCopy()): string {
  const path = join(dir, 'peritem/safety.jsonl');
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const out = lines.map((l, i) => {
    const row = JSON.parse(l) as Record<string, unknown>;
    edit(row, i);
    return JSON.stringify(row);
  });
  writeFileSync(path, `${out.join('\n')}\n`);
  return dir;
}

/** The demo's safety rows' item ids, line by line. */
const safetyItems = readFileSync(join(demoCorpus, 'peritem/safety.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => (JSON.parse(l) as { item: string }).item);
/** The distinct items, in order of first line. */
const distinctItems = [...new Set(safetyItems)];
/** Tags and a date that depend on the item only, so every row of an item agrees. */
const subjectOf = (item: string) => `subject ${Number(item.replace(/\D/g, '')) % 3}`;
const dateOf = (item: string) => (Number(item.replace(/\D/g, '')) % 2 === 0 ? '2024-02-29' : '2023-11');

const bidi = 'Evil\u202eoC';
const zwsp = 'Open\u200bAI';

describe('per-item tags and item_date', () => {
  it('refuses a bad value at file:line, naming the field', () => {
    const bad: [number, string, unknown][] = [
      [3, 'tags', 'philosophy'],
      [4, 'tags', []],
      [5, 'tags', Array.from({ length: 33 }, (_, i) => `t${i}`)],
      [6, 'tags', ['x'.repeat(101)]],
      [7, 'tags', [bidi]],
      [8, 'tags', [zwsp]],
      [9, 'tags', ['a', 'a']],
      [10, 'tags', [' padded']],
      [11, 'tags', [7]],
      [12, 'item_date', '2024-02-30'],
      [13, 'item_date', '2024-13'],
      [14, 'item_date', '24-01-01'],
      [15, 'item_date', 20240101],
      [16, 'item_date', '2023-02-29'],
      [17, 'tags', ['cafe\u0301']],
    ];
    // The first row of each item gets the bad value: refused, it is not added, so the item's other rows agree.
    const items = new Map(bad.map(([i, f, v]) => [distinctItems[i]!, [f, v] as const]));
    const lines = new Map<string, number>();
    const dir = editedSafety((row, i) => {
      const hit = items.get(row.item as string);
      if (hit === undefined || lines.has(row.item as string)) return;
      row[hit[0]] = hit[1];
      lines.set(row.item as string, i + 1);
    });
    const problems = problemsOf(dir).filter((p) => p.file.endsWith('safety.jsonl'));
    for (const [i, field, value] of bad) {
      const line = lines.get(distinctItems[i]!)!;
      assert.ok(
        problems.some((p) => p.line === line && p.field === field),
        `${field} ${JSON.stringify(value)} at line ${line}: ${JSON.stringify(problems)}`,
      );
    }
    const at = (i: number) => problems.find((p) => p.line === lines.get(distinctItems[i]!))!.reason;
    assert.match(at(7), /bidirectional/);
    assert.match(at(5), /1 to 32 tags/);
    assert.match(at(6), /at most 100 characters/);
    assert.match(at(9), /listed twice/);
    assert.match(at(12), /not a real date/);
    assert.match(at(17), /normalization form C .*"caf\u00e9" reads the same/);
  });

  it('accepts 32 tags of 100 characters, counted as code points', () => {
    const tags = Array.from({ length: 32 }, (_, i) => `${'\u{1F600}'.repeat(98)}${String(i).padStart(2, '0')}`);
    assert.equal(tags[0]!.length, 198, 'more than 100 UTF-16 units, 100 code points');
    const dir = editedSafety((row) => {
      row.tags = tags;
      row.item_date = '2024-02';
    });
    const table = readCorpus(dir).tables.get('safety')!;
    assert.equal(table.facets.tagsOf(0)!.length, 32);
    assert.equal(table.facets.dateOf(0), '2024-02');
  });

  it('refuses rows of one item that disagree, at the later line, naming the first', () => {
    const first = safetyItems[0]!;
    const rowsOfFirst = safetyItems.flatMap((item, i) => (item === first ? [i + 1] : []));
    assert.ok(rowsOfFirst.length >= 2);
    const [a, b] = rowsOfFirst as [number, number];
    const cases: [string, (row: Record<string, unknown>, line: number) => void][] = [
      ['tags', (row, line) => void (row.tags = line === b ? ['logic'] : ['philosophy'])],
      ['tags', (row, line) => void (line === a ? (row.tags = ['philosophy']) : undefined)],
      ['tags', (row, line) => void (line === b ? (row.tags = ['philosophy']) : undefined)],
      ['item_date', (row, line) => void (row.item_date = line === b ? '2024-01' : '2024-01-01')],
      ['item_date', (row, line) => void (line === a ? (row.item_date = '2024-01-01') : undefined)],
    ];
    for (const [field, edit] of cases) {
      const dir = editedSafety((row, i) => edit(row, i + 1));
      const problems = problemsOf(dir).filter((p) => p.file.endsWith('safety.jsonl'));
      // Each later row of the item that differs from its first is refused on its own line.
      assert.deepEqual(problems[0] && [problems[0].line, problems[0].field], [b, field], JSON.stringify(problems));
      for (const p of problems) {
        assert.ok(rowsOfFirst.includes(p.line!) && p.line !== a && p.field === field, JSON.stringify(p));
        assert.match(p.reason, new RegExp(`from line ${a} for the same item '${first}'`));
      }
    }
  });

  it('takes the order of tags as meaningless', () => {
    const dir = editedSafety((row, i) => {
      row.tags = i % 2 === 0 ? ['spanish', 'hard'] : ['hard', 'spanish'];
    });
    const table = readCorpus(dir).tables.get('safety')!;
    assert.deepEqual(table.facets.tagsOf(0), ['hard', 'spanish']);
    assert.equal(table.facets.tagSets.length, 1);
  });

  it('holds each item its tags and date, each tag and each set interned once', () => {
    const dir = editedSafety((row) => {
      const item = row.item as string;
      row.tags = [subjectOf(item), 'en'];
      row.item_date = dateOf(item);
    });
    const table = readCorpus(dir).tables.get('safety')!;
    const f = table.facets;
    assert.ok(f.tagged && f.dated);
    table.items.forEach((item, idx) => {
      assert.deepEqual(f.tagsOf(idx), ['en', subjectOf(item)].sort());
      assert.equal(f.dateOf(idx), dateOf(item));
    });
    const subjects = new Set(table.items.map(subjectOf));
    assert.equal(f.tagNames.length, subjects.size + 1);
    assert.equal(f.tagSets.length, subjects.size);
    assert.equal(f.dates.length, new Set(table.items.map(dateOf)).size);
  });

  it('an axis whose rows carry neither allocates nothing', () => {
    for (const table of readCorpus(demoCorpus).tables.values()) {
      assert.equal(table.facets.tagged, false);
      assert.equal(table.facets.dated, false);
      assert.equal(table.facets.tagNames.length + table.facets.dates.length, 0);
      assert.equal(table.facets.tagsOf(0), undefined);
    }
  });

  it('leaves the board unchanged by a byte', () => {
    const live = (): LiveState => ({
      signedCells: null,
      livingStamp: { verification_state: 'UNSIGNED' },
      limitations: [],
    });
    // The hash of the published rows names their bytes, which the new fields change; nothing else may change.
    const boardOf = (dir: string) => {
      const board = buildBoard(deriveRelease(readCorpus(dir)).source, null, live());
      assert.match(board.measured_on.peritem_sha256 ?? '', /^[0-9a-f]{64}$/);
      return JSON.stringify({ ...board, measured_on: { ...board.measured_on, peritem_sha256: 'rows' } });
    };
    const tagged = editedSafety((row) => {
      const item = row.item as string;
      row.tags = [subjectOf(item)];
      row.item_date = dateOf(item);
    });
    assert.ok(readCorpus(tagged).tables.get('safety')!.facets.tagged, 'the tags were read');
    assert.equal(boardOf(tagged), boardOf(demoCorpus));
  });
});
