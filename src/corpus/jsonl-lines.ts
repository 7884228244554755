/**
 * Walks a JSONL file one line at a time without splitting the whole buffer (the per-item rows of
 * a large corpus run to millions of lines). Blank lines and lines that are not JSON are reported
 * as problems with their 1-based line number; every other line's value is handed on.
 */
import type { CorpusProblem } from '../core/errors.js';

/** `onValue` returns false to stop early (e.g. once enough problems are collected). */
export function forEachJsonlValue(
  bytes: Buffer,
  file: string,
  report: (p: CorpusProblem) => void,
  onValue: (value: unknown, line: number) => boolean | void,
): number {
  let start = 0;
  let line = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(10, start);
    if (end === -1) end = bytes.length;
    line++;
    let stop = end;
    if (stop > start && bytes[stop - 1] === 13) stop--;
    const text = bytes.toString('utf8', start, stop);
    start = end + 1;
    if (text.trim() === '') {
      report({ file, line, field: '', reason: 'blank line' });
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      report({ file, line, field: '', reason: `invalid JSON (${(e as Error).message})` });
      continue;
    }
    if (onValue(value, line) === false) break;
  }
  return line;
}
