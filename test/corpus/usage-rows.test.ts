/**
 * The optional per-item fields input_tokens, output_tokens and latency_ms (issue 40 item 3,
 * docs/formats.md §1): a bad value is refused at file:line with its field, null and absence are
 * unknown (never 0), a row may carry some of them, and an axis whose rows carry none holds no
 * usage column at all (the memory and the hot path of such rows stay as they were).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { GspcError, type CorpusProblem } from '../../src/core/errors.js';
import { usageAt } from '../../src/core/board/item-table.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import type { UsageDocument } from '../../src/core/board/usage.js';
import { demoApp } from '../helpers/app.js';
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
function editedSafety(edit: (row: Record<string, unknown>, i: number) => void): string {
  const dir = demoCopy();
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

describe('per-item usage fields', () => {
  it('refuses a bad value at file:line, naming the field', () => {
    const bad: [number, string, unknown][] = [
      [3, 'input_tokens', -1],
      [4, 'input_tokens', 1.5],
      [5, 'output_tokens', '12'],
      [6, 'output_tokens', true],
      [7, 'latency_ms', -0.5],
      [8, 'latency_ms', '80'],
      [9, 'input_tokens', 2 ** 53],
    ];
    const dir = editedSafety((row, i) => {
      for (const [line, field, value] of bad) if (i === line - 1) row[field] = value;
    });
    // A latency of 1e400 is Infinity once parsed: not a finite number.
    const path = join(dir, 'peritem/safety.jsonl');
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[9] = lines[9]!.replace(/}$/, ',"latency_ms":1e400}');
    writeFileSync(path, lines.join('\n'));
    const problems = problemsOf(dir);
    for (const [line, field] of [...bad.map(([l, f]) => [l, f] as const), [10, 'latency_ms'] as const]) {
      const p = problems.find((x) => x.line === line);
      assert.ok(p, `line ${line} refused`);
      assert.equal(p.field, field);
      assert.match(p.file, /peritem\/safety\.jsonl$/);
      assert.match(
        p.reason,
        field === 'latency_ms' ? /finite number of milliseconds from 0 to/ : /whole number of tokens/,
      );
    }
    assert.equal(problems.length, bad.length + 1);
  });

  it('refuses a value past a billion (1e308 milliseconds on every row overflowed /api/usage to null), accepts a billion, and sums stay finite', async () => {
    const huge = problemsOf(editedSafety((row) => Object.assign(row, { latency_ms: 1e308 })));
    assert.ok(huge.length > 0 && huge.every((p) => p.field === 'latency_ms'));
    assert.match(huge[0]!.reason, /milliseconds from 0 to 1,000,000,000/);
    assert.equal(huge[0]!.line, 1);
    const over = problemsOf(
      editedSafety((row, i) => {
        if (i === 0) row.input_tokens = 1e9 + 1;
        if (i === 1) row.output_tokens = 2e9;
        if (i === 2) row.latency_ms = 1e9 + 0.5;
      }),
    );
    assert.deepEqual(
      over.map((p) => [p.line, p.field]),
      [
        [1, 'input_tokens'],
        [2, 'output_tokens'],
        [3, 'latency_ms'],
      ],
    );
    // The cap itself on every row: read, and every figure of /api/usage is a finite number.
    const dir = editedSafety((row) => Object.assign(row, { input_tokens: 1e9, output_tokens: 1e9, latency_ms: 1e9 }));
    const { app } = demoApp(dir);
    const doc = (await app.inject('/api/usage?axis=safety')).json() as UsageDocument;
    assert.ok(doc.models.length > 0);
    for (const m of doc.models)
      for (const f of [m.input_tokens, m.output_tokens, m.latency_ms]) {
        assert.ok(f !== null, `${m.model} has the field`);
        assert.equal(f.mean, 1e9);
        for (const v of [f.total, ...(f.mean_interval ?? [null, null])])
          assert.ok(typeof v === 'number' && Number.isFinite(v), `${m.model}: ${JSON.stringify(f)}`);
      }
  });

  it('reads null and absence as unknown, 0 as 0, and each field on its own', () => {
    const dir = editedSafety((row, i) => {
      if (i === 0) Object.assign(row, { input_tokens: 0, output_tokens: 7, latency_ms: 12.25 });
      if (i === 1) Object.assign(row, { input_tokens: null, output_tokens: 3 });
      if (i === 2) Object.assign(row, { latency_ms: null });
    });
    const c = readCorpus(dir);
    const table = c.tables.get('safety')!;
    const lines = readFileSync(join(dir, 'peritem/safety.jsonl'), 'utf8').split('\n');
    const at = (i: number) => {
      const r = JSON.parse(lines[i]!) as { item: string; model: string };
      return { col: table.columns.get(r.model)!, idx: table.items.indexOf(r.item) };
    };
    type Field = 'input_tokens' | 'output_tokens' | 'latency_ms';
    // No column for the model: every value of the field is unknown.
    const value = (i: number, f: Field) => {
      const { col, idx } = at(i);
      const u = col.usage?.[f];
      return u === undefined ? Number.NaN : usageAt(u, idx);
    };
    assert.equal(value(0, 'input_tokens'), 0);
    assert.equal(value(0, 'latency_ms'), 12.25);
    assert.ok(Number.isNaN(value(1, 'input_tokens')), 'null is unknown');
    assert.equal(value(1, 'output_tokens'), 3);
    assert.ok(Number.isNaN(value(2, 'latency_ms')), 'null is unknown');
    assert.ok(Number.isNaN(value(3, 'output_tokens')), 'absent is unknown');
    const coverage = (f: Field) => [...table.columns.values()].reduce((n, col) => n + (col.usage?.[f]?.rows ?? 0), 0);
    assert.deepEqual([coverage('input_tokens'), coverage('output_tokens'), coverage('latency_ms')], [1, 2, 1]);
  });

  it('an axis whose rows carry no usage field allocates no usage column', () => {
    const c = readCorpus(demoCorpus);
    for (const table of c.tables.values())
      for (const col of table.columns.values()) assert.equal(col.usage, undefined, col.model);
  });
});
