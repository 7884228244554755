/**
 * The Inspect AI reader (`gspc import inspect <files...>`): every `.eval` (ZIP) and `.json` log
 * named, or found directly in a named directory, as one ImportedRun each (docs/import.md, "Inspect AI").
 * A named file is recognised by its first bytes, not its extension (upstream's `log_with_nan.txt`
 * is a JSON log); a directory contributes only its `.eval` and `.json` files, in name order.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { GspcError } from '../../core/errors.js';
import type { HarnessReader, ImportedRun, ReadOptions } from '../imported.js';
import { readEvalLog } from './eval-log.js';
import { readJsonLog } from './json-log.js';
import { buildRun } from './run.js';

export const readInspect: HarnessReader = async function* (paths, opts): AsyncGenerator<ImportedRun> {
  for (const file of await expand(paths)) yield await readOne(file, opts);
};

async function readOne(file: string, opts: ReadOptions): Promise<ImportedRun> {
  const kind = await sniff(file);
  const sha256 = await hashFile(file);
  const source = kind === 'zip' ? await readEvalLog(file, sha256) : await readJsonLog(file, sha256);
  return buildRun(source, opts);
}

async function expand(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => null);
    if (info === null) throw new GspcError('import_refused', `${path}: no such file or directory`);
    if (!info.isDirectory()) {
      files.push(path);
      continue;
    }
    const names = (await readdir(path, { withFileTypes: true }))
      .filter((d) => d.isFile() && (d.name.endsWith('.eval') || d.name.endsWith('.json')))
      .map((d) => d.name)
      .sort();
    if (names.length === 0) throw new GspcError('import_refused', `${path}: the directory holds no .eval or .json log`);
    files.push(...names.map((n) => join(path, n)));
  }
  return files;
}

/** `zip` for a local-file or end-of-directory signature, `json` for a `{` after whitespace/BOM. */
async function sniff(file: string): Promise<'zip' | 'json'> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0);
    const head = buffer.subarray(0, bytesRead);
    if (head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5)) return 'zip';
    const text = head
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart();
    if (text.startsWith('{')) return 'json';
  } finally {
    await handle.close();
  }
  throw new GspcError('import_refused', `${file}: not an Inspect AI log (neither an .eval ZIP nor a JSON log)`);
}

async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
