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

export function prepare(body: Buffer, contentType: string, sha256?: string): Prepared {
  const digest = sha256 ?? createHash('sha256').update(body).digest('hex');
  const etag = `"${digest.slice(0, 32)}"`;
  return {
    body,
    etag,
    headers: { ...BASE_HEADERS, 'content-type': contentType, 'cache-control': CACHE_CONTROL, etag },
  };
}
