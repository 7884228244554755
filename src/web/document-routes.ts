/**
 * The one route helper for registered documents: a GET route per registry entry, the query
 * checked as the entry declares, prepared bytes sent with their ETag (304 on a match), built
 * documents with their own headers. Errors are thrown as GspcError and answered by the one error
 * table (errors.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../serve/context.js';
import type { DocumentBody, DocumentEntry } from '../serve/documents/document.js';
import { readQuery } from '../serve/query.js';
import type { PreparedFastPath } from './fast-path.js';
import { documentRouteSchema } from './openapi-schemas.js';
import { sendPrepared } from './send.js';

/** No query: one empty map for every request (readers never change it). */
const NO_QUERY: ReadonlyMap<string, string> = new Map();

export function registerDocumentRoutes(
  app: FastifyInstance,
  ctx: ServiceContext,
  entries: readonly DocumentEntry[],
  fastPath?: PreparedFastPath,
): void {
  for (const entry of entries) {
    const perRelease = fastPath !== undefined && entry.cache.kind === 'release';
    // Not an async handler: most reads are prepared bytes, answered synchronously; a promise and
    // its microtask per request cost a measurable share of the board's time (docs/performance.md §12).
    app.get(entry.route, { schema: documentRouteSchema(entry) }, (req, reply) => {
      const q = req.url.indexOf('?');
      const path = q === -1 ? req.url : req.url.slice(0, q);
      const query = entry.query === null || q === -1 ? NO_QUERY : readQuery(req.url, entry.query, [], entry.queryMax);
      const release = ctx.state.current();
      const body = entry.read(ctx, { params: req.params as Record<string, string>, query, path, log: req.log });
      if (body instanceof Promise) return body.then((b) => send(req, reply, b));
      // A GET of a per-release prepared document: the fast path may replay this answer for the
      // same target until the release changes (the read was synchronous, so `release` is the one
      // it read). A query counts when the document reads it (the board's and /api/models's
      // `?axis=`: the bytes are a function of the release and the query, decision S6); a query a
      // document ignores is not recorded, so it cannot grow the record with spellings.
      // Only the one spelling of that query is recorded (issue 38): `?&&&…`, `?axis=x&` and the
      // like are answered, but a client cannot grow the record by spelling one answer many ways.
      if (
        perRelease &&
        (q === -1 || (entry.query !== null && req.url === canonicalTarget(path, entry.query, query))) &&
        req.method === 'GET' &&
        body.kind === 'prepared'
      )
        fastPath.record(release, req.url, entry.route, body.prepared);
      return send(req, reply, body);
    });
  }
}

function send(req: FastifyRequest, reply: FastifyReply, body: DocumentBody): FastifyReply {
  if (body.kind === 'prepared') return sendPrepared(req, reply, body.prepared);
  return reply
    .code(body.status ?? 200)
    .headers(body.headers)
    .send(body.text);
}

/** `path?k=v&…` in the order the document declares its parameters, values escaped as URLSearchParams does. */
function canonicalTarget(path: string, allowed: readonly string[], query: ReadonlyMap<string, string>): string {
  const params = new URLSearchParams();
  for (const k of allowed) {
    const v = query.get(k);
    if (v !== undefined) params.append(k, v);
  }
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}
