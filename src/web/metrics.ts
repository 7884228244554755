/**
 * `GET /metrics` in the Prometheus text format (prom-client, one registry per app, so two services
 * in one process never share series): requests by route and status and their latency, the
 * release served (id and as-of), key health, ledger operations and their errors, paid-request
 * outcomes, and release reloads (docs/operations.md, "Monitoring"). Turned on by GSPC_METRICS.
 *
 * Cost on the request path: one `onResponse` hook that counts the response in its cell of the
 * request series (request-series.ts; labels: the route pattern, never the URL, so the series are
 * bounded), and the same count on the prepared documents' fast path; everything about the
 * release and keys is read when /metrics is scraped, not per request.
 */
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { ServiceEvents } from '../serve/context.js';
import type { ServedState } from '../serve/served-state.js';
import type { Ledger } from '../store/ledger.js';
import { countResponse, RequestSeries } from './request-series.js';

export class ServiceMetrics implements ServiceEvents {
  readonly registry = new Registry();
  readonly #responses = new RequestSeries();
  readonly #ledgerOps = new Counter({
    name: 'gspc_ledger_operations_total',
    help: 'Ledger calls, by operation and outcome (ok or error)',
    labelNames: ['operation', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly #settlements = new Counter({
    name: 'gspc_settlements_total',
    help: 'Paid requests with a payment, by outcome: settled now, replayed from the ledger, refused with a fresh 402, or settlement failed',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly #reloads = new Counter({
    name: 'gspc_release_reloads_total',
    help: 'New releases picked up (loaded) or refused (failed) while serving',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  constructor(state: ServedState) {
    collectDefaultMetrics({ register: this.registry, prefix: 'gspc_' });
    this.#responses.register(this.registry);
    new Gauge({
      name: 'gspc_release_info',
      help: 'The release served (value 1), with its id and as-of',
      labelNames: ['release', 'as_of'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        const r = state.current().release;
        this.set({ release: r.id, as_of: r.descriptor.as_of }, 1);
      },
    });
    new Gauge({
      name: 'gspc_release_as_of_seconds',
      help: 'The as-of of the release served, as Unix seconds (alert on its age)',
      registers: [this.registry],
      collect() {
        this.set(Date.parse(state.current().release.descriptor.as_of) / 1000);
      },
    });
    new Gauge({
      name: 'gspc_board_key_healthy',
      help: 'Whether the board key signs (1) or is unhealthy, so the board is served unsigned (0)',
      registers: [this.registry],
      collect() {
        this.set(state.signingLive().boardKey.healthy ? 1 : 0);
      },
    });
  }

  /**
   * One response: `route` is the pattern (`/cards/:file`), `unmatched` for a 404 of no route.
   * Called by the onResponse hook for every response Fastify sends.
   */
  observe(route: string, method: string, status: number, seconds: number): void {
    countResponse(this.#responses.cell(route, method, status), seconds);
  }

  /** The counter of 200 GETs of `route`, for a caller that answers them often (the fast path). */
  responseCounter(route: string): (seconds: number) => void {
    const cell = this.#responses.cell(route, 'GET', 200);
    return (seconds) => countResponse(cell, seconds);
  }

  /** Counts every response Fastify sends, and serves GET /metrics. */
  install(app: FastifyInstance): void {
    app.addHook('onResponse', (req, reply, done) => {
      this.observe(req.routeOptions.url ?? 'unmatched', req.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
    app.get('/metrics', async (_req, reply) => {
      const text = await this.registry.metrics();
      return reply
        .code(200)
        .headers({ 'content-type': this.registry.contentType, 'cache-control': 'no-store' })
        .send(text);
    });
  }

  /** The ledger, each call counted by operation and outcome. */
  ledger(ledger: Ledger): Ledger {
    const ops = this.#ledgerOps;
    return new Proxy(ledger, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (typeof v !== 'function' || typeof prop !== 'string') return v;
        return async (...args: unknown[]) => {
          try {
            const r = await (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
            ops.inc({ operation: prop, outcome: 'ok' });
            return r;
          } catch (e) {
            ops.inc({ operation: prop, outcome: 'error' });
            throw e;
          }
        };
      },
    });
  }

  settlement(outcome: Parameters<ServiceEvents['settlement']>[0]): void {
    this.#settlements.inc({ outcome });
  }

  reload(result: Parameters<ServiceEvents['reload']>[0]): void {
    this.#reloads.inc({ result });
  }
}
