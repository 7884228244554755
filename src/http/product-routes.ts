/**
 * The metered products (specification, "Metered products"): a request without payment gets the
 * 402 challenge (JSON body and `PAYMENT-REQUIRED`), an evidence-bundle request without
 * `bundle=1` gets its free preview (200), a bad query is a 400 before any challenge, and an
 * unreadable payment header a 400. In this build the rail is not configured (docs/decisions.md
 * P8): a payment or an invoice request is answered 503 `rail_unconfigured` and nothing is charged.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GspcError } from '../core/errors.js';
import { PRODUCTS, type Product } from '../core/pricing/products.js';
import { attestationPreview, previewReleaseOf, type PreviewRelease } from '../payments/attestation-preview.js';
import { bundlePreview } from '../payments/bundle-preview.js';
import { buildChallenge, paymentRequiredHeader } from '../payments/challenge.js';
import { eunomiaPreview, freeDoorPreview, freeDoorSvc, outputExample } from '../payments/feed-preview.js';
import { readPaymentHeader } from '../payments/payment-header.js';
import { parseProductQuery, queryParameters } from '../payments/product-queries.js';
import type { RailConfig } from '../payments/rail-config.js';
import type { Ledger } from '../store/ledger.js';
import { BASE_HEADERS } from './errors.js';
import type { PreparedRelease } from './prepared.js';
import { readQuery } from './query.js';
import type { ServedState } from './served-state.js';

export interface ProductRouteOptions {
  baseUrl: string;
  rail: RailConfig;
  now: () => Date;
  /** Settlements, reservations and invoices; required once the rail is configured. */
  ledger?: Ledger;
  /** How long a facilitator call may take before the outcome is recorded as unknown. */
  facilitatorTimeoutMs?: number;
}

const PAYMENT_HEADERS = { ...BASE_HEADERS, 'access-control-expose-headers': 'PAYMENT-REQUIRED, PAYMENT-RESPONSE, X-PAYMENT-RESPONSE' };
const NOT_PAID = 'no payment header: send the payment in PAYMENT-SIGNATURE (x402 v2) or X-PAYMENT (v1, the name this service\'s specification uses)';

// What the previews read, derived once per prepared release.
const perRelease = new WeakMap<PreparedRelease, { preview: PreviewRelease & { merkle_root: string }; lid: string }>();
function releaseView(p: PreparedRelease) {
  let v = perRelease.get(p);
  if (!v) {
    const board = JSON.parse(p.boards.get('')!.body.toString('utf8')) as { totals: { lid: string } };
    v = { preview: { ...previewReleaseOf(p.release), merkle_root: p.release.evidence.root.merkle_root }, lid: board.totals.lid };
    perRelease.set(p, v);
  }
  return v;
}

export function registerProductRoutes(app: FastifyInstance, state: ServedState, opts: ProductRouteOptions): void {
  if (opts.rail.payTo !== null || opts.rail.facilitatorUrl !== null) {
    throw new GspcError('config_invalid', 'settling payments is not wired into this build yet; leave GSPC_PAY_TO and GSPC_FACILITATOR_URL unset');
  }
  for (const product of PRODUCTS) app.get(product.path, (req, reply) => answer(product, req.url, req.headers, reply, state, opts));
}

function answer(product: Product, url: string, headers: Record<string, string | string[] | undefined>, reply: FastifyReply, state: ServedState, opts: ProductRouteOptions) {
  const current = state.current();
  const obligations = current.release.corpus.obligations;
  const query = parseProductQuery(product.key, readQuery(url, queryParameters(product.key)), obligations.map((o) => o.id)) as Record<string, string | undefined>;
  const { preview: release, lid } = releaseView(current);
  const base = opts.baseUrl;
  let preview: Record<string, unknown>;
  switch (product.key) {
    case 'free_door': preview = freeDoorPreview(base); break;
    case 'request_attestation': preview = attestationPreview(release, query.subject!, query.axis, base); break;
    case 'evidence_bundle': preview = bundlePreview(release, obligations.find((o) => o.id === query.obligation)!, query.subject, base); break;
    case 'eunomia_data': preview = eunomiaPreview(release, base); break;
  }
  if (product.key === 'evidence_bundle' && query.bundle === undefined && query.invoice === undefined) {
    return reply.code(200).headers({ ...BASE_HEADERS, 'cache-control': 'public, max-age=300' }).send({ schema: 'svc.evidence-bundle-preview/0.1', kind: 'preview', ...preview });
  }
  const payment = readPaymentHeader(headers);
  if (payment !== undefined || query.invoice !== undefined) {
    throw new GspcError('rail_unconfigured', `${payment ? 'a payment was sent' : 'an invoice was requested'}, but this service has no payment rail configured (GSPC_PAY_TO and GSPC_FACILITATOR_URL); nothing was charged`);
  }
  const challenge = buildChallenge({
    product, resourceUrl: `${base}${url}`, baseUrl: base, rail: opts.rail, boardKey: state.signingLive().boardKey, did: state.signingLive().did, lid,
    query: Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)),
    preview, outputExample: outputExample(product.key, base), notPaidReason: NOT_PAID, now: opts.now(),
  });
  if (product.key === 'free_door') Object.assign(challenge.svc as object, freeDoorSvc(base));
  return reply.code(402).headers({ ...PAYMENT_HEADERS, 'cache-control': 'no-store', 'payment-required': paymentRequiredHeader(challenge) }).send(challenge);
}
