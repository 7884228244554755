/** Shared by the import tests: run `gspc import` in-process with its output captured. */
import { cpSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type ImportCommandOptions, runImport } from '../../src/cli/import-command.js';
import type { ImportResult } from '../../src/import/import-runs.js';
import { fixturePath } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';

export const SSH = 'sshleifer__tiny-gpt2';
export const HF = 'hf-internal-testing__tiny-random-gpt2';
export const SSH_SAMPLES = 'samples_copa_2026-10-01T23-15-32.942677.jsonl';
export const SSH_RESULTS = 'results_2026-10-01T23-15-32.942677.json';
export const GSM8K = fixturePath(
  'lm-eval',
  'gsm8k-3-filters',
  'samples_gsm8k_cot_self_consistency_2026-10-01T13-21-10.261566.jsonl',
);
export const lmEval = (...parts: string[]) => fixturePath('lm-eval', ...parts);

export async function importQuiet(
  format: string,
  paths: string[],
  o: ImportCommandOptions,
): Promise<{ result: ImportResult; out: string }> {
  let out = '';
  const result = await runImport(format, paths, o, { out: (t) => (out += t), err: () => {}, tty: false });
  return { result, out };
}

/** A writable copy of a fixture model directory. */
export function fixtureCopy(model: string): string {
  const dir = join(tempDir(), model);
  cpSync(lmEval(model), dir, { recursive: true });
  return dir;
}

/** Every file of a directory (relative path → bytes as text), for byte-for-byte comparisons. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}
