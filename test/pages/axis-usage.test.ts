/**
 * Tokens and latency beside the accuracies on an axis page (issue 40, item 3): the table's
 * values are /api/usage's exactly (`data-value`), partial coverage is said, a model whose rows
 * record nothing reads "not recorded" (never 0), and an axis with no usage says so in one line.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { UsageDocument } from '../../src/core/board/usage.js';
import { demoApp } from '../helpers/app.js';
import { demoCopy } from '../helpers/tmp.js';
import { htmlView } from './dashboard-view.js';

/** The demo with usage on governance: atlas on every row, borealis on every other row, no one else. */
function usageCorpus(): string {
  const dir = demoCopy();
  const file = join(dir, 'peritem', 'governance.jsonl');
  let k = 0;
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => {
      if (line.trim() === '') return line;
      const row = JSON.parse(line) as Record<string, unknown>;
      k++;
      if (row['model'] === 'demo/atlas-70b' || (row['model'] === 'demo/borealis-34b' && k % 2 === 0))
        Object.assign(row, { input_tokens: 100 + (k % 7), output_tokens: 5 + (k % 3), latency_ms: 200 + (k % 11) });
      return JSON.stringify(row);
    });
  writeFileSync(file, lines.join('\n'));
  return dir;
}

describe('an axis page shows tokens and latency beside the accuracies', async () => {
  const { app } = demoApp(usageCorpus());

  it('the values of /api/usage, partial coverage said, "not recorded" rather than 0', async () => {
    const usage = (await app.inject('/api/usage?axis=governance')).json() as UsageDocument;
    const body = (await app.inject('/dashboard/axes/governance')).body;
    const rows = htmlView(body).tables['axis-usage']!;
    assert.equal(rows.length, 5);
    for (const row of rows) {
      const m = usage.models.find((x) => x.model === row.data['model'])!;
      const cells = row.cells.slice(1);
      const expected = [m.input_tokens?.mean, m.output_tokens?.mean, m.output_tokens?.per_correct, m.latency_ms?.mean];
      assert.deepEqual(
        cells.map((c) => c.value),
        expected.map((v) => (v === undefined || v === null ? '' : String(v))),
        m.model,
      );
      if (m.input_tokens === null) for (const c of cells) assert.equal(c.text, 'not recorded', m.model);
    }
    const borealis = rows.find((r) => r.data['model'] === 'demo/borealis-34b')!;
    const b = usage.models.find((x) => x.model === 'demo/borealis-34b')!;
    assert.ok(b.input_tokens!.rows < b.rows, 'borealis: partial coverage');
    assert.match(borealis.cells[1]!.text, new RegExp(`over ${b.input_tokens!.rows} of ${b.rows} rows`));
  });

  it('an axis whose rows record no usage says so in one line, no table', async () => {
    const body = (await app.inject('/dashboard/axes/jail')).body;
    assert.equal(htmlView(body).tables['axis-usage'], undefined);
    assert.match(body, /id="axis-usage-none">No row of jail records tokens or latency/);
  });
});
