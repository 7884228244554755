/**
 * The one route helper for registered documents: a GET route per registry entry, the query
 * checked as the entry declares, prepared bytes sent with their ETag (304 on a match), built
 * documents with their own headers. Errors are thrown as GspcError and answered by the one error
 * table (errors.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../serve/context.js';
import type { DocumentEntry } from '../serve/documents/document.js';
import { readQuery } from '../serve/query.js';
import { documentRouteSchema } from './openapi.js';
import { sendPrepared } from './send.js';

export function registerDocumentRoutes(
  app: FastifyInstance,
  ctx: ServiceContext,
  entries: readonly DocumentEntry[],
): void {
  for (const entry of entries) {
    app.get(entry.route, { schema: documentRouteSchema(entry) }, async (req, reply) => {
      const q = req.url.indexOf('?');
      const path = q === -1 ? req.url : req.url.slice(0, q);
      const query = entry.query === null ? new Map<string, string>() : readQuery(req.url, entry.query);
      const body = await entry.read(ctx, { params: req.params as Record<string, string>, query, path, log: req.log });
      if (body.kind === 'prepared') return sendPrepared(req, reply, body.prepared);
      return reply
        .code(body.status ?? 200)
        .headers(body.headers)
        .send(body.text);
    });
  }
}
