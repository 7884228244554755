/**
 * Which files an Every Eval Ever import reads: instance files (`*.jsonl`) and the aggregate
 * records (`*.json`) they belong to, joined by `evaluation_id` (the schema's foreign key). A
 * path may be an instance file (its folder's aggregate records are looked at), an aggregate
 * record, or a folder (read recursively, as the EEE datastore lays out `data/<source>/<dev>/<model>/`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { GspcError } from '../../core/errors.js';
import { aggregateErrors } from './eee-schema.js';
import type { EeeAggregate } from './eee-records.js';

export interface EeeInputs {
  /** Instance files, in the order given (folders sorted). */
  instanceFiles: string[];
  /** Aggregate records by evaluation_id. */
  aggregates: Map<string, { file: string; record: EeeAggregate }>;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []));
}

/**
 * Reads a `.json` file as an aggregate record. One named on the command line must be one; one
 * found beside an instance file is skipped unless it looks like one (has `evaluation_results`),
 * so an unrelated JSON file in the folder does not stop the import.
 */
function readAggregate(file: string, named: boolean): EeeAggregate | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    if (!named) return undefined;
    throw new GspcError('import_refused', `${file}: not valid JSON (${(e as Error).message})`);
  }
  if (!named && (value === null || typeof value !== 'object' || !('evaluation_results' in value))) return undefined;
  const errors = aggregateErrors(value);
  if (errors.length > 0)
    throw new GspcError(
      'import_refused',
      `${file}: not an Every Eval Ever aggregate record (schema eval.schema.json): ${errors.slice(0, 5).join('; ')}`,
    );
  return value as EeeAggregate;
}

export function eeeInputs(paths: readonly string[]): EeeInputs {
  const instanceFiles: string[] = [];
  const candidates = new Map<string, boolean>();
  const consider = (file: string, named: boolean) => candidates.set(file, named || (candidates.get(file) ?? false));
  for (const raw of paths) {
    const path = resolve(raw);
    if (!existsSync(path)) throw new GspcError('import_refused', `${raw}: no such file or directory`);
    const files = statSync(path).isDirectory() ? walk(path) : [path];
    const named = !statSync(path).isDirectory();
    for (const file of files) {
      const ext = extname(file);
      if (ext === '.jsonl') {
        if (!instanceFiles.includes(file)) instanceFiles.push(file);
        for (const sibling of readdirSync(dirname(file)))
          if (extname(sibling) === '.json') consider(join(dirname(file), sibling), false);
      } else if (ext === '.json') consider(file, named);
      else if (named)
        throw new GspcError(
          'import_refused',
          `${raw}: not an Every Eval Ever file (instance records are .jsonl, aggregate records .json)`,
        );
    }
  }
  if (instanceFiles.length === 0)
    throw new GspcError(
      'import_refused',
      `${paths.join(', ')}: no instance-level file (.jsonl): the rows come from instance records, not from an aggregate alone`,
    );
  const aggregates = new Map<string, { file: string; record: EeeAggregate }>();
  for (const [file, named] of candidates) {
    const record = readAggregate(file, named);
    if (record === undefined) continue;
    const other = aggregates.get(record.evaluation_id);
    if (other !== undefined)
      throw new GspcError(
        'import_refused',
        `${file}: evaluation_id '${record.evaluation_id}' is also the id of ${other.file}; which aggregate the rows belong to is ambiguous`,
      );
    aggregates.set(record.evaluation_id, { file, record });
  }
  return { instanceFiles, aggregates };
}
