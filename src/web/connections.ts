/**
 * The HTTP server's connections (issue 38, decision HA1): what one client may hold open, and how
 * long a connection may take to send its request.
 *
 * - A request's headers must arrive within `headersTimeoutMs` of the connection (or of the
 *   previous response, on a kept-alive connection): a connection that sends nothing is closed
 *   then (node's own headers timeout starts only with a first byte, so this is timed here). The whole request, body included, must arrive within `requestTimeoutMs`, so a
 *   body sent a byte at a time is cut too. node checks both every CHECK_INTERVAL_MS.
 * - A kept-alive connection idle for `keepAliveTimeoutMs` between requests is closed.
 * - One client address holds at most `maxPerClient` connections; one more is closed at once,
 *   before a byte is read. All clients together hold at most `max`; beyond it only loopback
 *   connections (the operator's own health checks and tools, on the machine) are still taken, up
 *   to OPERATOR_RESERVE more. `max` defaults to the process's descriptor limit less
 *   FD_HEADROOM, so the ledger, the logs and the key files always have descriptors left.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import type { FastifyServerFactory } from 'fastify';

export interface ConnectionLimits {
  maxPerClient: number;
  max: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

/** Descriptors kept free of connections: ledger, log, key and release files, the event loop's own. */
export const FD_HEADROOM = 128;
/** Loopback connections taken beyond `max` (the operator's health checks). */
export const OPERATOR_RESERVE = 16;
const CHECK_INTERVAL_MS = 1_000;

/** The process's soft limit of open files (Linux /proc), or undefined where it cannot be read. */
export function openFileLimit(): number | undefined {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxPerClient: 64,
  max: Math.max(64, Math.min(10_000, (openFileLimit() ?? 10_240) - FD_HEADROOM - OPERATOR_RESERVE)),
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

const isLoopback = (a: string) => a === '::1' || a.startsWith('127.') || a.startsWith('::ffff:127.');

/** Counts connections per address; closes a connection over either cap before it is read. */
export function guardConnections(server: Server, limits: ConnectionLimits): void {
  const open = new Map<string, number>();
  let total = 0;
  const firstRequest = new WeakMap<Socket, NodeJS.Timeout>();
  server.on('request', (req: IncomingMessage) => {
    const t = firstRequest.get(req.socket);
    if (t !== undefined) {
      clearTimeout(t);
      firstRequest.delete(req.socket);
    }
  });
  server.on('connection', (socket: Socket) => {
    const addr = socket.remoteAddress ?? '';
    const mine = open.get(addr) ?? 0;
    const overTotal = total >= limits.max && !(isLoopback(addr) && total < limits.max + OPERATOR_RESERVE);
    if ((limits.maxPerClient > 0 && mine >= limits.maxPerClient) || (limits.max > 0 && overTotal)) {
      socket.destroy();
      return;
    }
    open.set(addr, mine + 1);
    total++;
    // node times out headers only once their first byte has come: a connection that sends
    // nothing would be held until the client leaves. Its first request must begin in time.
    const silent = setTimeout(() => socket.destroy(), limits.headersTimeoutMs).unref();
    firstRequest.set(socket, silent);
    socket.once('close', () => {
      clearTimeout(silent);
      total--;
      const n = (open.get(addr) ?? 1) - 1;
      if (n === 0) open.delete(addr);
      else open.set(addr, n);
    });
  });
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * The one spelling of a request target every layer sees (issue 38, decision HA3): the rate
 * limiter, the fast path, the router and the request series. An absolute-form target
 * (`http://host/path?q`, which a server must accept) is read as its path and query, and a
 * percent-escape of an unreserved character (`%76` for `v`) in the path is decoded (RFC 3986
 * §6.2.2.2: the same resource). Other escapes stay (the router decodes them; no route of the
 * service is spelt with one, and the fast path records no target holding one). An asterisk-form
 * or unreadable target is left for node and Fastify to refuse.
 */
export function normaliseTarget(url: string): string {
  let target = url;
  if (target.charCodeAt(0) !== 47 /* '/' */) {
    const m = /^https?:\/\/[^/?#]*/i.exec(target);
    if (m === null) return url;
    target = target.slice(m[0].length);
    if (target === '' || target.charCodeAt(0) !== 47) target = `/${target}`;
  }
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  if (!path.includes('%')) return target;
  const decoded = path.replace(/%([0-9A-Fa-f]{2})/g, (esc, hex: string) => {
    const c = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(c) ? c : esc;
  });
  return q === -1 ? decoded : decoded + target.slice(q);
}

/** An HTTP/1.1 request without Host (RFC 9112 §3.2: a 400), in the service's error shape. */
function noHost(res: ServerResponse): void {
  const body = JSON.stringify({
    error: 'the request has no Host header, which HTTP/1.1 requires',
    code: 'bad_request',
  });
  res.writeHead(400, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'access-control-allow-origin': '*',
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  res.end(body);
}

/**
 * Fastify's `serverFactory`: node's HTTP server with these limits; `first` may answer a request
 * before Fastify (the prepared documents' fast path), returning false to pass it on.
 */
export function limitedServerFactory(
  limits: ConnectionLimits,
  first?: (req: IncomingMessage, res: ServerResponse) => boolean,
): FastifyServerFactory {
  return (handler) => {
    const server: Server = createServer(
      {
        headersTimeout: limits.headersTimeoutMs,
        requestTimeout: limits.requestTimeoutMs,
        keepAliveTimeout: limits.keepAliveTimeoutMs,
        connectionsCheckingInterval: CHECK_INTERVAL_MS,
        // node's own refusal of a request without Host is an empty 400; it is answered below.
        requireHostHeader: false,
      },
      (req, res) => {
        if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
          noHost(res);
          return;
        }
        if (req.url !== undefined) req.url = normaliseTarget(req.url);
        if (first === undefined || !first(req, res)) handler(req, res);
      },
    );
    guardConnections(server, limits);
    return server;
  };
}
