/**
 * The slice of autocannon@9's programmatic API the bench uses. autocannon ships no types and
 * @types/autocannon is not a dependency (the brief forbids adding one), so it is declared here.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    /** The http-parser-js `info` object the client re-emits as its 'headers' event. */
    interface HeadersInfo {
      statusCode: number;
      /** Raw headers, alternating name and value, names as the server sent them. */
      headers: string[];
    }
    interface Client extends EventEmitter {
      on(event: 'headers', listener: (info: HeadersInfo) => void): this;
      on(event: 'response', listener: (statusCode: number, resBytes: number, responseTime: number) => void): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
    }
    interface Options {
      url: string;
      connections?: number;
      pipelining?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds before a request counts as a timeout. */
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      setupClient?: (client: Client) => void;
    }
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      /** Seconds, rounded to 10 ms. */
      duration: number;
      statusCodeStats: Record<string, { count: number }>;
      '2xx': number;
    }
  }
  function autocannon(
    opts: autocannon.Options,
    cb: (err: Error | null, result: autocannon.Result) => void,
  ): EventEmitter;
  export = autocannon;
}
