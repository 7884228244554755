/**
 * Fastify's error and not-found handlers: every failure is answered with the one error body and
 * the status of the one table (src/serve/error-body.ts). Fastify's own client errors (a content
 * type it does not parse, a body too large or not JSON, a malformed URL) are mapped onto the
 * product's codes, so a client never meets a framework's `FST_ERR_…` name (issue 28); so are
 * requests node's HTTP parser refuses before Fastify routes them (`clientErrorHandler`).
 */
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { GspcError, type GspcErrorCode } from '../core/errors.js';
import { BASE_HEADERS } from '../serve/headers.js';
import { errorBody, STATUS_BY_CODE } from '../serve/error-body.js';
import { MAX_JSON_DEPTH } from './json-body.js';

/** Fastify's client-error codes, in the product's vocabulary, with the message a client reads. */
const FRAMEWORK_ERRORS: Record<
  string,
  { code: GspcErrorCode; message: (e: FastifyError, contentType: string | undefined) => string }
> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: (_e, type) =>
      `the request body's content type (${type ?? 'none given'}) is not one this route reads: send application/json`,
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'body_too_large',
    message: () => 'the request body is larger than this route reads',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'bad_body',
    message: () => 'the Content-Length header does not match the body sent',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'bad_body', message: () => 'the body is empty, but its content type is JSON' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'bad_body', message: (e) => `the body is not JSON (${e.message})` },
  GSPC_JSON_TOO_DEEP: {
    code: 'bad_body',
    message: () => `the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`,
  },
  FST_ERR_BAD_URL: {
    code: 'bad_url',
    message: () => 'the request path is not a valid URL path (a malformed %-escape?)',
  },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'bad_url', message: () => 'a segment of the request path is too long' },
};

/** A Fastify client error (status < 500, not ours) as a product error, or undefined. */
export function frameworkError(err: FastifyError, contentType?: string): GspcError | undefined {
  const status = err.statusCode;
  if (err instanceof GspcError || typeof status !== 'number' || status >= 500) return undefined;
  const known = err.code === undefined ? undefined : FRAMEWORK_ERRORS[err.code];
  if (known) return new GspcError(known.code, known.message(err, contentType));
  // A JSON syntax error thrown by the parser itself carries a 400 and no framework code.
  if (err instanceof SyntaxError) return new GspcError('bad_body', `the body is not JSON (${err.message})`);
  return new GspcError(
    status === 415 ? 'unsupported_media_type' : status === 413 ? 'body_too_large' : 'bad_request',
    err.message,
  );
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | GspcError, req, reply) => {
    const mapped = err instanceof GspcError ? err : frameworkError(err, req.headers['content-type']);
    if (mapped === undefined) req.log.error({ err }, 'unhandled error');
    const e = mapped ?? new GspcError('internal', 'internal error');
    const status = STATUS_BY_CODE[e.code];
    // A server-side failure is of this moment: no cache may keep it (issue 38).
    return reply
      .code(status)
      .headers(status >= 500 ? { ...BASE_HEADERS, 'cache-control': 'no-store' } : BASE_HEADERS)
      .send(errorBody(e));
  });
  app.setNotFoundHandler((req, reply) => {
    reply
      .code(404)
      .headers(BASE_HEADERS)
      .send({ error: `no resource at ${req.method} ${req.url.split('?')[0]}`, code: 'not_found' });
  });
}

/**
 * Fastify's `frameworkErrors`: a path it cannot decode, or a segment longer than the router
 * takes, answered before any route (so the error handler above never sees them).
 */
export const frameworkErrors = (err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void => {
  const e = frameworkError(err) ?? new GspcError('bad_url', 'the request path cannot be read');
  void reply.code(STATUS_BY_CODE[e.code]).headers(BASE_HEADERS).send(errorBody(e));
};

/**
 * What node's HTTP parser refuses before Fastify sees a request (a request line it cannot read,
 * a header too large): the same JSON shape, written on the socket, then the socket is closed.
 * Passed to Fastify as `clientErrorHandler`.
 */
export const clientErrorHandler: NonNullable<FastifyServerOptions['clientErrorHandler']> = (
  err: NodeJS.ErrnoException,
  socket: Socket,
) => {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify(
    tooLarge
      ? { error: 'the request headers are larger than the server reads', code: 'bad_request' }
      : {
          error: 'the request could not be read as HTTP/1.1 (a request line or header that does not parse)',
          code: 'bad_request',
        },
  );
  socket.end(
    `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
      `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `access-control-allow-origin: *\r\nconnection: close\r\n\r\n${body}`,
  );
};

/**
 * A product error raised before a JSON-RPC route's handler (the rate limiter's 429), as that
 * route answers it (issue 38): its HTTP status and a JSON-RPC error, server-error code -32000,
 * whose `data` is the service's error body (`code`, `class`, `limit`, `retry_after_seconds`).
 * Undefined for anything else (the route's own handler words it).
 */
export function jsonRpcProductError(
  err: unknown,
): { status: number; error: { code: number; message: string; data: Record<string, unknown> } } | undefined {
  if (!(err instanceof GspcError) || err.code !== 'rate_limited') return undefined;
  return { status: STATUS_BY_CODE[err.code], error: { code: -32000, message: err.message, data: errorBody(err) } };
}
