/**
 * `gspc export eee <release-dir|base-url> --out <dir>`: reads the release, maps it to Every Eval
 * Ever records, checks every record against the official schema, and only then writes them
 * under `<dir>/data/…` (the EEE datastore layout). Nothing is written when a record would not
 * validate: an export another tool rejects is worse than none.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GspcError } from '../core/errors.js';
import { aggregateErrors, instanceErrors } from '../import/eee/eee-schema.js';
import { eeeExport, type ExportFile } from './eee-mapping.js';
import type { ExportInput } from './export-input.js';
import { releaseInput } from './release-input.js';
import { type Fetcher, serviceInput } from './service-input.js';

export interface ExportResult {
  origin: string;
  files: string[];
  /** Aggregate records written (one per axis and model). */
  evaluations: number;
  rows: number;
  skipped: string[];
}

/** The schema errors of one exported file, as `path:line message` (the line for instance files). */
function fileErrors(f: ExportFile): string[] {
  if (f.path.endsWith('.json')) return aggregateErrors(JSON.parse(f.text)).map((e) => `${f.path}: ${e}`);
  return f.text
    .split('\n')
    .filter((l) => l !== '')
    .flatMap((l, i) => instanceErrors(JSON.parse(l)).map((e) => `${f.path}:${i + 1}: ${e}`));
}

export async function readExportInput(target: string, fetcher?: Fetcher): Promise<ExportInput> {
  return /^https?:\/\//.test(target) ? serviceInput(target, fetcher) : releaseInput(target);
}

export async function exportEee(target: string, outDir: string, fetcher?: Fetcher): Promise<ExportResult> {
  return writeExport(await readExportInput(target, fetcher), outDir);
}

/** Maps, checks and writes one export input. */
export function writeExport(input: ExportInput, outDir: string): ExportResult {
  const { files, skipped } = eeeExport(input);
  const errors = files.flatMap(fileErrors);
  if (errors.length > 0)
    throw new GspcError(
      'internal',
      `the export does not validate against the Every Eval Ever schema, so nothing was written: ${errors.slice(0, 5).join('; ')}`,
    );
  for (const f of files) {
    const path = join(outDir, f.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.text);
  }
  const samples = files.filter((f) => f.path.endsWith('_samples.jsonl'));
  return {
    origin: input.origin,
    files: files.map((f) => f.path),
    evaluations: samples.length,
    rows: samples.reduce((n, f) => n + f.text.split('\n').length - 1, 0),
    skipped,
  };
}
