/** Sends a prepared response with its ETag, honouring If-None-Match with a 304. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BASE_HEADERS } from './errors.js';
import type { Prepared } from './prepared.js';

function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  // Weak comparison (RFC 9110 §13.1.2): W/ prefixes are ignored.
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

export function sendPrepared(req: FastifyRequest, reply: FastifyReply, p: Prepared, cacheControl: string): FastifyReply {
  reply.headers({ ...BASE_HEADERS, 'content-type': p.contentType, 'cache-control': cacheControl, etag: p.etag });
  if (matches(req.headers['if-none-match'], p.etag)) return reply.code(304).send();
  return reply.send(p.body);
}
