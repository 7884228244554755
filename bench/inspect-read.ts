/**
 * The Inspect reader alone at scale: `node --import tsx bench/inspect-read.ts [N]` writes a
 * synthetic N-sample `.eval` (default 100,000; bench/inspect-fixture.ts), then reads it in a
 * child process, so the peak RSS is the reader's, not the generator's. Prints rows/s (wall-clock
 * and per CPU second), the peak RSS and the RSS before reading (Node, tsx and the modules),
 * and fails if the row count or the accuracy differ from what the log states.
 * `node --import tsx bench/inspect-read.ts --read <file> <samples> <correct>` is the child.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readInspect } from '../src/import/inspect/index.js';
import { writeInspectEval } from './inspect-fixture.js';
import { peakRssMB } from './peak-rss.js';

async function readAndMeasure(file: string, samples: number, correct: number): Promise<void> {
  const baselineMiB = process.memoryUsage().rss / 2 ** 20;
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  let rows = 0;
  let right = 0;
  for await (const run of readInspect([file], {})) {
    for await (const row of run.rows) {
      rows++;
      if (row.label !== null && row.label === row.gold) right++;
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (rows !== samples || right !== correct)
    throw new Error(`read ${rows} rows, ${right} correct; the log has ${samples}, ${correct} correct`);
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  const peakMiB = peakRssMB();
  // CPU seconds as well as wall-clock: on a shared machine the wall-clock rate mostly measures the load.
  const figures = {
    rows,
    seconds: +seconds.toFixed(2),
    rowsPerSecond: Math.round(rows / seconds),
    cpuSeconds: +cpuSeconds.toFixed(2),
    rowsPerCpuSecond: Math.round(rows / cpuSeconds),
    peakRssMiB: Math.round(peakMiB),
    rssBeforeReadingMiB: Math.round(baselineMiB),
  };
  console.log(JSON.stringify(figures));
}

async function main(): Promise<void> {
  const [flag, file, samples, correct] = process.argv.slice(2);
  if (flag === '--read') return readAndMeasure(file!, Number(samples), Number(correct));
  const n = Number(flag ?? 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'gspc-inspect-bench-'));
  try {
    const t0 = Date.now();
    const log = writeInspectEval(join(dir, 'bench.eval'), n);
    const mib = statSync(log.path).size / 2 ** 20;
    console.log(`wrote ${n} samples, ${mib.toFixed(1)} MiB, in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const self = fileURLToPath(import.meta.url);
    const args = ['--import', 'tsx', self, '--read', log.path, String(log.samples), String(log.correct)];
    execFileSync(process.execPath, args, { stdio: 'inherit' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
