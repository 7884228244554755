/**
 * Fastify's error and not-found handlers: every failure is answered with the one error body and
 * the status of the one table (src/serve/error-body.ts).
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { GspcError } from '../core/errors.js';
import { BASE_HEADERS } from '../serve/headers.js';
import { errorBody, STATUS_BY_CODE } from '../serve/error-body.js';

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | GspcError, req, reply) => {
    const status = (err as FastifyError).statusCode;
    if (!(err instanceof GspcError) && typeof status === 'number' && status < 500) {
      // Fastify's own client errors (bad content type, body too large, malformed URL).
      return reply
        .code(status)
        .headers(BASE_HEADERS)
        .send({ error: err.message, code: (err as FastifyError).code ?? 'bad_request' });
    }
    if (!(err instanceof GspcError)) req.log.error({ err }, 'unhandled error');
    const e = err instanceof GspcError ? err : new GspcError('internal', 'internal error');
    return reply.code(STATUS_BY_CODE[e.code]).headers(BASE_HEADERS).send(errorBody(e));
  });
  app.setNotFoundHandler((req, reply) => {
    reply
      .code(404)
      .headers(BASE_HEADERS)
      .send({ error: `no resource at ${req.method} ${req.url.split('?')[0]}`, code: 'not_found' });
  });
}
