/**
 * The static mirror as a plain file tree (issue 31): `site/<path>` for every mirrored path that
 * has no query, so any server that maps a URL to a file (`python3 -m http.server`, a bucket, a
 * CDN's static hosting) serves the release, not only nginx with the generated `nginx.conf`.
 *
 * - A path that is also the parent of other paths (`/dashboard` beside `/dashboard/axes/jail`)
 *   is written as `<path>/index.html`: plain servers answer `/dashboard` with a redirect to
 *   `/dashboard/` and then that file.
 * - `site/_headers` (the Netlify and Cloudflare Pages convention) gives each path the service's
 *   headers: content type, CORS, cache-control and the page policies. The ETag is the host's own.
 * - `site-objects.json` gives each object's key, content type, cache-control and SHA-256, what an
 *   object store needs set on upload (`aws s3 cp --content-type … --cache-control …`).
 *
 * A path with a query (`/api/gspc?axis=jail`, `/api/models?axis=jail`) has no plain file: a plain
 * server ignores the query. mirror.json lists their files, and nginx.conf maps them.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GspcError } from '../core/errors.js';

export interface SiteDocument {
  path: string;
  /** The headers the mirror keeps (lower-case names), the ETag included. */
  headers: Record<string, string>;
  body: Buffer;
}

export interface PlainSite {
  /** Files written under `site/`. */
  files: number;
  /** Mirrored paths left to a server that maps queries. */
  byQuery: string[];
}

const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/** The file under `site/` that answers `path`: `<path>`, or `<path>/index.html` when other paths lie below it. */
export function siteFile(path: string, parents: ReadonlySet<string>): string {
  const segments = path.split('/').slice(1);
  if (path === '/' || segments.some((s) => !SEGMENT.test(s) || s === '.' || s === '..'))
    throw new GspcError('internal', `${path} cannot be a plain file path`);
  return parents.has(path) ? `${segments.join('/')}/index.html` : segments.join('/');
}

export function writePlainSite(docs: readonly SiteDocument[], outDir: string): PlainSite {
  const plain = docs.filter((d) => !d.path.includes('?'));
  const parents = new Set<string>();
  for (const d of plain) {
    const segments = d.path.split('/');
    for (let i = 2; i < segments.length; i++) parents.add(segments.slice(0, i).join('/'));
  }
  const site = join(outDir, 'site');
  rmSync(site, { recursive: true, force: true });
  const headerLines: string[] = [];
  const objects: { key: string; path: string; content_type: string; cache_control?: string; sha256: string }[] = [];
  for (const d of plain) {
    const file = siteFile(d.path, parents);
    mkdirSync(dirname(join(site, file)), { recursive: true });
    writeFileSync(join(site, file), d.body);
    const { etag: _etag, ...headers } = d.headers;
    for (const rule of parents.has(d.path) ? [d.path, `${d.path}/`] : [d.path])
      headerLines.push(rule, ...Object.entries(headers).map(([k, v]) => `  ${k}: ${v}`));
    objects.push({
      key: file,
      path: d.path,
      content_type: headers['content-type'] ?? 'application/octet-stream',
      ...(headers['cache-control'] !== undefined && { cache_control: headers['cache-control'] }),
      sha256: createHash('sha256').update(d.body).digest('hex'),
    });
  }
  writeFileSync(join(site, '_headers'), `${headerLines.join('\n')}\n`);
  writeFileSync(
    join(outDir, 'site-objects.json'),
    `${JSON.stringify({ schema: 'svc.static-site-objects/1', objects }, null, 2)}\n`,
  );
  return { files: plain.length, byQuery: docs.filter((d) => d.path.includes('?')).map((d) => d.path) };
}
