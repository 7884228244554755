/**
 * An `.eval` log (a ZIP) as a LogSource, read in two passes over the central directory so that at
 * most one entry is decompressed at a time:
 * 1. `header.json` (Inspect writes it last) and the first `samples/` entry (for the labels menu);
 *    every other entry is only listed, not read. A log without `header.json` (a run that never
 *    finished) falls back to `_journal/start.json`, whose status is "started".
 * 2. the rows: each `samples/<id>_epoch_<n>.json` in directory order (not id order), parsed and
 *    dropped before the next is read.
 * `summaries.json` and `reductions.json` are not needed: the samples hold everything.
 */
import { GspcError } from '../../core/errors.js';
import { parseJson } from './lenient-json.js';
import { type LogHeader, type LogSample, readHeader, readSample } from './log-shape.js';
import type { LogSource } from './run.js';
import { zipEntries } from './zip-entries.js';

const isSample = (name: string) => name.startsWith('samples/') && name.endsWith('.json');

export async function readEvalLog(file: string, sha256: string): Promise<LogSource> {
  let header: LogHeader | null = null;
  let start: LogHeader | null = null;
  let first: LogSample | null = null;
  let sampleCount = 0;
  for await (const entry of zipEntries(file)) {
    const at = `${file}!${entry.name}`;
    if (entry.name === 'header.json') header = readHeader(await json(entry.read(), at), at);
    else if (entry.name === '_journal/start.json') start = readHeader(await json(entry.read(), at), at);
    else if (isSample(entry.name)) {
      sampleCount++;
      if (first === null) first = readSample(await json(entry.read(), at), at);
    }
  }
  const chosen = header ?? start;
  if (chosen === null)
    throw new GspcError(
      'import_refused',
      `${file}: a ZIP without header.json or _journal/start.json is not an Inspect log`,
    );
  return {
    file,
    sha256,
    header: chosen,
    early: first === null ? [] : [first],
    sampleCount,
    samples: () => samples(file),
  };
}

async function* samples(file: string): AsyncGenerator<{ sample: LogSample; at: string }> {
  for await (const entry of zipEntries(file)) {
    if (!isSample(entry.name)) continue;
    const at = `${file}!${entry.name}`;
    yield { sample: readSample(await json(entry.read(), at), at), at };
  }
}

async function json(bytes: Promise<Buffer>, at: string): Promise<unknown> {
  return parseJson((await bytes).toString('utf8'), at);
}
