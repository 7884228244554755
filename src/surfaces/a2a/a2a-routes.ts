/**
 * The A2A surface (specification, "Endpoints" and "Other endpoints"; A2A v1.0 JSON-RPC binding;
 * protocols.md §2): the agent card at `/.well-known/agent-card.json` and `/.well-known/agent.json`
 * (same bytes) and the peer endpoint `POST /api/a2a`, JSON-RPC 2.0 through the SDK's
 * `JsonRpcTransportHandler`. Every error on `/api/a2a` is a JSON-RPC error object: -32700 for a
 * body that is not JSON, -32600 for one that is not a JSON-RPC request (HTTP 413 when larger
 * than 1 MiB), -32005 for a content type other than JSON, -32009 for a missing or unsupported
 * `A2A-Version`, -32601 for a method A2A does not define; the rest are the SDK's.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ContentTypeNotSupportedError } from '@a2a-js/sdk/errors';
import { JsonRpcTransportHandler, ServerCallContext, validateVersion } from '@a2a-js/sdk/server';
import { GspcError } from '../../core/errors.js';
import { BASE_HEADERS } from '../../serve/headers.js';
import { jsonRpcProductError } from '../../web/errors.js';
import { cardsOf, cardVerificationDocument } from '../../serve/card-verification.js';
import type { DocumentEntry } from '../../serve/documents/document.js';
import { prepared } from '../../serve/documents/document.js';
import { failureOf } from '../../serve/error-body.js';
import type { SurfaceContext } from '../context.js';
import { A2A_PATH, CARD_PATHS } from './agent-card.js';
import { servedAgent, type ServedAgent } from './served-agent.js';

/** Largest request body `/api/a2a` reads (the brief's bound; larger is -32600 with HTTP 413). */
export const A2A_BODY_LIMIT = 1024 * 1024;

const JSON_HEADERS = {
  ...BASE_HEADERS,
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
};
// A browser sends a preflight for a JSON POST carrying A2A-Version.
const PREFLIGHT_HEADERS = {
  ...BASE_HEADERS,
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'content-type, a2a-version, a2a-extensions',
  'access-control-max-age': '86400',
};

type RpcId = string | number | null;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function idOf(body: unknown): RpcId {
  const id = isObject(body) ? body.id : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}

function sendRpc(reply: FastifyReply, status: number, payload: unknown): FastifyReply {
  return reply.code(status).headers(JSON_HEADERS).send(JSON.stringify(payload));
}

function rpcError(
  reply: FastifyReply,
  id: RpcId,
  error: { code: number; message: string; data?: unknown },
  status = 200,
): FastifyReply {
  // JSON-RPC errors travel with HTTP 200, as the SDK's own server sends them; only a body too
  // large to read says so in the status too.
  return sendRpc(reply, status, { jsonrpc: '2.0', id, error });
}

const sdkError = (e: unknown) => JsonRpcTransportHandler.mapToJSONRPCError(e);

/** Maps what Fastify refuses before the handler runs (body size, content type, JSON syntax). */
function bodyErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  // Over budget (the limiter runs before the body is read): 429, not an internal error (issue 38).
  const product = jsonRpcProductError(err);
  if (product !== undefined) return rpcError(reply, null, product.error, product.status);
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return rpcError(
        reply,
        null,
        { code: -32600, message: `Invalid Request: the body is larger than ${A2A_BODY_LIMIT} bytes (1 MiB)` },
        413,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return rpcError(
        reply,
        null,
        sdkError(
          new ContentTypeNotSupportedError(
            req.headers['content-type'] === undefined
              ? 'A request body needs Content-Type: application/json.'
              : `Unsupported Content-Type "${req.headers['content-type']}"; expected application/json.`,
          ),
        ),
      );
    case 'GSPC_JSON_TOO_DEEP':
      // Refused before any library reads it (src/web/json-body.ts); a 4xx, like a body too large.
      return rpcError(reply, null, { code: -32600, message: `Invalid Request: ${err.message}` }, 400);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return rpcError(reply, null, { code: -32700, message: 'Parse error: the body is not JSON' });
  }
  if (err instanceof SyntaxError || ((err.statusCode ?? 500) >= 400 && (err.statusCode ?? 500) < 500)) {
    return rpcError(reply, null, { code: -32700, message: `Parse error: ${err.message}` });
  }
  req.log.error({ err }, 'a2a: unhandled error');
  return rpcError(reply, idOf(req.body), { code: -32603, message: 'Internal error' }, 500);
}

// One agent per service context: the card documents and the peer endpoint serve the same one.
const agents = new WeakMap<SurfaceContext, () => ServedAgent>();
function agentOf(ctx: SurfaceContext): () => ServedAgent {
  let agent = agents.get(ctx);
  if (!agent) {
    agent = servedAgent(ctx, async (body) => {
      // POST /api/verify's own function: the same checks and the same verdict, in-process.
      try {
        const current = ctx.state.current();
        return {
          status: 200,
          body: JSON.stringify(
            await cardVerificationDocument(
              current,
              cardsOf(body, (id) => current.cardById(id)),
              ctx.didHost,
            ),
          ),
        };
      } catch (err) {
        if (!(err instanceof GspcError)) throw err;
        const f = failureOf(err);
        return { status: f.status, body: JSON.stringify(f.body) };
      }
    });
    agents.set(ctx, agent);
  }
  return agent;
}

/** The agent card at both well-known paths (identical bytes, ETag), as registered documents. */
export function agentCardDocuments(ctx: SurfaceContext): DocumentEntry[] {
  return CARD_PATHS.map((path, i) => ({
    id: i === 0 ? 'agent-card' : 'agent-card-legacy',
    route: path,
    query: [],
    schema: null,
    cache: { kind: 'release', cacheControl: 'public, max-age=300' },
    paths: () => [path],
    read: () => prepared(agentOf(ctx)().bytes),
  }));
}

/** Registers `/api/a2a` (POST, OPTIONS, GET → 405); the card paths are registered documents. */
export function registerA2aRoutes(app: FastifyInstance, ctx: SurfaceContext): void {
  const agent = agentOf(ctx);

  app.options(A2A_PATH, (_req, reply) => reply.code(204).headers(PREFLIGHT_HEADERS).send());
  // A plain GET (a browser, a link checker) is told what the endpoint takes.
  app.get(A2A_PATH, (_req, reply) => {
    reply.header('allow', 'POST, OPTIONS');
    throw new GspcError(
      'method_not_allowed',
      `${A2A_PATH} takes A2A JSON-RPC 2.0 requests by POST (A2A-Version: 1.0); the agent card is at ${CARD_PATHS[0]}`,
    );
  });

  app.post(A2A_PATH, { bodyLimit: A2A_BODY_LIMIT, errorHandler: bodyErrorHandler }, async (req, reply) => {
    const body = req.body;
    const type = req.headers['content-type'];
    if (type !== undefined && type.split(';', 1)[0]!.trim().toLowerCase() !== 'application/json') {
      return rpcError(
        reply,
        idOf(body),
        sdkError(new ContentTypeNotSupportedError(`Unsupported Content-Type "${type}"; expected application/json.`)),
      );
    }
    if (!isObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string' || body.method === '') {
      return rpcError(reply, idOf(body), {
        code: -32600,
        message: 'Invalid Request: send one JSON-RPC 2.0 request object with a method (batches are not accepted)',
      });
    }
    const served = agent();
    const version = req.headers['a2a-version'];
    const requestedVersion = Array.isArray(version) ? version[0] : version;
    // Without the header the SDK assumes 0.3 (A2A v1.0 §3.6.1), which this card does not offer.
    const context = new ServerCallContext(requestedVersion ? { requestedVersion } : {});
    try {
      validateVersion(context.requestedVersion, served.sdkCard, 'JSONRPC');
    } catch (e) {
      return rpcError(reply, idOf(body), sdkError(e));
    }
    const out = await served.transport.handle(body, context);
    if (Symbol.asyncIterator in out) {
      // SendStreamingMessage and SubscribeToTask: the card says streaming is not offered, so
      // the SDK's stream fails on its first step with -32004; nothing is ever streamed.
      try {
        await out.next();
        await out.return(undefined);
        return rpcError(reply, idOf(body), {
          code: -32603,
          message: 'Internal error: a stream was opened although streaming is not offered',
        });
      } catch (e) {
        return rpcError(reply, idOf(body), sdkError(e));
      }
    }
    return sendRpc(reply, 200, out);
  });
}
