/**
 * What a metered product answers before it is paid (specification, "Metered products"): the
 * evidence bundle's free preview without `bundle=1`, else the x402 v2 challenge with its live
 * preview. One implementation for the HTTP product routes, the MCP metered tools and the measured
 * quote manifest, so a tool, a quote and a route can never disagree.
 */
import { GspcError } from '../core/errors.js';
import type { Obligation } from '../core/board/model.js';
import { productByKey, type Product, type ProductKey } from '../core/pricing/products.js';
import {
  attestationPreview,
  matchingCards,
  previewReleaseOf,
  type PreviewRelease,
} from '../payments/attestation-preview.js';
import { bundlePreview, relevantCards } from '../payments/bundle-preview.js';
import { buildChallenge, paymentRequiredHeader } from '../payments/challenge.js';
import { eunomiaPreview, freeDoorPreview, freeDoorSvc, outputExample } from '../payments/feed-preview.js';
import { parseProductQuery, queryParameters } from '../payments/product-queries.js';
import type { ProductsContext, ServiceContext } from './context.js';
import type { PreparedRelease } from './prepared.js';
import { readQuery } from './query.js';

export const NOT_PAID =
  "no payment header: send the payment in PAYMENT-SIGNATURE (x402 v2) or X-PAYMENT (v1, the name this service's specification uses)";

/** What the previews read, derived once per prepared release. */
export interface ReleaseView {
  preview: PreviewRelease & { merkle_root: string };
  lid: string;
  board: Record<string, unknown>;
}
const perRelease = new WeakMap<PreparedRelease, ReleaseView>();
export function releaseView(p: PreparedRelease): ReleaseView {
  let v = perRelease.get(p);
  if (!v) {
    const board = JSON.parse(p.boards.get('')!.body.toString('utf8')) as { totals: { lid: string } };
    v = {
      preview: { ...previewReleaseOf(p.release), merkle_root: p.release.evidence.root.merkle_root },
      lid: board.totals.lid,
      board,
    };
    perRelease.set(p, v);
  }
  return v;
}

/** A product request's query, checked (400 `bad_query` before any challenge). */
export type ProductQuery = Record<string, string | undefined>;

export function productQuery(product: Product, url: string, current: PreparedRelease): ProductQuery {
  return parseProductQuery(
    product.key,
    readQuery(url, queryParameters(product.key)),
    current.release.corpus.obligations.map((o) => o.id),
  ) as ProductQuery;
}

export interface SerialisedChallenge {
  challenge: Record<string, unknown>;
  json: string;
  header: string;
}

/** The challenge as body and `PAYMENT-REQUIRED` value, stringified once for both. */
function serialised(challenge: Record<string, unknown>): SerialisedChallenge {
  const json = JSON.stringify(challenge);
  return { challenge, json, header: paymentRequiredHeader(json) };
}

/**
 * The challenge's bytes with their own sign-in nonce (decision P45): the official SIWX client
 * signs the nonce a 402 carries, and a proof's (address, nonce) is used once, so two 402s within
 * one second (one cached challenge) must not share one. The cached nonce (32 hex digits derived
 * from the URL and the second, so it occurs once) is spliced out of the JSON text and of its
 * base64 header: the base64 of the bytes before and after the 3-byte groups holding the nonce is
 * kept per cached challenge, so a 402 encodes about 36 bytes, not 10 KB. Serialising the
 * challenge again cost 50 µs a 402 and halved the challenge throughput (docs/performance.md §5).
 */
export function withSignInNonce(c: SerialisedChallenge, nonce: string): { json: string; header: string } {
  let t = templates.get(c);
  if (t === undefined) {
    t = nonceTemplate(c) ?? null;
    templates.set(c, t);
  }
  if (t === null || !/^[0-9a-f]{32}$/.test(nonce)) return c;
  const group = Buffer.from(t.groupBefore + nonce + t.groupAfter, 'utf8').toString('base64');
  return { json: t.jsonBefore + nonce + t.jsonAfter, header: t.pre64 + group + t.post64 };
}

interface NonceTemplate {
  jsonBefore: string;
  jsonAfter: string;
  /** The 3-byte groups around the nonce: what comes before and after it within them. */
  groupBefore: string;
  groupAfter: string;
  pre64: string;
  post64: string;
}
const templates = new WeakMap<SerialisedChallenge, NonceTemplate | null>();

function nonceTemplate(c: SerialisedChallenge): NonceTemplate | undefined {
  const placeholder = (c.challenge.extensions as Record<string, { info?: { nonce?: unknown } }> | undefined)?.[
    'sign-in-with-x'
  ]?.info?.nonce;
  if (typeof placeholder !== 'string' || !/^[0-9a-f]{32}$/.test(placeholder)) return undefined;
  const marker = `"nonce":"${placeholder}"`;
  const at = c.json.indexOf(marker);
  if (at < 0 || c.json.indexOf(marker, at + 1) >= 0) return undefined;
  const from = at + marker.length - placeholder.length - 1; // the nonce's first character
  const bytes = Buffer.from(c.json, 'utf8');
  const byteFrom = Buffer.byteLength(c.json.slice(0, from), 'utf8');
  const byteTo = byteFrom + placeholder.length; // hex digits are one byte each
  const a = byteFrom - (byteFrom % 3);
  const b = Math.min(bytes.length, byteTo + ((3 - (byteTo % 3)) % 3));
  return {
    jsonBefore: c.json.slice(0, from),
    jsonAfter: c.json.slice(from + placeholder.length),
    groupBefore: bytes.subarray(a, byteFrom).toString('utf8'),
    groupAfter: bytes.subarray(byteTo, b).toString('utf8'),
    pre64: bytes.subarray(0, a).toString('base64'),
    post64: bytes.subarray(b).toString('base64'),
  };
}

/** The challenge for `url`, optionally saying why a payment was not accepted. */
export function challengeFor(
  ctx: ServiceContext,
  products: ProductsContext,
  product: Product,
  url: string,
  query: ProductQuery,
  error?: string,
): SerialisedChallenge {
  const base = ctx.baseUrl;
  const current = ctx.state.current();
  const view = releaseView(current);
  const obligations = current.release.corpus.obligations;
  let preview: Record<string, unknown>;
  switch (product.key) {
    case 'free_door':
      preview = freeDoorPreview(base);
      break;
    case 'request_attestation':
      preview = attestationPreview(view.preview, query.subject!, query.axis, base);
      break;
    case 'evidence_bundle':
      preview = bundlePreview(view.preview, obligations.find((o) => o.id === query.obligation)!, query.subject, base);
      break;
    case 'eunomia_data':
      preview = eunomiaPreview(view.preview, base, current.release.corpus.status.regulation ?? null);
      break;
  }
  const signing = ctx.state.signingLive();
  const c = buildChallenge({
    product,
    resourceUrl: `${base}${url}`,
    baseUrl: base,
    rail: products.rail,
    boardKey: signing.boardKey,
    did: signing.did,
    lid: view.lid,
    query: Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)),
    preview,
    outputExample: outputExample(product.key, base),
    notPaidReason: error ? `the payment was not accepted: ${error}` : NOT_PAID,
    now: ctx.now(),
    ...(error !== undefined && { error }),
  });
  if (product.key === 'free_door') Object.assign(c.svc as object, freeDoorSvc(base));
  return serialised(c);
}

/**
 * Challenges by URL for the current second. Within one second a challenge's bytes cannot change
 * for one prepared release: the offer's `validUntil` and the price are whole seconds, Ed25519
 * signatures are deterministic, and a new release or key state is a new PreparedRelease (the
 * sign-in nonce is drawn per response on top: `withSignInNonce`). Building one costs ~0.6 ms
 * (docs/performance.md §5). The map is dropped each second and bounded in entries and in bytes
 * (issue 38): many distinct URLs cannot grow it; past the bound a challenge is built, not kept.
 */
export const CHALLENGE_CACHE_ENTRIES = 1000;
export const CHALLENGE_CACHE_BYTES = 4 * 1024 * 1024;

export class ChallengeCache {
  private release: PreparedRelease | undefined;
  private second = -1;
  private byUrl = new Map<string, SerialisedChallenge>();
  private bytes = 0;

  get(release: PreparedRelease, url: string, now: Date, build: () => SerialisedChallenge): SerialisedChallenge {
    const second = Math.floor(now.getTime() / 1000);
    if (release !== this.release || second !== this.second) {
      this.release = release;
      this.second = second;
      this.byUrl = new Map();
      this.bytes = 0;
    }
    let c = this.byUrl.get(url);
    if (!c) {
      c = build();
      // UTF-16 strings: two bytes a character (the URL, the JSON and its base64 header).
      const size = 2 * (url.length + c.json.length + c.header.length);
      if (this.byUrl.size < CHALLENGE_CACHE_ENTRIES && this.bytes + size <= CHALLENGE_CACHE_BYTES) {
        this.byUrl.set(url, c);
        this.bytes += size;
      }
    }
    return c;
  }

  /** What it holds now (tests: the bound). */
  held(): { entries: number; bytes: number } {
    return { entries: this.byUrl.size, bytes: this.bytes };
  }
}

// One cache per service context: two services in one process never share challenges.
const caches = new WeakMap<ProductsContext, ChallengeCache>();

/** The plain challenge (no error) for `url`: identical within a second for one release and signer state, so cached. */
export function offeredChallenge(
  ctx: ServiceContext,
  products: ProductsContext,
  product: Product,
  url: string,
  query: ProductQuery,
): SerialisedChallenge {
  let cache = caches.get(products);
  if (!cache) {
    cache = new ChallengeCache();
    caches.set(products, cache);
  }
  return cache.get(ctx.state.current(), url, ctx.now(), () => challengeFor(ctx, products, product, url, query));
}

/** A request's answer without payment: the bundle preview (200) or the challenge (402). */
export type UnpaidAnswer =
  | { kind: 'preview'; body: Record<string, unknown> }
  | { kind: 'challenge'; challenge: SerialisedChallenge };

/** Whether this request is the evidence bundle's free preview (no `bundle=1`, no invoice). */
export function isBundlePreview(product: Product, query: ProductQuery): boolean {
  return product.key === 'evidence_bundle' && query.bundle === undefined && query.invoice === undefined;
}

export function bundlePreviewBody(ctx: ServiceContext, query: ProductQuery): Record<string, unknown> {
  const current = ctx.state.current();
  const obligations = current.release.corpus.obligations;
  const preview = bundlePreview(
    releaseView(current).preview,
    obligations.find((o) => o.id === query.obligation)!,
    query.subject,
    ctx.baseUrl,
  );
  return { schema: 'svc.evidence-bundle-preview/0.1', kind: 'preview', ...preview };
}

/** What `GET url` of a product answers without a payment header (a bad query throws `bad_query`). */
export function unpaidAnswer(
  ctx: ServiceContext,
  products: ProductsContext,
  key: ProductKey,
  url: string,
): UnpaidAnswer {
  const product = productByKey(key);
  const query = productQuery(product, url, ctx.state.current());
  if (isBundlePreview(product, query)) return { kind: 'preview', body: bundlePreviewBody(ctx, query) };
  if (query.invoice !== undefined)
    throw new GspcError('bad_query', 'an invoice request is a write; it is answered over HTTP only');
  return { kind: 'challenge', challenge: offeredChallenge(ctx, products, product, url, query) };
}

/**
 * A commission or bundle with no signed card to reserve would charge for an empty artefact: such
 * a payment is refused before the facilitator is asked (402 with the reason), nothing charged.
 */
export function nothingToDeliver(
  product: Product,
  query: ProductQuery,
  view: ReleaseView,
  obligations: readonly Obligation[],
): string | undefined {
  if (product.key === 'request_attestation' && matchingCards(view.preview, query.subject!, query.axis).length === 0) {
    return `no signed card of this release matches subject '${query.subject}'${query.axis ? ` on axis '${query.axis}'` : ''}: there is nothing to reserve, so the payment was not taken`;
  }
  if (
    product.key === 'evidence_bundle' &&
    relevantCards(view.preview, obligations.find((o) => o.id === query.obligation)!, query.subject).length === 0
  ) {
    return `no signed card of this release is relevant to obligation '${query.obligation}'${query.subject ? ` for subject '${query.subject}'` : ''}: the bundle would be empty, so the payment was not taken`;
  }
  return undefined;
}
