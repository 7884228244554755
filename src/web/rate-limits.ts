/**
 * Per-client request budgets (@fastify/rate-limit), one per kind of work, per minute, keyed by
 * the client's address (`request.ip`: behind a proxy, the address the trusted proxy forwards;
 * GSPC_TRUST_PROXY). docs/operations.md, "Limits":
 * - `verify`: POST /api/verify and /api/receipts/verify (each costs Ed25519 operations);
 * - `challenge`: a metered product asked without a payment (a signed offer each);
 * - `paid`: a metered product asked with a payment (a facilitator round trip each, and a ledger
 *   row once verified) or a `SIGN-IN-WITH-X` proof (a signature recovery and a ledger read). A settled payment exempts nothing (issue 37: one 0-USDC free-door header,
 *   replayed, used to let any number of requests through);
 * - `invoice`: a metered product asked with `invoice=` (an invoice row holding the artefact),
 *   whether or not it carries a payment header;
 * - `free`: every other request; `/healthz`, `/readyz` and `/metrics` are never limited (probes).
 * A limited request gets 429 `rate_limited` in the service's error shape, with `Retry-After` and
 * the `x-ratelimit-*` headers; an answered one carries none (decision O8).
 *
 * The counts live in one store (client-budgets.ts, decision O12) that the plugin counts in and
 * the prepared documents' fast path (fast-path.ts) counts in too, for the free reads it answers,
 * in the same cell: a client's budget is one budget whichever path answers it.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GspcError } from '../core/errors.js';
import { type BudgetCell, ClientBudgets, monotonicMs } from './client-budgets.js';

export type RateClass = 'free' | 'verify' | 'challenge' | 'paid' | 'invoice';

/**
 * Requests per minute per client address, by class; 0 = no limit. `invoice` may be left out by
 * a caller that builds budgets by hand: it is then INVOICE_BUDGET (configuration always names it).
 */
export type RateBudgets = Readonly<
  Record<Exclude<RateClass, 'invoice'>, number> & { invoice?: number; invoice_hour?: number }
>;

/** Invoices a minute per client when the budgets do not say (each stores an artefact in the ledger). */
export const INVOICE_BUDGET = 10;
/** Invoices an hour per client when the budgets do not say (issue 38): the ledger's disk budget. */
export const INVOICE_HOUR_BUDGET = 60;
const HOUR_MS = 3_600_000;

/**
 * Whether a browser was sent by another site (`Sec-Fetch-Site` cross-site or same-site): an
 * `<img>` or a form on any page would otherwise make each visitor store an invoice (issue 38).
 * The buyer's own tools send no such header; a page of the service itself is same-origin.
 */
const fromAnotherSite = (req: FastifyRequest): boolean => {
  const site = req.headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
};

const EXEMPT = new Set(['/healthz', '/readyz', '/metrics']);
const VERIFY = new Set(['/api/verify', '/api/receipts/verify']);

const WINDOW_MS = 60_000;

/** A client's count in the store, one per class: the plugin and the fast path must agree on it. */
const budgetKey = (c: RateClass | 'exempt', client: string) => `${c}|${client}`;

export interface RateLimitOptions {
  /** The metered products' paths (`/api/request-attestation`, …). */
  productPaths: ReadonlySet<string>;
}

/**
 * Whether a query string names `invoice` (an invoice request writes its artefact to the ledger),
 * decoded as the route's query reader decodes it (serve/query.ts): `%69nvoice=` is `invoice=`.
 */
function namesInvoice(query: string): boolean {
  if (!query.includes('nvoice') && !query.includes('%')) return false; // the common case, without a parse
  try {
    return new URLSearchParams(query).has('invoice');
  } catch {
    return false; // unreadable: the route answers 400 bad_query, counted in its own class
  }
}

/** The budgets' one store of counts, and the client address as Fastify's `request.ip` gives it. */
export class RateCounts {
  readonly #counts: ClientBudgets;
  readonly #trust: ((addr: string, i: number) => boolean) | undefined;
  /**
   * Each connection's free-read cell, when the client is the connection's peer (no trusted
   * proxy): a connection's reads then count without building, hashing or looking up a key. Behind
   * a trusted proxy one connection carries many clients, so the key is built per request.
   */
  readonly #bySocket = new WeakMap<Socket, BudgetCell>();

  /** Monotonic milliseconds (default monotonicMs): a wall-clock step neither resets nor stretches a window. */
  readonly clock: () => number;

  constructor(
    readonly budgets: RateBudgets,
    o: { trustProxy?: readonly string[] | undefined; clock?: () => number; maxClients?: number } = {},
  ) {
    this.clock = o.clock ?? monotonicMs;
    this.#counts = new ClientBudgets(WINDOW_MS, this.clock, o.maxClients);
    this.invoiceHours = new ClientBudgets(HOUR_MS, this.clock, o.maxClients);
    // As Fastify compiles `trustProxy` (lib/request.js), so both paths see the same client.
    const trust = o.trustProxy;
    this.#trust = trust !== undefined && trust.length > 0 ? proxyAddr.compile([...trust]) : undefined;
  }

  /** Invoices in the hour of each client (the per-minute class alone allowed 14,400 a day). */
  readonly invoiceHours: ClientBudgets;

  /** The store the plugin counts in (the same cells). */
  get store(): FastifyRateLimitStore {
    return this.#counts.store;
  }

  #clientOf(req: IncomingMessage): string {
    if (this.#trust === undefined) return req.socket.remoteAddress ?? '';
    const addrs = proxyAddr.all(req, this.#trust);
    return addrs[addrs.length - 1] ?? '';
  }

  #freeCell(req: IncomingMessage): BudgetCell {
    if (this.#trust !== undefined) return this.#counts.cell(budgetKey('free', this.#clientOf(req)));
    let c = this.#bySocket.get(req.socket);
    if (c === undefined || !c.live) {
      c = this.#counts.cell(budgetKey('free', this.#clientOf(req)));
      this.#bySocket.set(req.socket, c);
    }
    return c;
  }

  /**
   * A free read answered outside Fastify, counted as the plugin counts it, at `now` (the clock's
   * milliseconds): whether it is within its budget (false: the plugin then answers, and counts,
   * the 429 itself).
   */
  admitFree = (req: IncomingMessage, now: number): boolean => {
    const max = this.budgets.free;
    return max === 0 || this.#counts.count(this.#freeCell(req), now) <= max;
  };
}

export function installRateLimits(app: FastifyInstance, counts: RateCounts, o: RateLimitOptions): void {
  const classes = new WeakMap<FastifyRequest, RateClass | 'exempt'>();
  const classOf = (req: FastifyRequest): RateClass | 'exempt' => {
    let c = classes.get(req);
    if (c === undefined) {
      const at = req.url.indexOf('?');
      // The route the router matched, as the request series names it (issue 38): however the
      // target was spelt (the server normalises it first, connections.ts normaliseTarget; an
      // injected request is not), the class is the route's. No route matched: the path as sent.
      const path = req.routeOptions.url ?? (at < 0 ? req.url : req.url.slice(0, at));
      c = EXEMPT.has(path)
        ? 'exempt'
        : VERIFY.has(path)
          ? 'verify'
          : o.productPaths.has(path)
            ? at >= 0 && namesInvoice(req.url.slice(at + 1))
              ? 'invoice'
              : req.headers['payment-signature'] !== undefined ||
                  req.headers['x-payment'] !== undefined ||
                  req.headers['sign-in-with-x'] !== undefined
                ? 'paid'
                : 'challenge'
            : 'free';
      classes.set(req, c);
    }
    return c;
  };
  // Invoices: refused to a browser another site sent, then counted in the hour (issue 38).
  const perHour = counts.budgets.invoice_hour ?? INVOICE_HOUR_BUDGET;
  app.addHook('onRequest', (req, reply, done) => {
    if (classOf(req) !== 'invoice') return done();
    if (fromAnotherSite(req))
      return done(
        new GspcError(
          'forbidden_origin',
          'an invoice is not issued to a browser sent by another site (Sec-Fetch-Site): ask from the service itself or with your own client',
        ),
      );
    if (perHour === 0) return done();
    const now = counts.clock();
    const cell = counts.invoiceHours.cell(budgetKey('invoice', req.ip));
    if (counts.invoiceHours.count(cell, now) <= perHour) return done();
    const retry = Math.max(1, Math.ceil((HOUR_MS - (now - cell.start)) / 1000));
    void reply.header('retry-after', String(retry));
    done(
      new GspcError(
        'rate_limited',
        `too many invoice requests from ${req.ip}: at most ${perHour} an hour; retry in ${retry} s`,
        { class: 'invoice', limit: perHour, window: 'hour', retry_after_seconds: retry },
      ),
    );
  });
  const budgetOf = (c: RateClass): number =>
    c === 'invoice' ? (counts.budgets.invoice ?? INVOICE_BUDGET) : counts.budgets[c];
  // The plugin constructs its store with `new`; this constructor hands it the shared one.
  const store = function SharedStore() {
    return counts.store;
  } as unknown as FastifyRateLimitStoreCtor;
  void app.register(rateLimit, {
    global: true,
    store,
    timeWindow: WINDOW_MS,
    keyGenerator: (req) => budgetKey(classOf(req), req.ip),
    max: (req) => {
      const c = classOf(req);
      return c === 'exempt' ? 0 : budgetOf(c);
    },
    // Synchronous: a promise per request costs the free reads a measurable share of their time
    // (docs/performance.md §12). Nothing a request carries exempts it (issue 37).
    allowList: (req) => {
      const c = classOf(req);
      return c === 'exempt' || budgetOf(c) === 0;
    },
    // The x-ratelimit-* headers only on a 429: a read is served `cache-control: public`, and a
    // shared cache would hand one client's remaining count to every other (decision O8).
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    errorResponseBuilder: (req, context) =>
      new GspcError(
        'rate_limited',
        `too many ${classOf(req)} requests from ${req.ip}: at most ${context.max} a minute; retry in ${context.after}`,
        { class: classOf(req), limit: context.max, retry_after_seconds: Math.ceil(context.ttl / 1000) },
      ),
  });
}
