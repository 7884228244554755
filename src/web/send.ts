/** Sends a prepared response with its ETag, honouring If-None-Match with a 304. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Prepared } from '../serve/prepared-bytes.js';

function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  // Weak comparison (RFC 9110 §13.1.2): W/ prefixes are ignored.
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

export function sendPrepared(req: FastifyRequest, reply: FastifyReply, p: Prepared): FastifyReply {
  reply.headers(p.headers);
  if (matches(req.headers['if-none-match'], p.etag)) return reply.code(304).send();
  return reply.send(p.body);
}
