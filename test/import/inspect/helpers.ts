/** Reading Inspect fixtures in tests: every run with its rows collected, and the board's own grading of a row. */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GspcError } from '../../../src/core/errors.js';
import type { ImportedRow, ImportedRun, ReadOptions } from '../../../src/import/imported.js';
import { readInspect } from '../../../src/import/inspect/index.js';
import { parseJson } from '../../../src/import/inspect/lenient-json.js';
import { repoPath } from '../../helpers/repo.js';
import { tempDir } from '../../helpers/tmp.js';

export const inspectFixture = (name: string) => repoPath('test', 'fixtures', 'inspect', name);
export const eeeFixture = (name: string) => repoPath('test', 'fixtures', 'inspect-eee', name);

export type ReadRun = Omit<ImportedRun, 'rows'> & { rows: ImportedRow[] };

export async function readRuns(paths: string[], opts: ReadOptions = {}): Promise<ReadRun[]> {
  const runs: ReadRun[] = [];
  for await (const run of readInspect(paths, opts)) {
    const rows: ImportedRow[] = [];
    for await (const row of run.rows) rows.push(row);
    runs.push({ ...run, rows });
  }
  return runs;
}

export async function readRun(path: string, opts: ReadOptions = {}): Promise<ReadRun> {
  const runs = await readRuns([path], opts);
  assert.equal(runs.length, 1);
  return runs[0]!;
}

/** The board's grading: an unparsed row is not correct; else label ∈ gold after the verdict's normalise. */
export function boardCorrect(row: ImportedRow): boolean {
  if (row.label === null) return false;
  const norm = row.verdict?.normalise ?? ((s: string) => s);
  const golds = Array.isArray(row.gold) ? row.gold : [row.gold];
  return golds.map(norm).includes(norm(row.label));
}

/** Asserts that reading rejects with import_refused and a message containing every `parts`. */
export async function assertRefused(read: Promise<unknown>, ...parts: string[]): Promise<void> {
  await assert.rejects(read, (e: unknown) => {
    assert.ok(e instanceof GspcError, String(e));
    assert.equal(e.code, 'import_refused');
    for (const p of parts) assert.ok(e.message.includes(p), `"${e.message}" lacks "${p}"`);
    return true;
  });
}

/** A copy of a real JSON log, changed by `edit`, in a temporary directory (for cases no public log has).
 * It is written with JSON.stringify, so a NaN in it comes back as null. */
export function derivedJsonLog(source: string, edit: (log: any) => void, name = 'derived.json'): string {
  const log = parseJson(readFileSync(source, 'utf8'), source) as any;
  edit(log);
  const path = join(tempDir('gspc-inspect-'), name);
  writeFileSync(path, JSON.stringify(log));
  return path;
}
