/**
 * Reads a (possibly huge) text file line by line, synchronously, one 1 MiB chunk at a time:
 * never the whole file. Readers of JSONL harness output (lm-eval samples, Every Eval Ever
 * records) use it so the importer's memory does not grow with the input.
 * Synchronous on purpose: an async iterator per line costs more than the JSON.parse of a short
 * line, and an import is a batch job with nothing else to do meanwhile.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';

const CHUNK = 1 << 20;

export interface Line {
  /** 1-based line number. */
  line: number;
  /** The line's text without its newline (and without a CR before it). */
  text: string;
}

/** A file read line by line, with how far it has got (for a progress bar). */
export class LineFile {
  readonly size: number;
  private done = 0;

  constructor(readonly path: string) {
    const fd = openSync(path, 'r');
    try {
      this.size = fstatSync(fd).size;
    } finally {
      closeSync(fd);
    }
  }

  /** Fraction of the bytes read so far (1 for an empty file). */
  progress(): number {
    return this.size === 0 ? 1 : this.done / this.size;
  }

  /** Every line, blank ones included (the caller decides what a blank line means). */
  *lines(): Generator<Line> {
    const fd = openSync(this.path, 'r');
    try {
      const buf = Buffer.allocUnsafe(CHUNK);
      // Bytes of an unfinished line carried over from the previous chunk. Splitting on the byte
      // 0x0A is safe in UTF-8: it never occurs inside a multi-byte sequence.
      let carry: Buffer = Buffer.alloc(0);
      let line = 0;
      this.done = 0;
      for (;;) {
        const n = readSync(fd, buf, 0, CHUNK, null);
        if (n === 0) break;
        this.done += n;
        const chunk = carry.length > 0 ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
        let start = 0;
        for (let end = chunk.indexOf(10, start); end !== -1; end = chunk.indexOf(10, start)) {
          line++;
          const stop = end > start && chunk[end - 1] === 13 ? end - 1 : end;
          yield { line, text: chunk.toString('utf8', start, stop) };
          start = end + 1;
        }
        // Copy the tail: `buf` is reused by the next read.
        carry = Buffer.from(chunk.subarray(start));
      }
      if (carry.length > 0) {
        line++;
        const stop = carry[carry.length - 1] === 13 ? carry.length - 1 : carry.length;
        yield { line, text: carry.toString('utf8', 0, stop) };
      }
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * Whether a line holds nothing but whitespace. Not `text.trim() === ''`, which copies every
 * (~1 KB) line of a million-line file to find its first character.
 */
export const isBlank = (text: string): boolean => /^\s*$/.test(text);

/** SHA-256 (hex) of a file's bytes, read in chunks. */
export function sha256File(path: string): string {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    for (let n = readSync(fd, buf, 0, CHUNK, null); n > 0; n = readSync(fd, buf, 0, CHUNK, null))
      hash.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}
