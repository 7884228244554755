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
import { timingSafeEqual } from 'node:crypto';
import { statSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { GspcError } from '../core/errors.js';
import type { ServiceEvents } from '../serve/context.js';
import type { ServedState } from '../serve/served-state.js';
import type { Ledger } from '../store/ledger.js';
import { countResponse, RequestSeries } from './request-series.js';

/** Who may read `/metrics`, and what it shows (issue 38). */
export interface MetricsOptions {
  /** `Authorization: Bearer <token>` admits a scraper (GSPC_METRICS_TOKEN). */
  token?: string;
  /** Client addresses admitted without a token (GSPC_METRICS_ALLOW; `request.ip`). */
  allow?: readonly string[];
  /** Show the Node.js version (`gspc_nodejs_version_info`; GSPC_METRICS_VERSIONS=1). Default: hidden. */
  versions?: boolean;
  /** The ledger's files (SQLite: the database and its -wal), summed as `gspc_ledger_bytes`. */
  ledgerFiles?: readonly string[];
}

const bearer = (req: FastifyRequest): string | undefined => {
  const h = req.headers.authorization;
  return h !== undefined && /^Bearer /i.test(h) ? h.slice(7).trim() : undefined;
};
const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

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

  constructor(
    state: ServedState,
    readonly options: MetricsOptions = {},
  ) {
    collectDefaultMetrics({ register: this.registry, prefix: 'gspc_' });
    // The runtime's version helps an attacker more than an operator, who knows it (issue 38).
    if (options.versions !== true) this.registry.removeSingleMetric('gspc_nodejs_version_info');
    const files = options.ledgerFiles;
    if (files !== undefined && files.length > 0)
      new Gauge({
        name: 'gspc_ledger_bytes',
        help: 'The payment ledger on disk (SQLite: the database and its write-ahead log), in bytes: alert on its growth',
        registers: [this.registry],
        collect() {
          let bytes = 0;
          for (const f of files) bytes += statSync(f, { throwIfNoEntry: false })?.size ?? 0;
          this.set(bytes);
        },
      });
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
    const { token, allow } = this.options;
    const restricted = token !== undefined || (allow !== undefined && allow.length > 0);
    app.get('/metrics', async (req, reply) => {
      if (restricted) {
        const given = bearer(req);
        const admitted =
          (token !== undefined && given !== undefined && sameSecret(given, token)) || (allow ?? []).includes(req.ip);
        if (!admitted)
          throw new GspcError(
            'forbidden_origin',
            '/metrics is restricted: send Authorization: Bearer <GSPC_METRICS_TOKEN>, or scrape from an address in GSPC_METRICS_ALLOW',
          );
      }
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
