/**
 * A file written beside the corpus and renamed into place only when the whole import has
 * succeeded: a refused or crashed import leaves the corpus as it was. Staged files live in the
 * corpus root (named `.gspc-import-…`), which the corpus reader ignores, and not in `peritem/`
 * or `axes/`, where a stray file would be refused. Same directory tree, so the rename is atomic.
 */
import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const FLUSH_AT = 1 << 20;
let serial = 0;

export class StagedFile {
  readonly path: string;
  private fd: number | null;
  private parts: string[] = [];
  private pending = 0;
  /** Bytes written (flushed or not): the offset of the next byte. */
  size = 0;

  constructor(corpusDir: string, label: string) {
    this.path = join(corpusDir, `.gspc-import-${process.pid}-${serial++}-${label.replace(/[^a-z0-9.-]/gi, '_')}.tmp`);
    this.fd = openSync(this.path, 'w+'); // read back by the merge
  }

  /** Appends `text`; returns its byte offset in the file. */
  write(text: string): number {
    const at = this.size;
    const bytes = Buffer.byteLength(text);
    this.parts.push(text);
    this.pending += bytes;
    this.size += bytes;
    if (this.pending >= FLUSH_AT) this.flush();
    return at;
  }

  flush(): void {
    if (this.parts.length === 0 || this.fd === null) return;
    writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.pending = 0;
  }

  /** Reads `length` bytes at `offset` back (flushes first). */
  read(offset: number, length: number): string {
    this.flush();
    const buf = Buffer.allocUnsafe(length);
    readSync(this.fd!, buf, 0, length, offset);
    return buf.toString('utf8');
  }

  /** Flushes, syncs and closes; the file stays staged until `commit` or `discard`. */
  close(): void {
    if (this.fd === null) return;
    this.flush();
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = null;
  }

  commit(target: string): void {
    this.close();
    renameSync(this.path, target);
  }

  discard(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    rmSync(this.path, { force: true });
  }
}
