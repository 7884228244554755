/**
 * The prepared documents' fast path (decision O6, docs/performance.md §12).
 *
 * Most of the service's traffic is a plain GET of bytes prepared once per release: the board,
 * cards and their proofs, the log, the ledgers, per-item and evidence files. Through Fastify each
 * such request costs about 10 µs of framework (request and reply objects, routing, the hook
 * chain, the rate limiter's async hook) on top of node:http's own ~26 µs: the board served at
 * 0.47-0.67 of a bare node:http server sending the same bytes. Here the answer Fastify gave is
 * replayed from node:http's request event, before Fastify is entered.
 *
 * What is replayed is only what Fastify itself answered, for this exact request target, under the
 * release being served: the document routes `record` each 200 they send of a per-release
 * prepared document for a GET (without a query, or with one the document reads: `?axis=`). A
 * request is answered here only when it is a GET of a recorded target with no `If-None-Match`
 * and the service is not closing; every other request (a query not recorded, a HEAD, a conditional request, a new release not yet recorded, a request over
 * its budget, every route that is not a prepared document) goes to Fastify unchanged. The same
 * rate budget (the limiter's own store) and the same request series (metrics) are applied here.
 * With the access log on, nothing is fast-pathed: every request must reach the logger.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Prepared } from '../serve/prepared-bytes.js';
import { monotonicMs } from './client-budgets.js';

/** Far above any release's documents (a card and its proof each); beyond it Fastify answers. */
const MAX_RECORDED = 200_000;
/**
 * What the record may hold beside the release's own bytes (the bodies are the prepared buffers,
 * shared, not copied): its targets and headers, counted in UTF-16 code units as V8 may hold them,
 * two bytes each (issue 38). About 600 bytes a target: 64 MiB holds every card, proof and file of
 * a release of 100,000 cards; beyond it Fastify answers.
 */
export const MAX_RECORDED_BYTES = 64 * 1024 * 1024;

interface Recorded {
  /** Counts one answer and its time (metrics), when counted. */
  counted: ((seconds: number) => void) | undefined;
  /** Every header as node:http takes them flat ([name, value, name, value, …]), content-length included. */
  head: readonly string[];
  body: Buffer;
}

export interface FastPathOptions {
  /** The release being served (compared by identity: a new release empties what was recorded). */
  current: () => object;
  /**
   * Counts the request in its client's free-read budget at `now` (the clock's milliseconds): false
   * when it is over (Fastify then answers the 429). Absent: no limits.
   */
  admit?: (req: IncomingMessage, now: number) => boolean;
  /** The counter of 200 GETs of `route` (the metrics' request series), asked once per route. */
  counter?: (route: string) => (seconds: number) => void;
  /** Monotonic milliseconds, the budgets' clock (default monotonicMs): read once a request for both. */
  clock?: () => number;
}

/**
 * Whether the request has a header, from the raw list: `req.headers` builds an object of every
 * header on first access (a map transition per header, a few per cent of a board read).
 */
function carries(req: IncomingMessage, lowerCaseName: string): boolean {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === lowerCaseName.length && name.toLowerCase() === lowerCaseName) return true;
  }
  return false;
}

export class PreparedFastPath {
  #release: object | undefined;
  #recorded = new Map<string, Recorded>();
  #bytes = 0;
  #closing = false;

  readonly #clock: () => number;

  constructor(private readonly o: FastPathOptions) {
    this.#clock = o.clock ?? monotonicMs;
  }

  /**
   * What Fastify answered for `target` (a GET, its query one the document reads) under `release`. Only a target
   * without percent-escapes is kept, and at most MAX_RECORDED of them: the router decodes
   * escapes, so one card could otherwise be recorded under millions of spellings of its name.
   */
  record(release: object, target: string, route: string, p: Prepared): void {
    if (release !== this.#release) {
      this.#release = release;
      this.#recorded = new Map();
      this.#bytes = 0;
    }
    if (target.includes('%') || this.#recorded.size >= MAX_RECORDED || this.#recorded.has(target)) return;
    const head: string[] = [];
    let size = target.length;
    for (const [name, value] of Object.entries(p.headers)) {
      head.push(name, value);
      size += name.length + value.length;
    }
    head.push('content-length', String(p.body.length));
    size = 2 * (size + 32) + 64; // the strings, the entry and its array
    if (this.#bytes + size > MAX_RECORDED_BYTES) return;
    this.#bytes += size;
    this.#recorded.set(target, { counted: this.o.counter?.(route), head, body: p.body });
  }

  /** From now on every request goes to Fastify (it answers 503 while closing). */
  close(): void {
    this.#closing = true;
  }

  /** Answers the request when it is a replay of a recorded answer; false: Fastify answers it. */
  readonly serve = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (this.#closing || req.method !== 'GET' || carries(req, 'if-none-match')) return false;
    const r = this.#recorded.get(req.url ?? '');
    if (r === undefined || this.o.current() !== this.#release) return false;
    // The clock is read only for what uses it: the budget's window and the request series.
    const started = this.o.admit === undefined && r.counted === undefined ? 0 : this.#clock();
    if (this.o.admit !== undefined && !this.o.admit(req, started)) return false;
    res.writeHead(200, r.head as string[]);
    res.end(r.body);
    if (r.counted !== undefined) r.counted((this.#clock() - started) / 1000);
    return true;
  };
}
