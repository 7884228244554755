/**
 * Streams a JSONL file line by line (an Every Eval Ever instance file can be large), hashing the
 * same bytes as it goes so the hash and the lines can never describe different contents. Blank
 * lines are skipped; a line that is not JSON is refused with `file:line`.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { GspcError } from '../../core/errors.js';
import { isBlank } from '../jsonl-lines.js';

export interface JsonlLine {
  value: unknown;
  /** 1-based. */
  line: number;
}

/**
 * Yields every non-blank line's JSON value; once the file is read, `done(sha256)` is called
 * with the SHA-256 of all its bytes (a caller that stops early gets no hash).
 */
export async function* jsonlLines(file: string, done: (sha256: string) => void): AsyncGenerator<JsonlLine> {
  const hash = createHash('sha256');
  let rest = Buffer.alloc(0);
  let line = 0;
  const parse = (bytes: Buffer): JsonlLine | undefined => {
    line++;
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (isBlank(text)) return undefined;
    try {
      return { value: JSON.parse(text), line };
    } catch (e) {
      throw new GspcError('import_refused', `${file}:${line}: not valid JSON (${(e as Error).message})`);
    }
  };
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    let buf = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10)) {
      const parsed = parse(buf.subarray(0, nl));
      buf = buf.subarray(nl + 1);
      if (parsed !== undefined) yield parsed;
    }
    rest = Buffer.from(buf);
  }
  if (rest.length > 0) {
    const parsed = parse(rest);
    if (parsed !== undefined) yield parsed;
  }
  done(hash.digest('hex'));
}
