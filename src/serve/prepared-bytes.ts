/** A response prepared once: body, strong ETag and every header, so a request only copies bytes. */
import { createHash } from 'node:crypto';
import { BASE_HEADERS } from './headers.js';

export interface Prepared {
  body: Buffer;
  etag: string;
  /** Every response header, built once: building it per request cost ~7 µs (docs/performance.md). */
  headers: Readonly<Record<string, string>>;
}

/** Published documents may be cached for 300 seconds (the specification's limit for the board). */
export const CACHE_CONTROL = 'public, max-age=300';

/**
 * The log's state (`/log/checkpoint`, and what a reader checks against it: `/log/vkey`,
 * `/log/entries.json`, `/log/history.json`, `/log/consistency`) is revalidated on every read
 * (WN4): c2sp.org/tlog-tiles says the checkpoint's headers SHOULD prevent caching beyond a few
 * seconds, and a cache that kept one of them longer than the checkpoint would show a monitor a
 * proof or entries of another size (a false `fork` or `entries_rewritten`). The strong ETag keeps
 * a revalidation a 304 without a body.
 */
export const LOG_STATE_CACHE_CONTROL = 'no-cache';

export function prepare(
  body: Buffer,
  contentType: string,
  sha256?: string,
  cacheControl: string = CACHE_CONTROL,
): Prepared {
  const digest = sha256 ?? createHash('sha256').update(body).digest('hex');
  const etag = `"${digest.slice(0, 32)}"`;
  return {
    body,
    etag,
    headers: { ...BASE_HEADERS, 'content-type': contentType, 'cache-control': cacheControl, etag },
  };
}
