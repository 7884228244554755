/**
 * A real lm-eval COPA run (test/fixtures/lm-eval) with what a full results file adds and the
 * trimmed fixtures lack: `n-shot` and the task's `configs` entry, at the given number of shots.
 * Shared by the run-settings tests (issue 40 item 2).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SSH, SSH_RESULTS, fixtureCopy } from './helpers.js';

/** A copy of a real lm-eval results file with what a full results file adds for COPA: its n-shot and config. */
export function withShots(model: string, shots: number): string {
  const dir = fixtureCopy(model);
  const file = join(dir, model === SSH ? SSH_RESULTS : 'results_2026-10-01T23-15-52.736695.json');
  const results = JSON.parse(readFileSync(file, 'utf8'));
  results['n-shot'] = { copa: shots };
  results.configs = {
    copa: {
      task: 'copa',
      output_type: 'multiple_choice',
      num_fewshot: shots,
      target_delimiter: ' ',
      fewshot_delimiter: '\n\n',
    },
  };
  writeFileSync(file, JSON.stringify(results, null, 2));
  return dir;
}
