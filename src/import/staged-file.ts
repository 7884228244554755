/**
 * A file written beside the corpus and renamed into place only when the whole import has
 * succeeded: a refused or crashed import leaves the corpus as it was. Staged files live in the
 * corpus root (named `.gspc-import-…`), which the corpus reader ignores, and not in `peritem/`
 * or `axes/`, where a stray file would be refused. Same directory tree, so the rename is atomic.
 */
import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const BUFFER = 1 << 20;
let serial = 0;

export class StagedFile {
  readonly path: string;
  private fd: number | null;
  /** Text is encoded straight into this buffer (no join, no separate byte count). */
  private readonly buf = Buffer.allocUnsafe(BUFFER);
  private used = 0;
  /** Bytes written (flushed or not): the offset of the next byte. */
  size = 0;

  constructor(corpusDir: string, label: string) {
    this.path = join(corpusDir, `.gspc-import-${process.pid}-${serial++}-${label.replace(/[^a-z0-9.-]/gi, '_')}.tmp`);
    this.fd = openSync(this.path, 'w+'); // read back by the merge
  }

  /** Appends `text`; returns its byte offset in the file. */
  write(text: string): number {
    const at = this.size;
    // A UTF-16 code unit encodes to at most 3 UTF-8 bytes, so this always fits after a flush.
    if (this.used + text.length * 3 > BUFFER) this.flush();
    if (text.length * 3 > BUFFER) {
      this.size += this.named(() => writeSync(this.fd!, text));
      return at;
    }
    const n = this.buf.write(text, this.used);
    this.used += n;
    this.size += n;
    return at;
  }

  flush(): void {
    if (this.used === 0 || this.fd === null) return;
    const fd = this.fd;
    this.named(() => writeSync(fd, this.buf, 0, this.used));
    this.used = 0;
  }

  /** Runs a write; a failure (ENOSPC names no path) is given this file's path for its message. */
  private named<T>(write: () => T): T {
    try {
      return write();
    } catch (e) {
      (e as NodeJS.ErrnoException).path ??= this.path;
      throw e;
    }
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
