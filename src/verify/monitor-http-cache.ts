/**
 * The monitor's conditional requests (issue 42, item 3; decision MT4): the documents a poll
 * reads besides the log (the DID document, the key transitions, the release documents) are
 * asked for with `If-None-Match` and the ETag of the bytes this monitor last received, so an
 * unchanged view answers 304 with no body. The bytes are kept in `<state dir>/http-cache/`, one
 * body and one ETag file per URL. A 304 hands back the kept bytes, which are then judged
 * exactly as a fresh answer would be: a view that answers 304 serves this monitor the bytes it
 * served before, and nothing is trusted for having been cached.
 *
 * A cache that cannot be read is a miss (the request goes out without a validator): it is a
 * copy of what a server said, not the monitor's memory of what it verified (monitor.json).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Counted by the tests and stated by docs/performance.md §19. */
export interface CacheCounts {
  /** Requests sent with a validator. */
  conditional: number;
  /** Of those, answered 304 (no body). */
  notModified: number;
}

export class HttpCache {
  readonly counts: CacheCounts = { conditional: 0, notModified: 0 };

  constructor(private readonly dir: string) {}

  #file(url: string, ext: string): string {
    return join(this.dir, `${createHash('sha256').update(url).digest('hex')}.${ext}`);
  }

  /** The ETag and bytes kept for `url`, if both read. */
  kept(url: string): { etag: string; body: Buffer } | undefined {
    try {
      const etag = readFileSync(this.#file(url, 'etag'), 'utf8');
      return { etag, body: readFileSync(this.#file(url, 'body')) };
    } catch {
      return undefined;
    }
  }

  /**
   * Keeps `body` with `etag` (a weak or strong ETag as the server sent it). The ETag is removed
   * first and written last, each file by rename, so a crash never leaves an ETag beside bytes it
   * was not sent with.
   */
  keep(url: string, etag: string, body: Buffer): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      rmSync(this.#file(url, 'etag'), { force: true });
      const tmp = `${this.#file(url, 'body')}.${process.pid}`;
      writeFileSync(tmp, body);
      renameSync(tmp, this.#file(url, 'body'));
      writeFileSync(`${this.#file(url, 'etag')}.${process.pid}`, etag);
      renameSync(`${this.#file(url, 'etag')}.${process.pid}`, this.#file(url, 'etag'));
    } catch {
      // A cache that cannot be written costs the next poll a full answer, nothing else.
    }
  }

  /** Forgets `url` (it answered 404, or a body that did not fit its cap). */
  drop(url: string): void {
    rmSync(this.#file(url, 'etag'), { force: true });
  }
}

/** The cache of a state directory. */
export const stateCache = (stateDir: string): HttpCache => new HttpCache(join(stateDir, 'http-cache'));

/**
 * Paths of a view that are always asked for whole: the checkpoint (what a poll is about), the
 * log's tiles and bundles (immutable, and each read at most once per growth), and the RFC 9162
 * consistency proof (its answer depends on the size asked from).
 */
export const uncached = (path: string): boolean =>
  path === '/log/checkpoint' || path.startsWith('/log/tile/') || path.startsWith('/log/consistency');
