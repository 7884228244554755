/**
 * `/mcp`: MCP over stateless Streamable HTTP, JSON-RPC 2.0, public and read-only (specification,
 * "Other endpoints"; capability fabric rail `mcp-tools`). One handler serves both protocol eras
 * (@modelcontextprotocol/server v2 `createMcpHandler`, protocols.md §1.6): 2026-07-28 requests
 * (per-request `_meta` envelope; answered as JSON) and 2025-era requests (`initialize`, or a bare
 * `tools/list`; answered through the SDK's stateless fallback, as SSE). No session, no
 * authentication; a 403 only for a Host or Origin that is not the public origin's (DNS-rebinding
 * protection, `origin-check.ts`). GET and DELETE are answered by the SDK: 405 with a JSON-RPC error
 * (there is no standalone stream and no session to delete). Fastify parses and bounds the body;
 * its parser errors are answered in the JSON-RPC error format the SDK itself uses.
 */
import { createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler, type NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import type { ServerResponse } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BASE_HEADERS } from '../../serve/headers.js';
import { jsonRpcProductError } from '../../web/errors.js';
import type { SurfaceContext } from '../context.js';
import { mcpServerFor } from './mcp-server.js';
import { rebindingProblem } from './origin-check.js';

/** The endpoint the capability fabric's `mcp-tools` rail names. */
export const MCP_PATH = '/mcp';
/**
 * The largest request body read (256 KiB); a larger one is a 413 JSON-RPC error. A tool call
 * here carries ids and at most one card (a few KiB); the SDK parses and validates a body on the
 * event loop, and a 1 MiB one held every other reader for 270-430 ms (issue 38).
 */
export const MCP_MAX_BODY = 256 * 1024;
/** Open `subscriptions/listen` streams at most (the tool list never changes: they only carry keep-alives). */
export const MCP_MAX_SUBSCRIPTIONS = 100;
/** One client address's share of them (issue 38): a tenth, so one client cannot take them all. */
export const MCP_MAX_SUBSCRIPTIONS_PER_CLIENT = 10;

const isListen = (body: unknown) => (body as { method?: unknown } | null)?.method === 'subscriptions/listen';

/** A JSON-RPC error response with no id (the request could not be read), as the SDK words them. */
function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply
    .code(status)
    .headers({ ...BASE_HEADERS, 'content-type': 'application/json' })
    .send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** Fastify's body errors (before the handler runs), in the SDK's words for the same cases. */
function bodyError(err: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  // Over budget (the limiter runs before the body is read): 429, not an internal error (issue 38).
  const product = jsonRpcProductError(err);
  if (product !== undefined)
    return reply
      .code(product.status)
      .headers({ ...BASE_HEADERS, 'content-type': 'application/json' })
      .send({ jsonrpc: '2.0', error: product.error, id: null });
  const status = err.statusCode ?? 500;
  if (err.code === 'GSPC_JSON_TOO_DEEP') return jsonRpcError(reply, 400, -32600, `Invalid Request: ${err.message}`);
  if (status === 413)
    return jsonRpcError(reply, 413, -32000, `Payload Too Large: Request body must not exceed ${MCP_MAX_BODY} bytes`);
  if (status === 415)
    return jsonRpcError(reply, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  if (status === 400) return jsonRpcError(reply, 400, -32700, 'Parse error: Invalid JSON');
  if (status < 500) return jsonRpcError(reply, status, -32600, `Invalid Request: ${err.message}`);
  req.log.error({ err }, 'mcp: unhandled error');
  return jsonRpcError(reply, 500, -32603, 'Internal error');
}

/** Registers `POST|GET|DELETE /mcp` (module doc) and the shutdown hooks of its streams. */
export function registerMcpRoutes(app: FastifyInstance, ctx: SurfaceContext): void {
  const handler = createMcpHandler(() => mcpServerFor(ctx), {
    legacy: 'stateless',
    maxRequestBodySize: MCP_MAX_BODY,
    maxSubscriptions: MCP_MAX_SUBSCRIPTIONS,
    onerror: (err) => app.log.debug({ err }, 'mcp: request rejected or failed'),
  });
  const serve = toNodeHandler(handler, {
    maxRequestBodySize: MCP_MAX_BODY,
    onerror: (err) => app.log.error({ err }, 'mcp: handler failed'),
  });
  // A 2026-07-28 `subscriptions/listen` stream stays open until its client leaves, and the SDK's
  // close() does not end it: without this, one listening client would hold up every shutdown.
  const listening = new Set<ServerResponse>();
  const listeningBy = new Map<string, number>();
  app.addHook('preClose', (done) => {
    for (const res of listening) res.destroy();
    done();
  });
  app.addHook('onClose', async () => {
    await handler.close();
  });

  // The CORS preflight a browser client sends before a JSON POST (as /api/a2a and the AG-UI stream answer).
  app.options(MCP_PATH, (_req, reply) =>
    reply
      .code(204)
      .headers({
        ...BASE_HEADERS,
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers':
          'content-type, accept, mcp-protocol-version, mcp-method, mcp-name, mcp-session-id, last-event-id',
        'access-control-max-age': '86400',
      })
      .send(),
  );

  app.route({
    method: ['POST', 'GET', 'DELETE'],
    url: MCP_PATH,
    bodyLimit: MCP_MAX_BODY,
    errorHandler: bodyError,
    handler: async (req, reply) => {
      const rebinding = rebindingProblem(req.headers, ctx.baseUrl);
      if (rebinding !== undefined) return jsonRpcError(reply, 403, -32000, `Forbidden: ${rebinding}`);
      if (isListen(req.body)) {
        const mine = listeningBy.get(req.ip) ?? 0;
        if (mine >= MCP_MAX_SUBSCRIPTIONS_PER_CLIENT)
          return jsonRpcError(
            reply,
            429,
            -32000,
            `Too many listen streams from this client: at most ${MCP_MAX_SUBSCRIPTIONS_PER_CLIENT} of the service's ${MCP_MAX_SUBSCRIPTIONS} at once; close one first`,
          );
        listeningBy.set(req.ip, mine + 1);
        listening.add(reply.raw);
        const client = req.ip;
        reply.raw.on('close', () => {
          listening.delete(reply.raw);
          const n = (listeningBy.get(client) ?? 1) - 1;
          if (n <= 0) listeningBy.delete(client);
          else listeningBy.set(client, n);
        });
      }
      // The SDK writes the response itself (JSON, or an SSE stream for 2025-era requests).
      reply.hijack();
      for (const [name, value] of Object.entries(BASE_HEADERS)) reply.raw.setHeader(name, value);
      try {
        // IncomingMessage is what the adapter takes; only exactOptionalPropertyTypes tells them apart.
        await serve(req.raw as NodeIncomingMessageLike, reply.raw, req.body ?? undefined);
      } catch (err) {
        req.log.error({ err }, 'mcp: response failed');
        if (!reply.raw.headersSent)
          reply.raw
            .writeHead(500, { 'content-type': 'application/json' })
            .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
        else reply.raw.destroy();
      }
    },
  });
}
