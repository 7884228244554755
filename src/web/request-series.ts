/**
 * The request series of `/metrics`: `gspc_http_requests_total{route,method,status}` and the
 * histogram `gspc_http_request_duration_seconds{route,method}`, counted in plain numbers on the
 * request path and handed to prom-client's registry, which formats them with every other series,
 * only when scraped (decision O7).
 *
 * Why not prom-client's own Counter and Histogram here: each `inc`/`observe` resolves its label
 * set again (a hash of the labels, even through `labels(...)`), about 0.6-2.3 µs a response in the
 * profiles of docs/performance.md §12; on the prepared documents' fast path that was a fifth of
 * the board's rate. Here a response is one cell, found once per route and held by the caller,
 * and three additions. The exposition is the one prom-client would write for the same series
 * (the same names, labels, bucket bounds, cumulative buckets, `_sum` and `_count`).
 */
import type { Registry } from 'prom-client';

/** Upper bounds of the latency buckets, in seconds (+Inf is implied). */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** The counts of one (route, method, status). */
export interface ResponseCell {
  readonly route: string;
  readonly method: string;
  readonly status: number;
  count: number;
  /** Seconds, summed. */
  sum: number;
  /** Responses per bucket (not cumulative); the last one is +Inf. */
  readonly buckets: Float64Array;
}

/** Counts one response of `seconds` in its cell. */
export function countResponse(cell: ResponseCell, seconds: number): void {
  cell.count++;
  cell.sum += seconds;
  let i = 0;
  while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
  cell.buckets[i]!++;
}

type Labels = Record<string, string | number>;
interface Value {
  value: number;
  labels: Labels;
  metricName?: string;
}

export class RequestSeries {
  readonly #cells = new Map<string, ResponseCell>();

  /** The cell of (route, method, status), created on first use; callers keep it. */
  cell(route: string, method: string, status: number): ResponseCell {
    const key = `${method} ${status} ${route}`;
    let c = this.#cells.get(key);
    if (c === undefined) {
      c = { route, method, status, count: 0, sum: 0, buckets: new Float64Array(BUCKETS.length + 1) };
      this.#cells.set(key, c);
    }
    return c;
  }

  /** Adds both series to the registry (read at each scrape). */
  register(registry: Registry): void {
    const cells = () => [...this.#cells.values()];
    const metric = (name: string, help: string, type: 'counter' | 'histogram', values: () => Value[]) => ({
      name,
      help,
      type,
      aggregator: 'sum',
      get: () => ({ name, help, type, aggregator: 'sum', values: values() }),
      reset: () => this.#cells.clear(),
    });
    const requests = metric(
      'gspc_http_requests_total',
      'HTTP requests answered, by route pattern, method and status',
      'counter',
      () => cells().map((c) => ({ value: c.count, labels: { route: c.route, method: c.method, status: c.status } })),
    );
    const duration = metric(
      'gspc_http_request_duration_seconds',
      'Time from the request to the response sent, by route pattern and method',
      'histogram',
      () => histogramValues('gspc_http_request_duration_seconds', cells()),
    );
    // prom-client's registry takes any metric that answers get() in its own shape.
    registry.registerMetric(requests as unknown as Parameters<Registry['registerMetric']>[0]);
    registry.registerMetric(duration as unknown as Parameters<Registry['registerMetric']>[0]);
  }
}

/** Per (route, method), the statuses' buckets added up, cumulative, then `_sum` and `_count`. */
function histogramValues(name: string, cells: ResponseCell[]): Value[] {
  const byRoute = new Map<string, { labels: Labels; buckets: Float64Array; sum: number; count: number }>();
  for (const c of cells) {
    const key = `${c.method} ${c.route}`;
    let h = byRoute.get(key);
    if (h === undefined) {
      h = {
        labels: { route: c.route, method: c.method },
        buckets: new Float64Array(BUCKETS.length + 1),
        sum: 0,
        count: 0,
      };
      byRoute.set(key, h);
    }
    for (let i = 0; i < h.buckets.length; i++) h.buckets[i]! += c.buckets[i]!;
    h.sum += c.sum;
    h.count += c.count;
  }
  const out: Value[] = [];
  for (const h of byRoute.values()) {
    let cumulative = 0;
    for (let i = 0; i <= BUCKETS.length; i++) {
      cumulative += h.buckets[i]!;
      out.push({ metricName: `${name}_bucket`, labels: { le: BUCKETS[i] ?? '+Inf', ...h.labels }, value: cumulative });
    }
    out.push({ metricName: `${name}_sum`, labels: h.labels, value: h.sum });
    out.push({ metricName: `${name}_count`, labels: h.labels, value: h.count });
  }
  return out;
}
