/**
 * `GET /metrics` in the Prometheus text format (prom-client, one registry per app, so two services
 * in one process never share series): requests by route and status and their latency, the
 * release served (id and as-of), key health, ledger operations and their errors, paid-request
 * outcomes, and release reloads (docs/operations.md, "Monitoring"). Turned on by GSPC_METRICS.
 *
 * Cost on the request path: one `onResponse` hook that increments a counter and observes a
 * histogram (labels: the route pattern, never the URL, so the series are bounded); everything
 * about the release and keys is read when /metrics is scraped, not per request.
 */
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ServiceEvents } from '../serve/context.js';
import type { ServedState } from '../serve/served-state.js';
import type { Ledger } from '../store/ledger.js';

export class ServiceMetrics implements ServiceEvents {
  readonly registry = new Registry();
  readonly #requests = new Counter({
    name: 'gspc_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly #latency = new Histogram({
    name: 'gspc_http_request_duration_seconds',
    help: 'Time from the request to the response sent, by route pattern and method',
    labelNames: ['route', 'method'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
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

  /** Counts every response; the route label is the pattern (`/cards/:file`), `unmatched` for a 404 of no route. */
  install(app: FastifyInstance): void {
    // The labelled children are looked up once per (route, method[, status]) and kept: resolving
    // a label set on every request costs prom-client a hash of the labels (docs/performance.md §12).
    const counters = new Map<string, ReturnType<typeof this.requestCounter>>();
    const timers = new Map<string, ReturnType<typeof this.latencyTimer>>();
    app.addHook('onResponse', (req, reply, done) => {
      const route = req.routeOptions.url ?? 'unmatched';
      const key = `${req.method} ${route}`;
      const status = reply.statusCode;
      const ck = `${key} ${status}`;
      let c = counters.get(ck);
      if (c === undefined) counters.set(ck, (c = this.requestCounter(route, req.method, status)));
      c.inc();
      let t = timers.get(key);
      if (t === undefined) timers.set(key, (t = this.latencyTimer(route, req.method)));
      t.observe(reply.elapsedTime / 1000);
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

  private requestCounter(route: string, method: string, status: number) {
    return this.#requests.labels({ route, method, status });
  }

  private latencyTimer(route: string, method: string) {
    return this.#latency.labels({ route, method });
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
