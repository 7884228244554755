/**
 * `gspc export static`: a release's free, immutable GET documents as plain files a static server
 * or a CDN serves without running this code (docs/operations.md, "A static mirror"), with
 *
 * - `files/<name>`: each response body, byte for byte as the service sends it, named by the
 *   SHA-256 of its request path (paths hold queries and overlap as directories, names do not);
 * - `mirror.json` (`svc.static-mirror/1`): every path with its file, SHA-256 and headers, for
 *   any static server or CDN to be configured from;
 * - `nginx.conf`: an include for nginx's `http {}` block that answers each path with its file
 *   and the service's headers (content type, CORS, cache-control, the strong ETag, 304 on a
 *   matching If-None-Match), a JSON 404 for any other path and 405 for other methods;
 * - `site/` and `site-objects.json`: the same documents as a plain file tree, for any static
 *   host (plain-site.ts).
 *
 * The documents are given (the composition root reads them from the service itself, through
 * its own routes), so what is written is exactly what the service answers.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GspcError } from '../core/errors.js';
import { type PlainSite, writePlainSite } from './plain-site.js';
import { linkUnservedToOrigin, servedBy } from './page-links.js';

export interface MirrorDocument {
  /** The request path, with its query when the document reads one (`/api/gspc?axis=jail`). */
  path: string;
  /** Whether the query selects the document (the board); else any query gets the same file. */
  keyedByQuery: boolean;
  /** The response headers that describe the document (content type, CORS, cache, ETag, CSP, …). */
  headers: Record<string, string>;
  body: Buffer;
}

export interface MirrorOptions {
  /** The release the documents are of (for mirror.json and messages). */
  release: string;
  /** The origin the release was published for: the mirror serves that origin's documents. */
  origin: string;
  /** nginx's `listen` parameter (`8080`, `127.0.0.1:8080`). */
  listen: string;
}

export interface MirrorResult {
  documents: number;
  bytes: number;
  files: string[];
  /** The plain file tree (plain-site.ts). */
  site: PlainSite;
}

/** Headers the mirror sets per document; the rest (date, length, connection) are the server's own. */
const KEPT =
  /^(content-type|cache-control|etag|access-control-[a-z-]+|x-content-type-options|content-security-policy|referrer-policy|vary)$/;

/** The headers a mirror sets, lower-case and sorted. */
function keptHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .map(([k, v]) => [k.toLowerCase(), v] as const)
      .filter(([k]) => KEPT.test(k))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** A value inside nginx double quotes. Paths and headers never hold `$` (a variable there) or a line break. */
function q(s: string): string {
  if (/[\r\n$]/.test(s))
    throw new GspcError('internal', `a mirrored header or path holds a line break or a $: ${JSON.stringify(s)}`);
  return `"${s.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

export function writeStaticMirror(docs: readonly MirrorDocument[], outDir: string, opts: MirrorOptions): MirrorResult {
  if (!/^([0-9a-zA-Z.[\]:-]+:)?[0-9]{1,5}$/.test(opts.listen))
    throw new GspcError('config_invalid', `--listen ${opts.listen}: a port, or host:port`);
  const seen = new Set<string>();
  for (const d of docs) {
    if (seen.has(d.path)) throw new GspcError('internal', `${d.path} is mirrored twice`);
    seen.add(d.path);
  }
  const root = resolve(outDir);
  rmSync(join(root, 'files'), { recursive: true, force: true });
  mkdirSync(join(root, 'files'), { recursive: true });
  // Pages link to the origin for what this mirror does not serve (page-links.ts).
  const pagesFor = (withQueries: boolean) => {
    const served = servedBy(docs, withQueries);
    return docs.map((d) => {
      if (!/^text\/html/.test(d.headers['content-type'] ?? '')) return d;
      const body = Buffer.from(linkUnservedToOrigin(d.body.toString('utf8'), served, opts.origin), 'utf8');
      if (body.equals(d.body)) return d;
      // The service's ETag (pages have none today) would name other bytes: the changed page drops it.
      const { etag: _stale, ...headers } = d.headers;
      return { ...d, headers, body };
    });
  };
  const nginxDocs = pagesFor(true);

  // Documents with the same headers (ETag apart) share one nginx location.
  const groups = new Map<string, number>();
  const entries = nginxDocs.map((d) => {
    const headers = keptHeaders(d.headers);
    const { etag, ...shared } = headers;
    const key = JSON.stringify(shared);
    if (!groups.has(key)) groups.set(key, groups.size);
    const file = sha256(d.path).slice(0, 32);
    writeFileSync(join(root, 'files', file), d.body);
    return { ...d, headers, file, group: groups.get(key)!, etag };
  });

  writeFileSync(
    join(root, 'mirror.json'),
    `${JSON.stringify(
      {
        schema: 'svc.static-mirror/1',
        release: opts.release,
        origin: opts.origin,
        documents: entries.map((e) => ({
          path: e.path,
          query: e.keyedByQuery ? 'selects the document' : 'ignored',
          file: `files/${e.file}`,
          sha256: sha256(e.body),
          bytes: e.body.length,
          headers: e.headers,
        })),
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(join(root, 'nginx.conf'), nginxConfig(entries, root, opts));
  const site = writePlainSite(
    pagesFor(false).map((d) => ({ ...d, headers: keptHeaders(d.headers) })),
    root,
  );
  return {
    documents: entries.length,
    bytes: entries.reduce((n, e) => n + e.body.length, 0),
    files: ['mirror.json', 'nginx.conf', 'site/', 'site-objects.json'],
    site,
  };
}

interface Entry {
  path: string;
  keyedByQuery: boolean;
  headers: Record<string, string>;
  file: string;
  group: number;
  etag: string | undefined;
}

function nginxConfig(entries: readonly Entry[], root: string, opts: MirrorOptions): string {
  const byQuery = entries.filter((e) => e.keyedByQuery);
  const tagged = entries.filter((e) => e.etag !== undefined);
  const plain = entries.filter((e) => !e.keyedByQuery);
  const groupHeaders = new Map<number, Record<string, string>>();
  for (const e of entries) {
    const { etag: _etag, ...shared } = e.headers;
    groupHeaders.set(e.group, shared);
  }
  const notFound = (code: string, error: string) => JSON.stringify({ error, code });
  const json = (status: number, code: string, error: string) =>
    `return ${status} '${JSON.stringify({ error, code }).replaceAll("'", '')}\n';`;
  const lines: string[] = [
    `# gspc static mirror of release ${opts.release} (${opts.origin}), written by gspc export static.`,
    "# Include inside nginx's http {} block. Each path answers its file under files/ with the",
    '# headers the service sends; mirror.json lists the same for other static servers.',
    '',
    '# A document selected by its query: the exact path and query.',
    'map "$uri?$args" $gspc_by_query {',
    '  default "";',
    ...byQuery.map((e) => `  ${q(e.path.includes('?') ? e.path : `${e.path}?`)} ${q(`/_g${e.group}/${e.file}`)};`),
    '}',
    '# A file served as published: its path (any query is ignored, as by the service).',
    'map $uri $gspc_by_path {',
    '  default "";',
    ...plain.map((e) => `  ${q(e.path)} ${q(`/_g${e.group}/${e.file}`)};`),
    '}',
    "# Each file's strong ETag, by the internal path it is served from (none: no header) ...",
    'map $uri $gspc_etag {',
    '  default "";',
    ...tagged.map((e) => `  ${q(`/_g${e.group}/${e.file}`)} ${q(e.etag!)};`),
    '}',
    '# ... and what an If-None-Match must equal for a 304 (never matched without an ETag).',
    'map $uri $gspc_if_none_match {',
    '  default "(no etag)";',
    ...tagged.map((e) => `  ${q(`/_g${e.group}/${e.file}`)} ${q(e.etag!)};`),
    '}',
    "# What a path nothing answers gets: the service's 404 body, tile_not_found under the log's tiles.",
    'map $uri $gspc_not_found {',
    `  default ${q(notFound('not_found', 'not found: this static mirror serves the release documents its mirror.json lists; paid and live routes are answered by the service itself'))};`,
    `  ~^/log/tile/ ${q(notFound('tile_not_found', "this log publishes no such tile; tiles are /log/tile/<L>/<N>[.p/<W>] and /log/tile/entries/<N>[.p/<W>] (c2sp.org/tlog-tiles) for its checkpoints' sizes"))};`,
    '}',
    '',
    'server {',
    `  listen ${opts.listen};`,
    '  etag off;',
    '  if_modified_since off;',
    '  server_tokens off;',
    '  location / {',
    '    default_type "application/json; charset=utf-8";',
    '    add_header access-control-allow-origin "*" always;',
    `    if ($request_method !~ ^(GET|HEAD)$) { ${json(405, 'method_not_allowed', 'a static mirror answers GET and HEAD only')} }`,
    '    set $gspc_file $gspc_by_query;',
    '    if ($gspc_file = "") { set $gspc_file $gspc_by_path; }',
    '    if ($gspc_file = "") { return 404 "$gspc_not_found\\n"; }',
    '    rewrite ^ $gspc_file last;',
    '  }',
  ];
  for (const [group, headers] of groupHeaders) {
    const { 'content-type': type, ...rest } = headers;
    lines.push(
      `  location ^~ /_g${group}/ {`,
      '    internal;',
      `    alias ${q(`${join(root, 'files')}/`)};`,
      '    types { }',
      `    default_type ${q(type ?? 'application/octet-stream')};`,
      ...Object.entries(rest).map(([k, v]) => `    add_header ${k} ${q(v)} always;`),
      '    add_header etag $gspc_etag always;',
      '    if ($http_if_none_match = $gspc_if_none_match) { return 304; }',
      '  }',
    );
  }
  lines.push('}', '');
  return lines.join('\n');
}
