/**
 * Per-client request budgets (@fastify/rate-limit), one per kind of work, per minute, keyed by
 * the client's address (`request.ip`: behind a proxy, the address the trusted proxy forwards;
 * GSPC_TRUST_PROXY). docs/operations.md, "Limits":
 * - `verify`: POST /api/verify and /api/receipts/verify (each costs Ed25519 operations);
 * - `challenge`: a metered product asked without a payment (a signed offer each);
 * - `paid`: a metered product asked with a payment (a facilitator round trip each), except a
 *   payment the ledger already holds as SETTLED: its artefact is always answered, so a buyer who
 *   paid is never refused by a limit;
 * - `free`: every other request; `/healthz`, `/readyz` and `/metrics` are never limited (probes).
 * A limited request gets 429 `rate_limited` in the service's error shape, with `Retry-After` and
 * the `x-ratelimit-*` headers; an answered one carries none (decision O8).
 *
 * The counts live in the plugin's own store (its LocalStore), created here and shared with the
 * prepared documents' fast path (fast-path.ts), which counts a free read it answers in the same
 * store under the same key: a client's budget is one budget whichever path answers it.
 */
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GspcError } from '../core/errors.js';
import { readPaymentHeader } from '../payments/payment-header.js';
import type { Ledger } from '../store/ledger.js';

export type RateClass = 'free' | 'verify' | 'challenge' | 'paid';

/** Requests per minute per client address, by class; 0 = no limit. */
export type RateBudgets = Readonly<Record<RateClass, number>>;

const EXEMPT = new Set(['/healthz', '/readyz', '/metrics']);
const VERIFY = new Set(['/api/verify', '/api/receipts/verify']);

const WINDOW_MS = 60_000;

/** A client's count in the store, one per class: the plugin and the fast path must agree on it. */
const budgetKey = (c: RateClass | 'exempt', client: string) => `${c}|${client}`;

export interface RateLimitOptions {
  /** The metered products' paths (`/api/request-attestation`, …). */
  productPaths: ReadonlySet<string>;
  ledger: Ledger | undefined;
}

/** The budgets' one store of counts, and the client address as Fastify's `request.ip` gives it. */
export class RateCounts {
  readonly store: FastifyRateLimitStore = new LocalStore(false, false);
  readonly #trust: ((addr: string, i: number) => boolean) | undefined;

  constructor(
    readonly budgets: RateBudgets,
    trustProxy: readonly string[] | undefined,
  ) {
    // As Fastify compiles `trustProxy` (lib/request.js), so both paths see the same client.
    this.#trust = trustProxy !== undefined && trustProxy.length > 0 ? proxyAddr.compile([...trustProxy]) : undefined;
  }

  #clientOf(req: IncomingMessage): string {
    if (this.#trust === undefined) return req.socket.remoteAddress ?? '';
    const addrs = proxyAddr.all(req, this.#trust);
    return addrs[addrs.length - 1] ?? '';
  }

  /**
   * A free read answered outside Fastify, counted as the plugin counts it: whether it is within
   * its budget (false: the plugin then answers, and counts, the 429 itself).
   */
  admitFree = (req: IncomingMessage): boolean => {
    const max = this.budgets.free;
    if (max === 0) return true;
    let current = Number.POSITIVE_INFINITY;
    // LocalStore answers synchronously: the callback runs before incr returns.
    this.store.incr(
      budgetKey('free', this.#clientOf(req)),
      (_e, r) => (current = r?.current ?? current),
      WINDOW_MS,
      max,
    );
    return current <= max;
  };
}

export function installRateLimits(app: FastifyInstance, counts: RateCounts, o: RateLimitOptions): void {
  const classes = new WeakMap<FastifyRequest, RateClass | 'exempt'>();
  const classOf = (req: FastifyRequest): RateClass | 'exempt' => {
    let c = classes.get(req);
    if (c === undefined) {
      const path = req.url.split('?')[0]!;
      c = EXEMPT.has(path)
        ? 'exempt'
        : VERIFY.has(path)
          ? 'verify'
          : o.productPaths.has(path)
            ? req.headers['payment-signature'] !== undefined || req.headers['x-payment'] !== undefined
              ? 'paid'
              : 'challenge'
            : 'free';
      classes.set(req, c);
    }
    return c;
  };
  /** A payment the ledger holds as SETTLED: its replay is answered whatever the budget. */
  const settled = async (req: FastifyRequest): Promise<boolean> => {
    if (o.ledger === undefined) return false;
    try {
      const p = readPaymentHeader(req.headers);
      return p !== undefined && (await o.ledger.get({ payer: p.payer, nonce: p.nonce }))?.state === 'SETTLED';
    } catch {
      return false; // an unreadable header is counted; the route answers its 400
    }
  };
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
      return c === 'exempt' ? 0 : counts.budgets[c];
    },
    // Synchronous but for a request carrying a payment: a promise per request costs the free
    // reads a measurable share of their time (docs/performance.md §12).
    allowList: (req) => {
      const c = classOf(req);
      if (c === 'exempt' || counts.budgets[c] === 0) return true;
      return c === 'paid' ? settled(req) : false;
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
