/**
 * The quote manifest, `GET /.well-known/x402.json` (specification, "Quote manifest
 * (svc.x402-quotes/0.1)"), kind MEASURED: every quote is a challenge this service actually
 * answered to a request for one of the example requests, not a price list restated. The
 * request is made by a caller-supplied `get` (in-process, through the app's own routes), so
 * this module performs no I/O of its own and never requests a URL that came from a client.
 */
import { PRODUCTS } from '../core/pricing/products.js';
import type { ExampleRequest } from './catalogue.js';

export const QUOTES_SCHEMA = 'svc.x402-quotes/0.1';
export const QUOTES_PATH = '/.well-known/x402.json';
/**
 * How long one observation may be served: the offers inside are signed with their issue time and
 * are valid for `maxTimeoutSeconds` (300), so a manifest older than that would quote dead offers.
 */
export const QUOTES_TTL_SECONDS = 300;

export interface Quote {
  product_id: string;
  /** Absolute URL requested (the product path alone when skipped). */
  url: string;
  method: 'GET';
  /** Observed HTTP status; null when skipped or when the request itself failed. */
  http: number | null;
  /** The parsed challenge body; null unless a 402 x402 v2 challenge was read. */
  body: Record<string, unknown> | null;
  /** Why no challenge was read; null when read (and when skipped). */
  error: string | null;
  /** Why the request was not made; null when it was. */
  skipped: string | null;
}

/** Requests a path (with query) of this service in-process: status and body text. */
export type LocalGet = (path: string) => Promise<{ status: number; body: string }>;

/** Requests every example (concurrently) and records what was answered. */
export async function observeQuotes(
  examples: readonly ExampleRequest[],
  baseUrl: string,
  get: LocalGet,
): Promise<Quote[]> {
  return Promise.all(
    examples.map(async (e): Promise<Quote> => {
      const product = PRODUCTS.find((p) => p.key === e.product)!;
      const quote: Quote = {
        product_id: product.product_id,
        url: `${baseUrl}${e.path ?? product.path}`,
        method: 'GET',
        http: null,
        body: null,
        error: null,
        skipped: e.skipped,
      };
      if (e.path === null) return quote;
      try {
        const r = await get(e.path);
        return { ...quote, http: r.status, ...readChallenge(r.status, r.body) };
      } catch (err) {
        return { ...quote, error: `the request could not be made: ${(err as Error).message}` };
      }
    }),
  );
}

/** A quote is read only when the answer is a 402 whose JSON body is an x402 v2 challenge. */
function readChallenge(status: number, text: string): { body: Record<string, unknown> | null; error: string | null } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { body: null, error: `HTTP ${status} with a body that is not JSON` };
  }
  const o = json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  if (status !== 402) {
    return {
      body: null,
      error: `expected HTTP 402, got ${status}${typeof o.error === 'string' ? `: ${o.error}` : ''}`,
    };
  }
  if (o.x402Version !== 2) return { body: null, error: 'HTTP 402 without an x402Version 2 challenge body' };
  return { body: o, error: null };
}

export function quoteManifest(observedAt: Date, quotes: readonly Quote[]): Record<string, unknown> {
  return {
    schema: QUOTES_SCHEMA,
    as_of: observedAt.toISOString(),
    manifest: QUOTES_PATH,
    kind: 'MEASURED',
    observed_how:
      'each quote is the answer this service gave, at as_of, to a GET of the quoted URL without payment, made in-process through its own routes',
    counts: {
      quotes: quotes.length,
      read: quotes.filter((q) => q.body !== null).length,
      errors: quotes.filter((q) => q.error !== null).length,
      skipped: quotes.filter((q) => q.skipped !== null).length,
    },
    quotes,
  };
}
