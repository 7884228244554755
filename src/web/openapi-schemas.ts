/**
 * The route schemas the OpenAPI document is generated from (@fastify/swagger): the error shape,
 * a registry document's operation and a metered product's. They describe answers; they never
 * change them (src/web/openapi.ts turns serialisation and validation off).
 */
import type { FastifySchema } from 'fastify';
import type { ProductKey } from '../core/pricing/products.js';
import { queryJsonSchema } from '../payments/product-queries.js';
import type { DocumentEntry } from '../serve/documents/document.js';

/** `{ error, code, … }`: every error the service answers (docs/errors.md). */
export const ERROR_SCHEMA = {
  type: 'object',
  required: ['error', 'code'],
  properties: { error: { type: 'string' }, code: { type: 'string', pattern: '^[a-z_]+$' } },
  additionalProperties: true,
} as const;

export const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ERROR_SCHEMA } },
});

/** What a registry document's file is served as, by the path's ending. */
const FILE_CONTENT = {
  'application/json': { schema: {} },
  'application/x-ndjson': { schema: { type: 'string' } },
  'application/did+json': { schema: { type: 'object' } },
  'application/schema+json': { schema: { type: 'object' } },
  'text/plain': { schema: { type: 'string' } },
  'application/atom+xml': { schema: { type: 'string' } },
  // The log's tiles and entry bundles (c2sp.org/tlog-tiles).
  'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
};

/** The route schema of a registry document: its query, and what it answers. */
export function documentRouteSchema(entry: DocumentEntry): FastifySchema {
  const ok =
    entry.schema !== null
      ? {
          description: `a ${entry.schema} document`,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['schema'],
                properties: { schema: { const: entry.schema } },
                additionalProperties: true,
              },
            },
          },
        }
      : { description: 'the file as published (JSON, JSONL, text or an Atom feed)', content: FILE_CONTENT };
  return {
    summary: entry.schema !== null ? `${entry.id}: the ${entry.schema} document` : `${entry.id}: a published file`,
    ...(entry.query !== null &&
      entry.query.length > 0 && {
        querystring: {
          type: 'object',
          properties: Object.fromEntries(entry.query.map((q) => [q, { type: 'string' }])),
          additionalProperties: false,
        },
      }),
    response: {
      200: ok,
      ...(entry.cache.kind === 'release' && { 304: { description: 'not modified (If-None-Match matched the ETag)' } }),
      ...(entry.id === 'readiness' && {
        503: {
          description: 'unready: a check failed',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['status', 'checks'],
                properties: { status: { const: 'unready' }, checks: { type: 'array' } },
              },
            },
          },
        },
      }),
      '4XX': errorResponse('an unknown, repeated or empty query parameter (400), or nothing at this path (404)'),
    },
  };
}

/** A metered product's route: its query, a 402 challenge without payment, the artefact with one. */
export function productRouteSchema(key: ProductKey): FastifySchema {
  const query = queryJsonSchema(key) as { properties?: Record<string, unknown>; required?: string[] };
  return {
    summary: `The metered product ${key} (x402 v2, scheme exact)`,
    ...(Object.keys(query.properties ?? {}).length > 0 && {
      querystring: {
        type: 'object',
        properties: query.properties,
        required: query.required ?? [],
        additionalProperties: false,
      },
    }),
    response: {
      200: {
        description:
          'the artefact, after settlement (or a replay of it); for the evidence bundle without bundle=1, its free preview',
        content: { 'application/json': { schema: { type: 'object' } } },
      },
      ...(key === 'evidence_bundle' && {
        202: {
          description:
            'an invoice request (invoice=gbp with commissioned_by): the reference is issued, svc.invoice/0.1',
          content: {
            'application/json': {
              schema: { type: 'object', required: ['ref'], properties: { ref: { type: 'string' } } },
            },
          },
        },
      }),
      402: {
        description:
          'payment required: an x402 v2 PaymentRequired (also in the PAYMENT-REQUIRED header), or a failed settlement',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              anyOf: [
                {
                  required: ['x402Version', 'accepts'],
                  properties: { x402Version: { const: 2 }, accepts: { type: 'array', minItems: 1 } },
                },
                ERROR_SCHEMA,
              ],
            },
          },
        },
      },
      '4XX': errorResponse('a bad query (400), a payment conflict or one being settled (409), a rate limit (429)'),
    },
  };
}
