/**
 * Measurement 2, parent side: writes the scale corpus into the bench's temp dir, then runs
 * derive-child.ts in a fresh process (with --expose-gc, so it can collect before sampling
 * memory and before its anchor) and returns what the child measured, after checking that
 * the derivation and the anchor each covered every row.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchChild } from './child.js';
import type { DeriveFigures } from './derive-child.js';
import { DISTURBED_OTHER_CPU } from './machine-load.js';
import { writeScaleCorpus, type ScaleCorpus } from './scale-corpus.js';

const DERIVE_CHILD = fileURLToPath(new URL('./derive-child.ts', import.meta.url));

export interface DerivationFigures extends DeriveFigures {
  corpus: ScaleCorpus;
  generateMs: number;
  /** How many times the child ran (a run disturbed by other load is repeated once). */
  attempts: number;
  problems: string[];
}

export const isDisturbed = (f: DeriveFigures) =>
  (f.deriveOtherCpu ?? 0) > DISTURBED_OTHER_CPU || (f.anchorOtherCpu ?? 0) > DISTURBED_OTHER_CPU;
export const describeOther = (f: DeriveFigures) =>
  `other CPU ${f.deriveOtherCpu?.toFixed(0) ?? 'n/a'} % during the derivation, ${f.anchorOtherCpu?.toFixed(0) ?? 'n/a'} % during the anchor`;

export async function measureDerivation(
  tmp: string,
  items: number,
  children: BenchChild[],
  log: (line: string) => void,
): Promise<DerivationFigures> {
  const g0 = performance.now();
  const corpus = writeScaleCorpus(join(tmp, 'scale-corpus'), items);
  const generateMs = performance.now() - g0;
  log(
    `  generated ${corpus.rows.toLocaleString('en-US')} rows (${(corpus.bytes / 1024 / 1024).toFixed(1)} MB) in ${(generateMs / 1000).toFixed(1)} s`,
  );

  // A window where other processes competed for the cores is measured again, once.
  let attempts = 1;
  let f = await runChild(corpus, children);
  if (isDisturbed(f)) {
    log(`  disturbed by other load (${describeOther(f)}); measuring again`);
    attempts++;
    f = await runChild(corpus, children);
  }
  log(`  read + derive ${Math.round(f.totalMs)} ms, anchor ${Math.round(f.anchorMs)} ms (${describeOther(f)})`);
  // A derivation that silently dropped rows could look fast: its counts must match the file.
  const problems: string[] = [];
  if (f.check.rows !== corpus.rows) problems.push(`derived ${f.check.rows} per-item rows, expected ${corpus.rows}`);
  if (f.anchorLines !== corpus.rows) problems.push(`anchor parsed ${f.anchorLines} lines, expected ${corpus.rows}`);
  return { ...f, corpus, generateMs, attempts, problems };
}

async function runChild(corpus: ScaleCorpus, children: BenchChild[]): Promise<DeriveFigures> {
  const child = new BenchChild('derivation', DERIVE_CHILD, [corpus.dir, corpus.rowsPath], {
    execArgv: ['--expose-gc'],
  });
  children.push(child);
  try {
    return await child.next<DeriveFigures>(150_000, 'derivation figures');
  } finally {
    await child.stop();
  }
}
