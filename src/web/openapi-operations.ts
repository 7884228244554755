/**
 * The OpenAPI operations of the routes that are not registry documents: the pages and their
 * assets, free verification, the agent protocols and the invoices. Each says what the route
 * really takes (parameters, request bodies) and answers (status, media type, shape), as Prism
 * checks it against real traffic (test/web/openapi-third-party.e2e.test.ts). The metered
 * products and the registry documents describe themselves from their own route schemas.
 */
import { ERROR_SCHEMA } from './openapi-schemas.js';

type Json = Record<string, unknown>;

const json = (schema: Json = { type: 'object' }) => ({ 'application/json': { schema } });
const error = (description: string) => ({ description, content: json(ERROR_SCHEMA) });
const RPC_RESPONSE: Json = {
  type: 'object',
  required: ['jsonrpc'],
  properties: { jsonrpc: { const: '2.0' } },
};
const RPC_ERROR: Json = {
  type: 'object',
  required: ['jsonrpc', 'error'],
  properties: {
    jsonrpc: { const: '2.0' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' } },
    },
  },
};
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const preflight = (summary: string) => ({
  summary,
  responses: { 204: { description: 'the CORS preflight answer: methods and headers a browser may send' } },
});
const queryParam = (name: string, description: string, required = false) => ({
  in: 'query',
  name,
  required,
  description,
  schema: { type: 'string' },
});

/** By `METHOD path` (the OpenAPI path template). */
export const OPERATIONS: Readonly<Record<string, Json>> = {
  'GET /dashboard': {
    summary: 'The dashboard page (measured, regulators, provenance, compute tabs)',
    parameters: [queryParam('tab', 'measured, regulators, provenance or compute (default measured)')],
    responses: { 200: html('the page'), '4XX': html('an unknown tab or query: a page that says what is wrong') },
  },
  'GET /dashboard/axes/{axis}': {
    summary: 'One model-comparison axis: every model, every pair, tie groups and the size of the lead',
    parameters: [
      {
        in: 'path',
        name: 'axis',
        required: true,
        description: "a model-comparison axis slug of the board (GET /api/gspc's axes)",
        schema: { type: 'string' },
      },
    ],
    responses: {
      200: html('the page'),
      '4XX': html('an axis the board has no model comparison for (404) or a query (400): a page listing the axes'),
    },
  },
  'GET /dashboard/axes/{axis}/items': {
    summary:
      "The item explorer of an axis: a pair's 2×2 counts and discordant items with gold, labels and responses, or one item's every model (from GET /api/items)",
    parameters: [
      {
        in: 'path',
        name: 'axis',
        required: true,
        description: 'a model-comparison axis slug of the board with per-item rows',
        schema: { type: 'string' },
      },
      queryParam('first', 'model A of the pair (with second)'),
      queryParam('second', 'model B of the pair (with first)'),
      queryParam('side', 'first (A right, B wrong; the default) or second (the reverse)'),
      queryParam('item', 'one item id: every model on it (not with first, second or side)'),
      queryParam('cursor', "a GET /api/items cursor naming the page's first entry"),
    ],
    responses: {
      200: html('the page'),
      '4XX': html('a query /api/items refuses (400), or an unknown axis, model or item (404): a page saying why'),
    },
  },
  'GET /methodology': {
    summary: 'The methodology page: how every board number is made',
    responses: { 200: html('the page'), '4XX': error('a query string (the page takes none)') },
  },
  'GET /pricing': {
    summary: 'The pricing page: the metered products as of the request',
    responses: { 200: html('the page'), '4XX': error('a query string (the page takes none)') },
  },
  'GET /gspc-verify': {
    summary: 'The in-browser verifier (cards, bundles, offers, receipts; WebCrypto, no server call)',
    parameters: [queryParam('id', 'a card id: 16 or 64 lower-case hex')],
    responses: {
      200: html('the page (with the card checked when id names one)'),
      '4XX': html('a malformed id (400) or no such card (404): the page says which'),
    },
  },
  'GET /assets/{file}': {
    summary: "A page's script or stylesheet",
    parameters: [{ in: 'path', name: 'file', required: true, schema: { type: 'string' } }],
    responses: {
      200: {
        description: 'the file',
        content: {
          'text/css': { schema: { type: 'string' } },
          'text/javascript': { schema: { type: 'string' } },
          'application/json': { schema: { type: 'object' } },
        },
      },
      304: { description: 'not modified (If-None-Match matched the ETag)' },
      '4XX': error('no such asset'),
    },
  },
  'POST /api/verify': {
    summary: 'Verify measurement cards (free): by id, as a card, a list, or a bundle',
    requestBody: {
      required: true,
      content: json({
        description: '{"ids": [...]}, a card-v1 card, an array of cards, or {"cards": [...]} (docs/formats.md §5)',
      }),
    },
    responses: {
      200: {
        description: 'a svc.card-verification document: each card VALID or INVALID with its checks',
        content: json(),
      },
      '4XX': error('a body that is not one of the shapes, too many cards, or an id of no card'),
    },
  },
  'POST /api/receipts/verify': {
    summary: 'Verify an offer or receipt JWS (free): VALID, INVALID or UNVERIFIABLE_KEY',
    requestBody: {
      required: true,
      content: {
        ...json({
          type: 'object',
          required: ['jws'],
          properties: {
            jws: { type: 'string' },
            kind: { enum: ['receipt', 'offer'], description: 'what the JWS is held to be (default receipt)' },
            resource: { type: 'string', description: 'the absolute resource URL it must cover' },
            amount: { type: 'string', pattern: '^(0|[1-9][0-9]*)$', description: 'the atomic amount it must state' },
          },
        }),
        'text/plain': { schema: { type: 'string', description: 'the compact JWS (checked as a receipt)' } },
      },
    },
    responses: {
      200: {
        description: 'a svc.receipt-verification/1 document',
        content: json({
          type: 'object',
          required: ['schema', 'result'],
          properties: {
            schema: { const: 'svc.receipt-verification/1' },
            result: { enum: ['VALID', 'INVALID', 'UNVERIFIABLE_KEY'] },
            kind: { enum: ['offer', 'receipt', 'unknown'] },
          },
        }),
      },
      '4XX': error('no JWS, one over 64 KiB, or a malformed kind, resource or amount'),
    },
  },
  'GET /api/invoices/{ref}': {
    summary: 'The state of an invoice request (evidence bundle paid by invoice)',
    parameters: [{ in: 'path', name: 'ref', required: true, schema: { type: 'string' } }],
    responses: {
      200: { description: 'the invoice was paid: the delivered artefact', content: json() },
      202: { description: 'the invoice is issued and not yet paid (svc.invoice/0.1)', content: json() },
      '4XX': error('no invoice with that reference'),
      503: error('the ledger is unreachable'),
    },
  },
  'POST /mcp': {
    summary: 'MCP (Streamable HTTP, stateless; JSON-RPC 2.0): 17 read-only tools',
    requestBody: { required: true, content: json({ type: ['object', 'array'] }) },
    responses: {
      200: {
        description:
          'the JSON-RPC response: JSON (2026-07-28 era), or one SSE message event (2025 era; also subscriptions/listen)',
        content: { ...json(RPC_RESPONSE), 'text/event-stream': { schema: { type: 'string' } } },
      },
      202: { description: 'a notification or response, accepted (no body)' },
      '4XX': {
        description:
          'a JSON-RPC error: a body that does not parse or is nested too deep (400), a foreign Host or Origin (403), an Accept without both JSON and SSE (406), too large (413), not JSON (415)',
        content: json(RPC_ERROR),
      },
    },
  },
  'GET /mcp': {
    summary: 'Not offered: no standalone SSE stream (stateless server)',
    responses: {
      '4XX': { description: '405 with a JSON-RPC error; 403 for a foreign Host or Origin', content: json(RPC_ERROR) },
    },
  },
  'DELETE /mcp': {
    summary: 'Not offered: there is no session to end',
    responses: {
      '4XX': { description: '405 with a JSON-RPC error; 403 for a foreign Host or Origin', content: json(RPC_ERROR) },
    },
  },
  'OPTIONS /mcp': preflight('CORS preflight of /mcp'),
  'POST /api/a2a': {
    summary: 'A2A peer endpoint (JSON-RPC 2.0, A2A-Version 1.0): SendMessage answered with a message',
    parameters: [{ in: 'header', name: 'A2A-Version', required: false, schema: { type: 'string' } }],
    requestBody: { required: true, content: json() },
    responses: {
      200: {
        description:
          'a JSON-RPC response: the answering message, or a JSON-RPC error (A2A errors travel with HTTP 200)',
        content: json(RPC_RESPONSE),
      },
      '4XX': {
        description: 'a body too large (413) or nested too deep (400), as a JSON-RPC error',
        content: json(RPC_ERROR),
      },
    },
  },
  'GET /api/a2a': {
    summary: 'Not offered: the peer endpoint takes POST (the agent card is at /.well-known/agent-card.json)',
    responses: { '4XX': error('405 method_not_allowed') },
  },
  'OPTIONS /api/a2a': preflight('CORS preflight of /api/a2a'),
  'POST /api/agui/gspc-state': {
    summary: 'AG-UI: the board as a read-only event stream, for a RunAgentInput',
    requestBody: { required: true, content: json({ type: 'object', description: 'an AG-UI RunAgentInput' }) },
    responses: {
      200: {
        description: 'the AG-UI event stream (SSE)',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      },
      '4XX': error('a body that is not a RunAgentInput, a query string, too large, or not JSON'),
    },
  },
  'GET /api/agui/gspc-state': {
    summary: 'AG-UI: the board as a read-only event stream',
    parameters: [queryParam('hold_seconds', 'keep the run open for up to 300 s, to see a new release arrive')],
    responses: {
      200: {
        description: 'the AG-UI event stream (SSE)',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      },
      '4XX': error('a bad query (bad_query)'),
    },
  },
  'OPTIONS /api/agui/gspc-state': preflight('CORS preflight of /api/agui/gspc-state'),
};
