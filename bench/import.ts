/**
 * Measurement 9, parent side: `gspc import lm-eval` over 1,000,000 synthetic sample lines in the
 * real format (import-data.ts), in a fresh child (import-child.ts), against a JSON.parse of
 * every line of the same file in the same child. Goal: ≥ 200,000 rows/s, with memory flat
 * (RSS at 1,000,000 rows close to RSS at 100,000: the rows stream, only a compact index grows).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchChild } from './child.js';
import type { ImportFigures } from './import-child.js';
import { writeSyntheticRun, type SyntheticRun } from './import-data.js';
import { table } from './report.js';

const IMPORT_CHILD = fileURLToPath(new URL('./import-child.ts', import.meta.url));
export const IMPORT_TITLE = 'Import of lm-eval samples';
export const IMPORT_GOAL_ROWS_PER_S = 200_000;

export interface ImportBench extends ImportFigures {
  run: SyntheticRun;
  generateMs: number;
  problems: string[];
}

export async function measureImport(
  tmp: string,
  rows: number,
  children: BenchChild[],
  log: (line: string) => void,
): Promise<ImportBench> {
  const g0 = performance.now();
  const run = writeSyntheticRun(join(tmp, 'lm-eval-out'), rows);
  const generateMs = performance.now() - g0;
  log(`  generated ${rows.toLocaleString('en-US')} sample lines (${(run.bytes / 1024 / 1024).toFixed(1)} MB)`);
  const child = new BenchChild(
    'import',
    IMPORT_CHILD,
    [run.dir, run.samples, join(tmp, 'import-corpus')],
    ['--expose-gc'],
  );
  children.push(child);
  let f: ImportFigures;
  try {
    f = await child.next<ImportFigures>(600_000, 'import figures');
  } finally {
    await child.stop();
  }
  if ('error' in f) throw new Error(`import child: ${String((f as { error: unknown }).error)}`);
  // An import that dropped rows, or an anchor that skipped lines, could look fast.
  const problems: string[] = [];
  if (f.rows !== rows) problems.push(`imported ${f.rows} rows, expected ${rows}`);
  if (f.anchorLines !== rows) problems.push(`anchor parsed ${f.anchorLines} lines, expected ${rows}`);
  const expected = `board ${run.correct}/${rows}`;
  if (!f.reported?.includes(expected)) problems.push(`aggregate check said ${f.reported}, expected ${expected}`);
  log(`  import ${Math.round(f.importMs)} ms, anchor ${Math.round(f.anchorMs)} ms`);
  return { ...f, run, generateMs, problems };
}

export function importSection(b: ImportBench): string {
  const int = (x: number) => Math.round(x).toLocaleString('en-US');
  const rate = (ms: number) => int(b.rows / (ms / 1000));
  const rows = [
    ['gspc import lm-eval (read, grade, check, spool, write)', `${int(b.importMs)} ms`, `${rate(b.importMs)} rows/s`],
    ['Anchor: chunked read + JSON.parse of every line', `${int(b.anchorMs)} ms`, `${rate(b.anchorMs)} lines/s`],
  ];
  const mem = [
    ['before', `${b.baselineRssMB.toFixed(0)} MB`, ''],
    b.at100k
      ? [`at ${int(b.at100k.rows)} rows`, `${b.at100k.rssMB.toFixed(0)} MB`, `${b.at100k.heapMB.toFixed(0)} MB`]
      : ['at 100,000 rows', 'n/a', 'n/a'],
    [`at ${int(b.atEnd.rows)} rows (end)`, `${b.atEnd.rssMB.toFixed(0)} MB`, `${b.atEnd.heapMB.toFixed(0)} MB`],
    ['peak RSS', `${b.peakRssMB.toFixed(0)} MB`, ''],
  ];
  const perRow = b.at100k ? ((b.atEnd.heapMB - b.at100k.heapMB) * 1024 * 1024) / (b.atEnd.rows - b.at100k.rows) : null;
  const ok = b.rows / (b.importMs / 1000) >= IMPORT_GOAL_ROWS_PER_S;
  return [
    `${int(b.rows)} lm-eval sample lines (COPA-shaped multiple choice, ${(b.run.bytes / 1024 / 1024).toFixed(1)} MB), one model, into an empty corpus.`,
    '',
    table(['Step', 'Time', 'Rate'], rows, [false, true, true]),
    '',
    table(['Memory', 'RSS', 'heap used'], mem, [false, true, true]),
    '',
    `Import / anchor: **${(b.importMs / b.anchorMs).toFixed(2)}×**. Goal ≥ ${int(IMPORT_GOAL_ROWS_PER_S)} rows/s: **${ok ? 'PASS' : 'BELOW GOAL'}**.` +
      (perRow === null
        ? ''
        : ` Heap growth from 100,000 rows to the end: ${perRow.toFixed(0)} bytes per row (the index).`) +
      ` Aggregate check: ${b.reported ?? 'none'}.`,
  ].join('\n');
}
