/**
 * The product catalogue, `GET /api/x402` (specification, "Endpoints": "product catalogue"; the
 * challenge's `catalog` field points here). The specification does not show its body, so it
 * carries what a buyer or agent needs before the first request: the rail, each product's price
 * now and in the promo window, its query as JSON Schema 2020-12, an example request from the
 * live release, the free routes to the same content, and how to verify what is delivered.
 * Pure: time, rail, signer and the example requests are arguments.
 */
import type { CardFile } from '../core/evidence/card.js';
import { NEVER, PRODUCTS, type Product, type ProductKey } from '../core/pricing/products.js';
import { formatUsdc, inWindow, priceAt, type PromoWindow } from '../core/pricing/price.js';
import { queryJsonSchema } from './product-queries.js';
import type { RailConfig } from './rail-config.js';

export const CATALOGUE_SCHEMA = 'svc.x402-catalogue/0.1';
const JSON_SCHEMA_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
/** Read endpoints are cached 300 s (specification, "Limits"); the catalogue never past a price change. */
const MAX_AGE_SECONDS = 300;

/** One example request of a product, or why the live release offers none. */
export interface ExampleRequest {
  product: ProductKey;
  /** Path and query (relative to the base URL); null when skipped. */
  path: string | null;
  /** Why no example could be made (e.g. no signed card names a subject); null otherwise. */
  skipped: string | null;
}

/**
 * The example requests the live release supports, in product order: the free door as is; a
 * request attestation for the subject of the first active signed card (an unsigned card
 * reserves nothing, so it would quote a commission that buys nothing); the paid bundle of every
 * obligation; the feed. `active` is in card-id order (attestation-preview's `PreviewRelease`).
 */
export function exampleRequests(active: readonly CardFile[], obligations: readonly string[]): ExampleRequest[] {
  const at = (key: ProductKey, query: Record<string, string>): ExampleRequest => {
    const q = new URLSearchParams(query).toString();
    return { product: key, path: `${pathOf(key)}${q ? `?${q}` : ''}`, skipped: null };
  };
  const skip = (key: ProductKey, why: string): ExampleRequest => ({ product: key, path: null, skipped: why });
  const signed = active.find((c) => c.sig_ed25519 !== null);
  return [
    at('free_door', {}),
    signed
      ? at('request_attestation', { subject: signed.subject })
      : skip(
          'request_attestation',
          'no active signed card in the served release names a subject (the board key is unhealthy or no card is active), so there is nothing a commission could reserve',
        ),
    ...(obligations.length > 0
      ? obligations.map((o) => at('evidence_bundle', { obligation: o, bundle: '1' }))
      : [
          skip(
            'evidence_bundle',
            'the served corpus has no obligations.json, so there is no obligation to bundle evidence for',
          ),
        ]),
    at('eunomia_data', { feed: '1' }),
  ];
}

const pathOf = (key: ProductKey): string => PRODUCTS.find((p) => p.key === key)!.path;

export interface CatalogueInputs {
  baseUrl: string;
  rail: RailConfig;
  now: Date;
  release: { id: string; as_of: string };
  signer: { did: string; kid: string; key_present: boolean; unsigned_reason: string | null };
  examples: readonly ExampleRequest[];
  /** Whether an invoice can be issued (a ledger is open to record it). */
  invoicesAvailable: boolean;
}

export function buildCatalogue(c: CatalogueInputs): Record<string, unknown> {
  const base = c.baseUrl;
  const configured = c.rail.payTo !== null && c.rail.facilitatorUrl !== null;
  return {
    schema: CATALOGUE_SCHEMA,
    as_of: c.now.toISOString(),
    x402Version: 2,
    service: 'gspc-board',
    release: c.release,
    rail: {
      mode: 'live',
      scheme: 'exact',
      network: c.rail.network,
      asset: c.rail.asset,
      asset_name: c.rail.assetName,
      decimals: c.rail.decimals,
      symbol: c.rail.symbol,
      max_timeout_seconds: c.rail.maxTimeoutSeconds,
      pay_to: c.rail.payTo,
      pay_to_configured: c.rail.payTo !== null,
      // The facilitator URL itself is not published: operators may put an API key in it.
      facilitator_configured: c.rail.facilitatorUrl !== null,
      payment_headers: [
        'PAYMENT-SIGNATURE (x402 v2)',
        'X-PAYMENT (x402 v1, the name the specification uses)',
        'SIGN-IN-WITH-X (x402 v2 sign-in-with-x: the paying wallet has what it bought again, no new charge)',
      ],
      note: configured
        ? 'payments are verified and settled by the configured facilitator; settlements are listed at /api/revenue'
        : 'the rail is not configured: challenges are served, a payment attempt is answered 503 and nothing is charged',
    },
    signer: {
      ...c.signer,
      offers_signed: c.signer.key_present && c.rail.payTo !== null,
      did_document: `${base}/.well-known/did.json`,
    },
    products: PRODUCTS.map((p) => productEntry(p, c)),
    verify: {
      offers_and_receipts: {
        method: 'POST',
        url: `${base}/api/receipts/verify`,
        body: '{"jws": "<compact JWS>"} as JSON, or the compact JWS as text/plain',
      },
      cards: {
        method: 'POST',
        url: `${base}/api/verify`,
        body: 'a card-v1, {"cards": [...]}, a cards bundle, or {"ids": [<card sha256 or its first 16 hex>]}',
      },
      offline:
        'base64url-decode the JWS payload; fetch the DID document; take publicKeyJwk.x of the verification method whose id equals the header kid; verify Ed25519 over header.payload',
      note: 'a valid signature is not proof of settlement: the settlement is the transaction named in the receipt, listed at /api/revenue',
    },
    quotes: `${base}/.well-known/x402.json`,
    revenue: `${base}/api/revenue`,
    never: [...NEVER],
  };
}

function productEntry(p: Product, c: CatalogueInputs): Record<string, unknown> {
  const base = c.baseUrl;
  const price = priceAt(p, c.now, c.rail.promo);
  const examples = c.examples.filter((e) => e.product === p.key);
  const example = examples.find((e) => e.path !== null);
  return {
    product_id: p.product_id,
    sku_id: p.sku_id,
    method: 'GET',
    path: p.path,
    url: `${base}${p.path}`,
    per: p.per,
    schema: p.schema,
    description: p.description,
    deliverable: p.deliverable,
    never: [...NEVER],
    pricing: {
      pricing_basis: price.pricing_basis,
      campaign_id: price.campaign_id,
      offered_amount_atomic: price.offered_amount_atomic,
      normal_amount_atomic: price.normal_amount_atomic,
      offered: formatUsdc(price.offered_amount_atomic),
      normal: formatUsdc(price.normal_amount_atomic),
      fresh_compute_excluded: true,
      promo: promoOf(p, c.rail.promo, c.now),
    },
    query: { $schema: JSON_SCHEMA_2020_12, ...queryJsonSchema(p.key) },
    example_request: example ? `${base}${example.path}` : null,
    // Every example the live release supports (the bundle has one per obligation).
    example_requests: examples.filter((e) => e.path !== null).map((e) => `${base}${e.path}`),
    example_skipped: example ? null : (examples[0]?.skipped ?? null),
    without_payment:
      p.key === 'evidence_bundle'
        ? '200 free preview without bundle=1; 402 challenge (x402 v2, body and PAYMENT-REQUIRED) with bundle=1'
        : p.key === 'free_door'
          ? '402 challenge with amount 0; nothing is charged'
          : '402 challenge (x402 v2, body and PAYMENT-REQUIRED) carrying the free preview in svc.preview',
    ...freeRoutes(p.key, base),
    ...(p.key === 'evidence_bundle' && {
      invoice: {
        how: `${base}${p.path}?obligation=<id>&bundle=1&invoice=gbp&commissioned_by=<legal entity>`,
        available: c.invoicesAvailable,
        collect: `${base}/api/invoices/<ref>`,
        note: 'for a buyer who cannot pay in the token: a reference is issued and the amount appears only on the invoice; the bundle is released at the collect URL once the invoice is paid',
      },
    }),
  };
}

/** The promo window as it applies to a product (null for the free door or with no promo configured). */
function promoOf(p: Product, window: PromoWindow | null, now: Date): Record<string, unknown> | null {
  if (!p.promoEligible || !window) return null;
  return {
    ...window,
    amount_atomic: p.promoAtomic.toString(),
    amount: formatUsdc(p.promoAtomic),
    active: inWindow(window, now),
  };
}

/** Where the same content, or a preview of it, is free. */
function freeRoutes(key: ProductKey, base: string): { free_preview: string; free_equivalents: string[] } {
  switch (key) {
    case 'free_door':
      return {
        free_preview: `${base}/api/gspc`,
        free_equivalents: [`${base}/api/gspc`, `${base}/root.json`, `${base}/interop/card-root-latest.json`],
      };
    case 'request_attestation':
      return {
        free_preview: 'the 402 challenge: svc.preview lists the signed cards a commission would reserve',
        free_equivalents: [`${base}/cards/index.json`, `${base}/signed/card-matrix.json`, `${base}/api/verify`],
      };
    case 'evidence_bundle':
      return {
        free_preview: `${base}/api/evidence-bundle?obligation=<id>`,
        free_equivalents: [`${base}/cards-bundle.json`, `${base}/root.json`, `${base}/api/verify`],
      };
    case 'eunomia_data':
      return {
        free_preview: 'the 402 challenge: svc.preview shows each stream and why an unread one is null',
        free_equivalents: [`${base}/root.json`, `${base}/cards/index.json`],
      };
  }
}

/**
 * How long the catalogue may be cached: 300 s, but never past the next promo boundary, so no
 * cache keeps showing a price that no longer applies.
 */
export function catalogueMaxAge(now: Date, window: PromoWindow | null): number {
  if (!window) return MAX_AGE_SECONDS;
  const t = now.getTime();
  const next = [Date.parse(window.starts_at), Date.parse(window.ends_at)].find((b) => b > t);
  return next === undefined ? MAX_AGE_SECONDS : Math.min(MAX_AGE_SECONDS, Math.floor((next - t) / 1000));
}
