/**
 * Tokens and latency beside the accuracies on an axis page (issue 40, item 3): the table's
 * values are /api/usage's exactly (`data-value`), partial coverage is said, a model whose rows
 * record nothing reads "not recorded" (never 0), and an axis with no usage says so in one line.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { UsageDocument, UsageFigure } from '../../src/core/board/usage.js';
import { usageSection } from '../../src/pages/dashboard-axis-usage.js';
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

  it('a mean below 100 shows one decimal, its interval alike (1.5, never 2); 100 and above whole; data-value exact', () => {
    const figure = (mean: number, lo: number, hi: number): UsageFigure => ({
      rows: 4,
      total: mean * 4,
      mean,
      mean_interval: [lo, hi],
      correct: 2,
      per_correct: mean * 2,
      per_correct_interval: [lo * 2, hi * 2],
      units: 4,
    });
    const doc = {
      schema: 'svc.gspc-usage/0.1',
      axis: 'demo',
      models: [
        {
          model: 'p/one',
          own: false,
          rows: 4,
          parsed: 4,
          correct: 2,
          coverage: { input_tokens: 4, output_tokens: 4, latency_ms: 4 },
          input_tokens: figure(1234.4, 1200.2, 1268.6),
          output_tokens: figure(1.5, 1, 2),
          latency_ms: figure(99.96, 12.34, 187.58),
        },
      ],
    } as unknown as UsageDocument;
    const view = htmlView(`<main>${String(usageSection(doc, ['p/one']))}</main>`);
    const cells = view.tables['axis-usage']![0]!.cells.slice(1);
    assert.deepEqual(
      cells.map((c) => c.text),
      ['1,234 (1,200 to 1,269)', '1.5 (1.0 to 2.0)', '3.0 (2.0 to 4.0)', '100.0 (12.3 to 187.6)'],
    );
    assert.deepEqual(
      cells.map((c) => c.value),
      ['1234.4', '1.5', '3', '99.96'],
    );
  });

  it('an axis whose rows record no usage says so in one line, no table', async () => {
    const body = (await app.inject('/dashboard/axes/jail')).body;
    assert.equal(htmlView(body).tables['axis-usage'], undefined);
    assert.match(body, /id="axis-usage-none">No row of jail records tokens or latency/);
  });
});
