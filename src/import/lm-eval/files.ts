/**
 * Which lm-eval files an import reads. `lm_eval --log_samples --output_path out` writes, per
 * model, `out/<model_name_sanitized>/results_<time>.json` and one
 * `samples_<task>_<time>.jsonl` per task of that run (same `<time>`). The operator may point at
 * a samples file, a model directory, or the output directory above the model directories.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { GspcError } from '../../core/errors.js';

const SAMPLES = /^samples_(.+)_(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)\.jsonl$/;

export interface SamplesFile {
  path: string;
  task: string;
  /** The run's time as lm-eval writes it in file names: `2026-10-01T23-15-32.942677`. */
  time: string;
}

export function parseSamplesName(path: string): SamplesFile | null {
  const m = SAMPLES.exec(basename(path));
  return m ? { path, task: m[1]!, time: m[2]! } : null;
}

/** Every samples file under the given paths (a directory: itself and its subdirectories), in path order. */
export function findSamplesFiles(paths: readonly string[]): SamplesFile[] {
  const out: SamplesFile[] = [];
  const walk = (dir: string, depth: number) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        if (depth < 2) walk(p, depth + 1);
      } else {
        const s = parseSamplesName(p);
        if (s) out.push(s);
      }
    }
  };
  for (const p of paths) {
    if (!existsSync(p)) throw new GspcError('import_refused', `${p}: no such file or directory`);
    if (statSync(p).isDirectory()) {
      const before = out.length;
      walk(p, 0);
      if (out.length === before)
        throw new GspcError('import_refused', `${p}: no lm-eval samples file (samples_<task>_<time>.jsonl) in it`);
    } else {
      const s = parseSamplesName(p);
      if (!s)
        throw new GspcError(
          'import_refused',
          `${p}: not an lm-eval samples file (expected samples_<task>_<time>.jsonl, written by --log_samples)`,
        );
      out.push(s);
    }
  }
  return out;
}

/**
 * The results file of the same run: `results_<time>.json` beside the samples file. When the
 * times differ (a renamed file), the only results file of the directory that has the task.
 */
export function siblingResults(s: SamplesFile, hasTask: (resultsPath: string) => boolean): string | null {
  const dir = dirname(s.path);
  const same = join(dir, `results_${s.time}.json`);
  if (existsSync(same)) return same;
  const candidates = readdirSync(dir)
    .filter((n) => /^results_.*\.json$/.test(n))
    .map((n) => join(dir, n))
    .filter(hasTask);
  return candidates.length === 1 ? candidates[0]! : null;
}

/** A file-name time (the harness's local clock, zone unstated) as ISO 8601 with Z. */
export function fileTimeAsIso(time: string): string {
  const [date, clock] = time.split('T') as [string, string];
  return `${date}T${clock.replace(/-/g, ':')}Z`;
}
