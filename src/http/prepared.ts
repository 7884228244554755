/**
 * Pre-serialised responses. The board for every selection (all axes, and each axis) is built
 * and serialised once per release and live state; a request copies bytes and compares ETags.
 */
import { createHash } from 'node:crypto';
import { BASE_HEADERS } from './errors.js';
import { buildBoard, type LiveState } from '../core/board/board.js';
import { publishedUrl } from '../core/board/peritem-manifest.js';
import type { LoadedRelease } from '../release/load.js';

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
  return { body, etag, headers: { ...BASE_HEADERS, 'content-type': contentType, 'cache-control': CACHE_CONTROL, etag } };
}

const JSON_TYPE = 'application/json; charset=utf-8';

export interface PreparedRelease {
  release: LoadedRelease;
  /** Board bytes by selection: '' for all axes, else the axis slug. */
  boards: Map<string, Prepared>;
  knownAxes: string[];
  /** Published corpus files and the manifest, by URL path. */
  files: Map<string, Prepared>;
}

export function prepareRelease(release: LoadedRelease, live: LiveState): PreparedRelease {
  const boards = new Map<string, Prepared>();
  const serialise = (axis: string | null) => prepare(Buffer.from(JSON.stringify(buildBoard(release.source, axis, live))), JSON_TYPE);
  boards.set('', serialise(null));
  const knownAxes = release.source.axes.map((a) => a.row.axis);
  for (const axis of knownAxes) boards.set(axis, serialise(axis));

  const files = new Map<string, Prepared>();
  files.set('/peritem/manifest.json', prepare(release.manifestBytes, JSON_TYPE, release.source.peritem.sha256));
  for (const f of release.corpus.files) {
    const type = f.path.endsWith('.jsonl') ? 'application/x-ndjson; charset=utf-8' : f.path.endsWith('.json') ? JSON_TYPE : 'application/octet-stream';
    files.set(publishedUrl(f.path).url, prepare(f.bytes, type, f.sha256));
  }
  return { release, boards, knownAxes, files };
}
