/**
 * The one table from error codes to HTTP statuses, and the JSON error body every route
 * sends: `{ error, code, ...details }`. docs/errors.md lists the same table.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { GspcError, type GspcErrorCode } from '../core/errors.js';

export const STATUS_BY_CODE: Record<GspcErrorCode, number> = {
  corpus_invalid: 422,
  release_invalid: 500,
  release_not_found: 503,
  unknown_axis: 404,
  bad_query: 400,
  not_found: 404,
  method_not_allowed: 405,
  config_invalid: 500,
  witness_invalid: 422,
  bad_body: 400,
  bad_payment: 400,
  payment_conflict: 409,
  rail_unconfigured: 503,
  facilitator_unavailable: 503,
  settlement_unknown: 502,
  chain_unavailable: 502,
  payment_pending: 409,
  ledger_input_invalid: 400,
  ledger_not_found: 404,
  ledger_transition_invalid: 409,
  ledger_conflict: 409,
  ledger_unavailable: 503,
  ledger_schema_unsupported: 500,
  internal: 500,
};

export const BASE_HEADERS = { 'access-control-allow-origin': '*', 'x-content-type-options': 'nosniff' } as const;

export function errorBody(err: GspcError): Record<string, unknown> {
  return { error: err.message, code: err.code, ...err.details };
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | GspcError, req, reply) => {
    const status = (err as FastifyError).statusCode;
    if (!(err instanceof GspcError) && typeof status === 'number' && status < 500) {
      // Fastify's own client errors (bad content type, body too large, malformed URL).
      return reply.code(status).headers(BASE_HEADERS).send({ error: err.message, code: (err as FastifyError).code ?? 'bad_request' });
    }
    if (!(err instanceof GspcError)) req.log.error({ err }, 'unhandled error');
    const e = err instanceof GspcError ? err : new GspcError('internal', 'internal error');
    return reply.code(STATUS_BY_CODE[e.code]).headers(BASE_HEADERS).send(errorBody(e));
  });
  app.setNotFoundHandler((req, reply) => {
    reply.code(404).headers(BASE_HEADERS).send({ error: `no resource at ${req.method} ${req.url.split('?')[0]}`, code: 'not_found' });
  });
}
