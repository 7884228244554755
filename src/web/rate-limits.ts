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
 * A limited request gets 429 `rate_limited` in the service's error shape, with `Retry-After`.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GspcError } from '../core/errors.js';
import { readPaymentHeader } from '../payments/payment-header.js';
import type { Ledger } from '../store/ledger.js';

export type RateClass = 'free' | 'verify' | 'challenge' | 'paid';

/** Requests per minute per client address, by class; 0 = no limit. */
export type RateBudgets = Readonly<Record<RateClass, number>>;

const EXEMPT = new Set(['/healthz', '/readyz', '/metrics']);
const VERIFY = new Set(['/api/verify', '/api/receipts/verify']);

export interface RateLimitOptions {
  budgets: RateBudgets;
  /** The metered products' paths (`/api/request-attestation`, …). */
  productPaths: ReadonlySet<string>;
  ledger: Ledger | undefined;
}

export function installRateLimits(app: FastifyInstance, o: RateLimitOptions): void {
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
  void app.register(rateLimit, {
    global: true,
    timeWindow: 60_000,
    keyGenerator: (req) => `${classOf(req)}|${req.ip}`,
    max: (req) => {
      const c = classOf(req);
      return c === 'exempt' ? 0 : o.budgets[c];
    },
    // Synchronous but for a request carrying a payment: a promise per request costs the free
    // reads a measurable share of their time (docs/performance.md §12).
    allowList: (req) => {
      const c = classOf(req);
      if (c === 'exempt' || o.budgets[c] === 0) return true;
      return c === 'paid' ? settled(req) : false;
    },
    errorResponseBuilder: (req, context) =>
      new GspcError(
        'rate_limited',
        `too many ${classOf(req)} requests from ${req.ip}: at most ${context.max} a minute; retry in ${context.after}`,
        { class: classOf(req), limit: context.max, retry_after_seconds: Math.ceil(context.ttl / 1000) },
      ),
  });
}
