/**
 * Measurement 9, parent side: `gspc import lm-eval` over 1,000,000 synthetic sample lines in the
 * real format (import-data.ts), and `gspc import inspect` over a synthetic `.eval` log of
 * 1,000,000 samples (inspect-fixture.ts), each in a fresh child (import-child.ts), against a
 * JSON.parse of the same sample documents, one per line, in the same child. Goal: ≥ 200,000
 * rows/s, with memory flat (RSS at 1,000,000 rows close to RSS at 100,000: the rows stream, only
 * a compact index grows).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchChild } from './child.js';
import type { ImportFigures } from './import-child.js';
import { writeSyntheticRun } from './import-data.js';
import { writeInspectEval } from './inspect-fixture.js';
import { table } from './report.js';

const IMPORT_CHILD = fileURLToPath(new URL('./import-child.ts', import.meta.url));
export const IMPORT_TITLE = 'Import of lm-eval samples';
export const INSPECT_IMPORT_TITLE = 'Import of an Inspect AI log';
export const IMPORT_GOAL_ROWS_PER_S = 200_000;

export interface ImportBench extends ImportFigures {
  format: 'lm-eval' | 'inspect';
  /** What was imported, for the section's first line. */
  input: string;
  generateMs: number;
  problems: string[];
}

async function measure(
  format: ImportBench['format'],
  args: { input: string; lines: string; corpus: string; rows: number; correct: number; described: string },
  generateMs: number,
  children: BenchChild[],
  log: (line: string) => void,
): Promise<ImportBench> {
  const child = new BenchChild(`import-${format}`, IMPORT_CHILD, [format, args.input, args.lines, args.corpus], {
    execArgv: ['--expose-gc'],
  });
  children.push(child);
  let f: ImportFigures;
  try {
    f = await child.next<ImportFigures>(900_000, 'import figures');
  } finally {
    await child.stop();
  }
  if ('error' in f) throw new Error(`import child: ${String((f as { error: unknown }).error)}`);
  // An import that dropped rows, or an anchor that skipped lines, could look fast.
  const problems: string[] = [];
  if (f.rows !== args.rows) problems.push(`${format}: imported ${f.rows} rows, expected ${args.rows}`);
  if (f.anchorLines !== args.rows)
    problems.push(`${format}: anchor parsed ${f.anchorLines} lines, expected ${args.rows}`);
  const expected = `board ${args.correct}/${args.rows}`;
  if (!f.reported?.includes(expected))
    problems.push(`${format}: aggregate check said ${f.reported}, expected ${expected}`);
  log(`  ${format}: import ${Math.round(f.importMs)} ms, anchor ${Math.round(f.anchorMs)} ms`);
  return { ...f, format, input: args.described, generateMs, problems };
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
  const mb = (run.bytes / 1024 / 1024).toFixed(1);
  log(`  generated ${rows.toLocaleString('en-US')} lm-eval sample lines (${mb} MB)`);
  const described = `${rows.toLocaleString('en-US')} lm-eval sample lines (COPA-shaped multiple choice, ${mb} MB), one model, into an empty corpus.`;
  const input = { input: run.dir, lines: run.samples, corpus: join(tmp, 'import-corpus'), rows, correct: run.correct };
  return measure('lm-eval', { ...input, described }, generateMs, children, log);
}

export async function measureInspectImport(
  tmp: string,
  samples: number,
  children: BenchChild[],
  log: (line: string) => void,
): Promise<ImportBench> {
  const g0 = performance.now();
  const lines = join(tmp, 'inspect-samples.jsonl');
  const fixture = writeInspectEval(join(tmp, 'bench.eval'), samples, false, lines);
  const generateMs = performance.now() - g0;
  const mb = (statSync(fixture.path).size / 1024 / 1024).toFixed(1);
  const jsonMb = (statSync(lines).size / 1024 / 1024).toFixed(1);
  log(`  generated an Inspect log of ${samples.toLocaleString('en-US')} samples (${mb} MB)`);
  const described =
    `An Inspect AI \`.eval\` log of ${samples.toLocaleString('en-US')} samples (the popularity task's shape, \`match\` scorer, ` +
    `one deflated ZIP entry per sample, ${mb} MB; ${jsonMb} MB of sample JSON), one model, into an empty corpus. ` +
    'The anchor parses the same sample documents from a JSON-lines copy, so it does no ZIP reading or inflating.';
  return measure(
    'inspect',
    {
      input: fixture.path,
      lines,
      corpus: join(tmp, 'import-corpus-inspect'),
      rows: samples,
      correct: fixture.correct,
      described,
    },
    generateMs,
    children,
    log,
  );
}

export function importSection(b: ImportBench): string {
  const int = (x: number) => Math.round(x).toLocaleString('en-US');
  const rate = (ms: number) => int(b.rows / (ms / 1000));
  const work =
    b.format === 'inspect'
      ? 'gspc import inspect (list, inflate, parse, grade, check, spool, write)'
      : 'gspc import lm-eval (read, grade, check, spool, write)';
  const rows = [
    [work, `${int(b.importMs)} ms`, `${rate(b.importMs)} rows/s`],
    ['Anchor: chunked read + JSON.parse of every sample line', `${int(b.anchorMs)} ms`, `${rate(b.anchorMs)} lines/s`],
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
    b.input,
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
