/**
 * How the monitor reads a view (issue 36): every answer is untrusted, so every fetch has a
 * deadline and a size cap, and a view as a whole has a time budget. A body over its cap is cut
 * off while it streams (a 100 MB answer costs the cap, not 100 MB of memory); a stall costs the
 * deadline, not the poll. Whatever goes wrong is a `ViewFault` carrying the alert it is
 * (`unreachable`, `view_timeout`, `view_oversized`, `view_malformed`), so the caller makes it an
 * alert for that view and goes on judging the others.
 */
import type { AlertKind } from '../core/monitor/log-watch.js';
import { fetchFailure } from './fetch-failure.js';
import { type HttpCache, uncached } from './monitor-http-cache.js';
import type { ReleaseSource } from './release-source.js';

export interface MonitorLimits {
  /** Deadline of one request, from sending it to its body's last byte. */
  requestTimeoutMs: number;
  /** Everything one view costs in a poll: its documents, and its full verification when due. */
  viewBudgetMs: number;
}

/** Far under the minute a hostile view may stall for; a large board's full verification fits the budget. */
export const DEFAULT_LIMITS: MonitorLimits = { requestTimeoutMs: 15_000, viewBudgetMs: 300_000 };

const KiB = 1024;
const MiB = 1024 * KiB;

/** Caps by document: what an honest board serves, with room to grow. */
export const CAP = {
  did: 64 * KiB,
  checkpoint: 64 * KiB,
  consistency: 64 * KiB,
  transitions: 1 * MiB,
  /** Any other document of a release: the full verification's reads (cards bundle, per-item rows). */
  document: 256 * MiB,
} as const;

/**
 * `/log/entries.json` scaled by the size the checkpoint states (an entry is about 70 bytes of
 * JSON): never under a few MiB, never over 256 MiB however large a size a hostile view signs.
 */
export const entriesCap = (size: number): number =>
  Math.min(256 * MiB, Math.max(4 * MiB, 64 * KiB + 128 * (Number.isSafeInteger(size) && size > 0 ? size : 0)));

export class ViewFault extends Error {
  constructor(
    readonly alert: Extract<AlertKind, 'unreachable' | 'view_timeout' | 'view_oversized' | 'view_malformed'>,
    detail: string,
  ) {
    super(detail);
  }
}

/** Reads a view's documents within its limits and its budget (`signal` aborts when the budget is spent). */
export interface BoundedGet {
  /** The bytes at `path`, or undefined on a 404. */
  (path: string, cap: number): Promise<Buffer | undefined>;
  base: string;
}

/**
 * `cache`: when given, every path but the log's own (`uncached`) is asked for with the ETag of
 * the bytes last received, and a 304 gives those bytes back (decision MT4).
 */
export function boundedGet(view: string, limits: MonitorLimits, budget: AbortSignal, cache?: HttpCache): BoundedGet {
  const base = view.replace(/\/$/, '');
  const get = async (path: string, cap: number): Promise<Buffer | undefined> => {
    const url = `${base}${path}`;
    if (budget.aborted) throw budgetSpent(limits);
    const kept = cache !== undefined && !uncached(path) ? cache.kept(url) : undefined;
    if (kept !== undefined) cache!.counts.conditional++;
    const deadline = AbortSignal.timeout(limits.requestTimeoutMs);
    const signal = AbortSignal.any([budget, deadline]);
    const timedOut = () =>
      budget.aborted
        ? budgetSpent(limits)
        : new ViewFault('view_timeout', `GET ${path}: no whole answer within ${limits.requestTimeoutMs / 1000} s`);
    let r: Response | undefined;
    for (let attempt = 1; r === undefined; attempt++) {
      try {
        // A view serves its own documents: a redirect is not followed (review finding 4f: a view
        // answering every path with a 302 to the origin would otherwise be judged the origin).
        r = await fetch(url, {
          signal,
          redirect: 'manual',
          ...(kept !== undefined && { headers: { 'if-none-match': kept.etag } }),
        });
      } catch (e) {
        if (signal.aborted) throw timedOut();
        const cause = (e as { cause?: { code?: string } }).cause;
        // A kept-alive connection the server closed (it restarted between polls) fails the first
        // request sent on it: that one request is sent again, on a new connection.
        if (attempt === 1 && STALE_CONNECTION.has(cause?.code ?? '')) continue;
        throw new ViewFault('unreachable', `GET ${url} failed: ${fetchFailure(e)}`);
      }
    }
    if (r.status === 304 && kept !== undefined) {
      await r.body?.cancel();
      cache!.counts.notModified++;
      if (kept.body.length > cap)
        throw new ViewFault('view_oversized', `GET ${path}: the answer is over its cap of ${cap} bytes`);
      return kept.body;
    }
    if (r.status >= 300 && r.status < 400) {
      await r.body?.cancel();
      throw new ViewFault(
        'view_malformed',
        `GET ${path}: HTTP ${r.status} redirect to ${r.headers.get('location') ?? 'nowhere'}: a view serves its own documents, and a monitor follows no redirect`,
      );
    }
    if (r.status === 404) {
      await r.body?.cancel();
      if (kept !== undefined) cache!.drop(url);
      return undefined;
    }
    if (!r.ok) {
      await r.body?.cancel();
      throw new ViewFault('unreachable', `GET ${url}: HTTP ${r.status}`);
    }
    const declared = Number(r.headers.get('content-length'));
    const tooBig = () => new ViewFault('view_oversized', `GET ${path}: the answer is over its cap of ${cap} bytes`);
    if (Number.isFinite(declared) && declared > cap) {
      await r.body?.cancel();
      throw tooBig();
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    const reader = r.body?.getReader();
    try {
      for (;;) {
        const next = await reader?.read();
        if (next === undefined || next.done) break;
        total += next.value.byteLength;
        if (total > cap) {
          // Cancelling the stream closes the connection: the rest is never read.
          await reader!.cancel().catch(() => undefined);
          throw tooBig();
        }
        chunks.push(next.value);
      }
    } catch (e) {
      if (e instanceof ViewFault) throw e;
      if (signal.aborted) throw timedOut();
      throw new ViewFault('unreachable', `GET ${url}: the answer broke off: ${fetchFailure(e)}`);
    }
    const body = Buffer.concat(chunks);
    const etag = r.headers.get('etag');
    if (cache !== undefined && !uncached(path) && etag !== null) cache.keep(url, etag, body);
    return body;
  };
  return Object.assign(get, { base });
}

const STALE_CONNECTION = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);

const budgetSpent = (limits: MonitorLimits) =>
  new ViewFault('view_timeout', `the view took more than its budget of ${limits.viewBudgetMs / 1000} s`);

/** `bytes` parsed as JSON; anything else is `view_malformed`, naming the path. */
export function parseJson(bytes: Buffer, path: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new ViewFault('view_malformed', `${path} is not JSON (${(e as Error).message})`);
  }
}

/** A shape rule of a document: `ok`, or `view_malformed` saying what the path should hold. */
export function expect(ok: boolean, path: string, what: string): asserts ok {
  if (!ok) throw new ViewFault('view_malformed', `${path} ${what}`);
}

/**
 * The view as `gspc verify` reads it, within the same limits: the DID document under its own
 * cap, every other document under the general one. A fault stops the verification and is the
 * view's alert.
 */
export function boundedSource(get: BoundedGet): ReleaseSource {
  return {
    describe: get.base,
    live: true,
    get: (path) => get(path, path === '/.well-known/did.json' ? CAP.did : CAP.document),
  };
}

/**
 * Runs `work` for one view within its budget: the budget's signal aborts its fetches, and the
 * poll waits no longer than the budget even for work that ignores the signal. Every failure is
 * handed to `fault` as the alert it is; nothing a view does can throw out of here.
 */
export async function withinBudget<T>(
  limits: MonitorLimits,
  work: (budget: AbortSignal) => Promise<T>,
  fault: (alert: ViewFault['alert'], detail: string) => T,
): Promise<T> {
  const budget = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      budget.abort();
      reject(budgetSpent(limits));
    }, limits.viewBudgetMs);
  });
  try {
    return await Promise.race([work(budget.signal), expired]);
  } catch (e) {
    if (e instanceof ViewFault) return fault(e.alert, e.message);
    // Anything else a view's answer made go wrong (a shape no rule foresaw): still that view's alert.
    return fault('view_malformed', e instanceof Error ? e.message : String(e));
  } finally {
    clearTimeout(timer);
    budget.abort();
  }
}
