/**
 * The import benchmark, run in a fresh process (forked by import.ts with --expose-gc) so its
 * memory figures are the import's alone:
 *
 *   import-child.ts lm-eval <model-dir> <samples-file> <corpus-dir>
 *   import-child.ts inspect <log.eval> <samples-jsonl> <corpus-dir>
 *
 * First `importRuns` over the format's reader (the work of `gspc import`, without the final
 * validation), sampling RSS as the rows pass 100,000 and at the end; then, collected, the anchor:
 * the same sample documents as JSON lines (lm-eval's own samples file; for Inspect, the bytes of
 * every sample entry, written beside the log by the generator) read in 1 MiB chunks and
 * JSON.parse'd line by line, the least work any importer of the format must do. Results go back
 * over IPC.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { importRuns } from '../src/import/import-runs.js';
import { peakRssMB as peakRss } from './peak-rss.js';
import { readInspect } from '../src/import/inspect/index.js';
import { readLmEval } from '../src/import/lm-eval/read-lm-eval.js';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const MB = 1024 * 1024;

/** Chunked read, byte-scan for newlines, JSON.parse every line (independent of src/import). */
function anchor(path: string): number {
  const fd = openSync(path, 'r');
  const buf = Buffer.allocUnsafe(MB);
  let carry = Buffer.alloc(0);
  let lines = 0;
  let correct = 0;
  try {
    for (let n = readSync(fd, buf, 0, MB, null); n > 0; n = readSync(fd, buf, 0, MB, null)) {
      const chunk = carry.length > 0 ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      let start = 0;
      for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
        const row = JSON.parse(chunk.toString('utf8', start, end)) as { acc?: number; scores?: unknown };
        if (row.acc === 1 || row.scores !== undefined) correct++; // used, so nothing is optimised away
        lines++;
        start = end + 1;
      }
      carry = Buffer.from(chunk.subarray(start));
    }
  } finally {
    closeSync(fd);
  }
  return correct >= 0 ? lines : -1;
}

async function measure(format: string, input: string, samples: string, corpus: string) {
  const reader =
    format === 'inspect'
      ? readInspect([input], {})
      : format === 'lm-eval'
        ? readLmEval([input], {})
        : (() => {
            throw new Error(`unknown format ${format}`);
          })();
  gc();
  const baselineRssMB = process.memoryUsage().rss / MB;
  let at100k: { rows: number; rssMB: number; heapMB: number } | null = null;
  const t0 = performance.now();
  const result = await importRuns(corpus, reader, {
    onProgress: (_run, rows) => {
      if (at100k === null && rows >= 100_000) {
        const m = process.memoryUsage();
        at100k = { rows, rssMB: m.rss / MB, heapMB: m.heapUsed / MB };
      }
    },
  });
  const importMs = performance.now() - t0;
  const m = process.memoryUsage();
  const atEnd = { rows: result.totals.rows, rssMB: m.rss / MB, heapMB: m.heapUsed / MB };
  const peakRssMB = peakRss();
  gc();
  const a0 = performance.now();
  const anchorLines = anchor(samples);
  const anchorMs = performance.now() - a0;
  return {
    importMs,
    anchorMs,
    anchorLines,
    rows: result.totals.rows,
    reported: result.runs[0]?.reported ?? null,
    baselineRssMB,
    at100k: at100k as { rows: number; rssMB: number; heapMB: number } | null,
    atEnd,
    peakRssMB,
  };
}

export type ImportFigures = Awaited<ReturnType<typeof measure>>;

process.on('disconnect', () => process.exit(process.exitCode ?? 0));
const [format = '', input = '', samples = '', corpus = ''] = process.argv.slice(2);
let message: object;
try {
  message = await measure(format, input, samples, corpus);
} catch (e) {
  message = { error: (e as Error).stack ?? String(e) };
  process.exitCode = 1;
}
process.send?.(message, undefined, {}, () => process.disconnect?.());
