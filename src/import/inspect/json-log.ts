/**
 * A `.json` log as a LogSource. A JSON log is one document (header fields plus a `samples` array),
 * so it is parsed whole: JSON has no record boundaries to stream on, and Inspect itself loads
 * these files whole. Use the `.eval` format for large runs; it is read entry by entry.
 */
import { readFile } from 'node:fs/promises';
import { parseJson } from './lenient-json.js';
import { readHeader, readSample } from './log-shape.js';
import type { LogSource } from './run.js';

export async function readJsonLog(file: string, sha256: string): Promise<LogSource> {
  const doc = parseJson(await readFile(file, 'utf8'), file);
  const header = readHeader(doc, file);
  const raw = (doc as { samples?: unknown }).samples;
  const list = Array.isArray(raw) ? raw : [];
  const at = (i: number) => `${file}!samples[${i}]`;
  // Read (and checked) once: the menu needs every sample's choices before the first row.
  const parsed = list.map((s, i) => readSample(s, at(i)));
  return {
    file,
    sha256,
    header,
    early: parsed,
    sampleCount: parsed.length,
    samples: async function* () {
      for (const [i, sample] of parsed.entries()) yield { sample, at: at(i) };
    },
  };
}
