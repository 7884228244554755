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
      },
      first === undefined
        ? handler
        : (req, res) => {
            if (!first(req, res)) handler(req, res);
          },
    );
    guardConnections(server, limits);
    return server;
  };
}
