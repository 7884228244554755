/**
 * The metered evidence tools of `/mcp`, one per paid product (specification, "Metered products",
 * "Payment challenge body"). A tool never delivers the artefact and never takes a payment: it
 * answers the product's free preview and its x402 v2 payment challenge, which is the 402 body of
 * `GET <product path>?<the same query>`, built in-process by the same function the route answers
 * with (src/serve/products.ts), so the tool and the HTTP route answer one and the same challenge.
 * The artefact is bought over HTTP at `pay_at`.
 */
import { z } from 'zod';
import { productByKey, type ProductKey } from '../../core/pricing/products.js';
import { PRODUCT_QUERIES, queryParameters } from '../../payments/product-queries.js';
import { GspcError } from '../../core/errors.js';
import { failureOf } from '../../serve/error-body.js';
import { unpaidAnswer } from '../../serve/products.js';
import type { SurfaceContext } from '../context.js';
import { noProducts } from './reader-tools.js';
import { errorResult, tool, type Document, type McpTool } from './tool-results.js';

/**
 * The HTTP query of a tool call, parameters in the product's schema order (the challenge's
 * resource URL is the request URL, so one order gives one URL). The evidence bundle's
 * `bundle=1` is implied: without it the route answers only the preview.
 */
export function productPath(key: ProductKey, args: Readonly<Record<string, string | undefined>>): string {
  const q = new URLSearchParams();
  for (const name of queryParameters(key)) {
    const value = name === 'bundle' && key === 'evidence_bundle' ? '1' : args[name];
    if (value !== undefined) q.set(name, value);
  }
  const query = q.toString();
  return `${productByKey(key).path}${query ? `?${query}` : ''}`;
}

async function offer(key: ProductKey, args: Record<string, string | undefined>, ctx: SurfaceContext) {
  const path = productPath(key, args);
  if (!ctx.products) return noProducts(ctx, productByKey(key).path);
  let body: Document;
  try {
    const answer = unpaidAnswer(ctx, ctx.products, key, path);
    // A tool's path always asks for the paid artefact (bundle=1 is implied), so this is a challenge.
    if (answer.kind !== 'challenge')
      return errorResult({ error: `${path} answers a free preview, not a challenge`, code: 'internal' });
    // A copy: the cached challenge object is shared by every request of this second.
    body = JSON.parse(answer.challenge.json) as Document;
  } catch (err) {
    // A bad query is the route's 400 (for example an unknown obligation, with the known ones).
    if (!(err instanceof GspcError)) throw err;
    return errorResult(failureOf(err).body as { error: string; code: string } & Document);
  }
  const product = productByKey(key);
  const resource = (body.resource as { url: string }).url;
  const svc = body.svc as { preview: Document };
  const doc = {
    product: product.product_id,
    pay_at: resource,
    method: 'GET',
    how_to_pay:
      'GET pay_at with an x402 v2 PAYMENT-SIGNATURE header (or v1 X-PAYMENT) built from challenge.accepts[0]; the artefact is delivered over HTTP only, never through this tool. Verification of what you buy stays free (verify_card, POST /api/verify, POST /api/receipts/verify).',
    preview: svc.preview,
    challenge: body,
  };
  const accepts = (body.accepts as { amount: string; asset: string; network: string }[])[0]!;
  const text = `${product.product_id}: ${product.description} Price ${accepts.amount} atomic units of ${accepts.asset} on ${accepts.network}, paid at GET ${resource}. The free preview and the x402 v2 challenge (the 402 body of that URL) are in structuredContent.`;
  return { content: [{ type: 'text' as const, text }], structuredContent: doc };
}

const describe = (key: ProductKey, extra: string) => {
  const p = productByKey(key);
  return `Metered product ${p.product_id}: ${p.description} Answers its free preview and its x402 v2 payment challenge (the same 402 body as GET ${p.path}${extra}), never the artefact: pay over HTTP at pay_at.`;
};

const {
  invoice: _invoice,
  commissioned_by: _by,
  bundle: _bundle,
  ...bundleShape
} = PRODUCT_QUERIES.evidence_bundle.shape;

/** One tool per metered product, in the specification's product order. */
export const METERED_TOOLS: readonly McpTool[] = [
  tool({
    name: 'gspc_free_door',
    title: 'Free door: preview and challenge',
    description: describe('free_door', ''),
    input: PRODUCT_QUERIES.free_door,
    run: async (args, ctx) => offer('free_door', args, ctx),
  }),
  tool({
    name: 'gspc_request_attestation',
    title: 'Request attestation: preview and challenge',
    description: describe('request_attestation', '?subject=&axis='),
    input: PRODUCT_QUERIES.request_attestation,
    run: async (args, ctx) => offer('request_attestation', args, ctx),
  }),
  tool({
    name: 'gspc_evidence_bundle',
    title: 'Evidence bundle: preview and challenge',
    // An invoice request records an invoice in the ledger: not a read, so not offered here.
    description: describe('evidence_bundle', '?obligation=&bundle=1&subject='),
    input: z.object(bundleShape).strict(),
    run: async (args, ctx) => offer('evidence_bundle', args, ctx),
  }),
  tool({
    name: 'gspc_eunomia_data',
    title: 'Eunomia data feed: preview and challenge',
    description: describe('eunomia_data', '?feed=1'),
    input: PRODUCT_QUERIES.eunomia_data,
    run: async (args, ctx) => offer('eunomia_data', args, ctx),
  }),
];
