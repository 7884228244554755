/**
 * The metered products (specification, "Metered products"): a request without payment gets the
 * 402 challenge (JSON body and `PAYMENT-REQUIRED`), an evidence-bundle request without
 * `bundle=1` gets its free preview (200), a bad query is a 400 before any challenge, and an
 * unreadable payment header a 400. A payment goes through `payForArtefact` (verify, reserve,
 * produce, settle, record); on a rail that is not configured (no payee or no facilitator) it is a
 * 503 `rail_unconfigured` and nothing is charged. Invoices are in invoice-routes.ts.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { PaymentRequirements } from '@x402/core/types';
import { GspcError } from '../core/errors.js';
import { PRODUCTS, type Product } from '../core/pricing/products.js';
import { attestationPreview, matchingCards, previewReleaseOf, type PreviewRelease } from '../payments/attestation-preview.js';
import { bundlePreview, relevantCards } from '../payments/bundle-preview.js';
import type { Obligation } from '../core/board/model.js';
import { buildChallenge, paymentRequiredHeader } from '../payments/challenge.js';
import { eunomiaPreview, freeDoorPreview, freeDoorSvc, outputExample } from '../payments/feed-preview.js';
import { readPaymentHeader, type ReadPayment } from '../payments/payment-header.js';
import { httpFacilitator, type Facilitator } from '../payments/facilitator.js';
import { payForArtefact, type PaidDeps, type SettleResponseBody } from '../payments/paid-request.js';
import { produceArtefact } from '../payments/artefacts.js';
import { issueInvoice, registerInvoiceRoutes } from './invoice-routes.js';
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
  /** The facilitator (default: HTTP to `rail.facilitatorUrl`). */
  facilitator?: Facilitator;
  /** A random invoice reference (default: 128 random bits). */
  invoiceRef?: () => string;
}

const PAYMENT_HEADERS = { ...BASE_HEADERS, 'access-control-expose-headers': 'PAYMENT-REQUIRED, PAYMENT-RESPONSE, X-PAYMENT-RESPONSE' };
const NOT_PAID = 'no payment header: send the payment in PAYMENT-SIGNATURE (x402 v2) or X-PAYMENT (v1, the name this service\'s specification uses)';

// What the previews read, derived once per prepared release.
interface ReleaseView { preview: PreviewRelease & { merkle_root: string }; lid: string; board: Record<string, unknown> }
const perRelease = new WeakMap<PreparedRelease, ReleaseView>();
export function releaseView(p: PreparedRelease): ReleaseView {
  let v = perRelease.get(p);
  if (!v) {
    const board = JSON.parse(p.boards.get('')!.body.toString('utf8')) as { totals: { lid: string } };
    v = { preview: { ...previewReleaseOf(p.release), merkle_root: p.release.evidence.root.merkle_root }, lid: board.totals.lid, board };
    perRelease.set(p, v);
  }
  return v;
}

export function registerProductRoutes(app: FastifyInstance, state: ServedState, opts: ProductRouteOptions): void {
  const { rail } = opts;
  const live = rail.payTo !== null && rail.facilitatorUrl !== null;
  if (live && !opts.ledger) throw new GspcError('config_invalid', 'a configured payment rail needs a ledger to record settlements');
  const facilitator = live ? (opts.facilitator ?? httpFacilitator(rail.facilitatorUrl!, opts.facilitatorTimeoutMs ?? 15_000)) : undefined;
  const paid: Omit<PaidDeps, 'boardKey'> | undefined = facilitator && opts.ledger ? { ledger: opts.ledger, facilitator, rail, now: opts.now, inFlightWaitMs: opts.facilitatorTimeoutMs ?? 15_000 } : undefined;
  const cache = new ChallengeCache();
  for (const product of PRODUCTS) app.get(product.path, (req, reply) => answer(product, req.url, req.headers, reply, state, opts, paid, cache));
  registerInvoiceRoutes(app, opts);
}

async function answer(product: Product, url: string, headers: Record<string, string | string[] | undefined>, reply: FastifyReply, state: ServedState, opts: ProductRouteOptions, paid: Omit<PaidDeps, 'boardKey'> | undefined, cache: ChallengeCache) {
  const current = state.current();
  const obligations = current.release.corpus.obligations;
  const query = parseProductQuery(product.key, readQuery(url, queryParameters(product.key)), obligations.map((o) => o.id)) as Record<string, string | undefined>;
  const view = releaseView(current);
  const base = opts.baseUrl;
  if (product.key === 'evidence_bundle' && query.bundle === undefined && query.invoice === undefined) {
    const preview = bundlePreview(view.preview, obligations.find((o) => o.id === query.obligation)!, query.subject, base);
    return reply.code(200).headers({ ...BASE_HEADERS, 'cache-control': 'public, max-age=300' }).send({ schema: 'svc.evidence-bundle-preview/0.1', kind: 'preview', ...preview });
  }
  const payment = readPaymentHeader(headers);
  const signing = state.signingLive();
  const produce = (commissionedFor: { resource: string; payer?: string; invoice_ref?: string; commissioned_by?: string }) => produceArtefact(product.key, query, {
    release: view.preview, obligations, boardJson: view.board, boardKey: signing.boardKey, did: signing.did, baseUrl: base,
    asOf: opts.now().toISOString(), commissionedFor,
    regulation: current.release.corpus.status.regulation ?? null,
    proofOf: (sha: string) => current.proofObject(sha),
  });
  if (query.invoice !== undefined) {
    if (!opts.ledger) throw new GspcError('rail_unconfigured', 'an invoice was requested, but this service has no ledger to record it; nothing was issued');
    return issueInvoice(reply, { product, url, query, baseUrl: base, ledger: opts.ledger, rail: opts.rail, now: opts.now, ref: opts.invoiceRef, produce: (ref) => produce({ resource: url, invoice_ref: ref, commissioned_by: query.commissioned_by! }) });
  }
  const challengeFor = (error?: string) => serialised(challenge(product, url, query, view, state, opts, error));
  // The plain challenge is identical within a second for one release and signer state: cached.
  const offered = () => cache.get(current, url, opts.now(), () => challengeFor());
  if (payment === undefined) return sendChallenge(reply, offered());
  if (!paid) {
    throw new GspcError('rail_unconfigured', `a payment was sent, but this service's payment rail is not configured (${[opts.rail.payTo === null && 'GSPC_PAY_TO', opts.rail.facilitatorUrl === null && 'GSPC_FACILITATOR_URL'].filter(Boolean).join(' and ')} unset); nothing was charged`);
  }
  const empty = nothingToDeliver(product, query, view, obligations);
  if (empty !== undefined) return sendChallenge(reply, challengeFor(empty));
  const outcome = await payForArtefact({
    product_id: product.product_id, sku_id: product.sku_id, resourcePath: url, resourceUrl: `${base}${url}`,
    requirements: requirementsOf(offered().challenge), payment, produce: () => produce({ resource: url, payer: payment.payer }),
  }, { ...paid, boardKey: signing.boardKey });
  switch (outcome.kind) {
    case 'delivered':
      return reply.code(200).headers({ ...PAYMENT_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'private, no-store', ...paymentResponseHeaders(payment, outcome.settle), 'x-gspc-replay': outcome.replay ? '1' : '0' }).send(outcome.body);
    case 'rejected':
      return sendChallenge(reply, challengeFor(outcome.reason));
    case 'settle_failed':
      return reply.code(402).headers({ ...PAYMENT_HEADERS, 'cache-control': 'no-store', ...paymentResponseHeaders(payment, outcome.settle) }).send({ error: 'settlement failed; nothing was delivered and nothing was charged', code: 'settlement_failed', reason: outcome.settle.errorReason, message: outcome.settle.errorMessage ?? null });
  }
}

/**
 * A commission or bundle with no signed card to reserve would charge for an empty artefact: such
 * a payment is refused before the facilitator is asked (402 with the reason), nothing charged.
 */
function nothingToDeliver(product: Product, query: Record<string, string | undefined>, view: ReleaseView, obligations: readonly Obligation[]): string | undefined {
  if (product.key === 'request_attestation' && matchingCards(view.preview, query.subject!, query.axis).length === 0) {
    return `no signed card of this release matches subject '${query.subject}'${query.axis ? ` on axis '${query.axis}'` : ''}: there is nothing to reserve, so the payment was not taken`;
  }
  if (product.key === 'evidence_bundle' && relevantCards(view.preview, obligations.find((o) => o.id === query.obligation)!, query.subject).length === 0) {
    return `no signed card of this release is relevant to obligation '${query.obligation}'${query.subject ? ` for subject '${query.subject}'` : ''}: the bundle would be empty, so the payment was not taken`;
  }
  return undefined;
}

function challenge(product: Product, url: string, query: Record<string, string | undefined>, view: ReleaseView, state: ServedState, opts: ProductRouteOptions, error?: string) {
  const base = opts.baseUrl;
  const obligations = state.current().release.corpus.obligations;
  let preview: Record<string, unknown>;
  switch (product.key) {
    case 'free_door': preview = freeDoorPreview(base); break;
    case 'request_attestation': preview = attestationPreview(view.preview, query.subject!, query.axis, base); break;
    case 'evidence_bundle': preview = bundlePreview(view.preview, obligations.find((o) => o.id === query.obligation)!, query.subject, base); break;
    case 'eunomia_data': preview = eunomiaPreview(view.preview, base, state.current().release.corpus.status.regulation ?? null); break;
  }
  const c = buildChallenge({
    product, resourceUrl: `${base}${url}`, baseUrl: base, rail: opts.rail, boardKey: state.signingLive().boardKey, did: state.signingLive().did, lid: view.lid,
    query: Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)),
    preview, outputExample: outputExample(product.key, base), notPaidReason: error ? `the payment was not accepted: ${error}` : NOT_PAID, now: opts.now(),
    ...(error !== undefined && { error }),
  });
  if (product.key === 'free_door') Object.assign(c.svc as object, freeDoorSvc(base));
  return c;
}

interface SerialisedChallenge { challenge: Record<string, unknown>; json: string; header: string }

/** The challenge as body and `PAYMENT-REQUIRED` value, stringified once for both. */
function serialised(challenge: Record<string, unknown>): SerialisedChallenge {
  const json = JSON.stringify(challenge);
  return { challenge, json, header: paymentRequiredHeader(json) };
}

function sendChallenge(reply: FastifyReply, c: SerialisedChallenge) {
  return reply.code(402).headers({ ...PAYMENT_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'payment-required': c.header }).send(c.json);
}

/**
 * Challenges by URL for the current second. Within one second a challenge's bytes cannot change
 * for one prepared release: the offer's `validUntil` and the price are whole seconds, Ed25519
 * signatures are deterministic, and a new release or key state is a new PreparedRelease. Building
 * one costs ~0.6 ms (docs/performance.md §5). The map is dropped each second and capped, so
 * many distinct URLs cannot grow it.
 */
class ChallengeCache {
  private release: PreparedRelease | undefined;
  private second = -1;
  private byUrl = new Map<string, SerialisedChallenge>();

  get(release: PreparedRelease, url: string, now: Date, build: () => SerialisedChallenge): SerialisedChallenge {
    const second = Math.floor(now.getTime() / 1000);
    if (release !== this.release || second !== this.second || this.byUrl.size >= 1000) {
      this.release = release;
      this.second = second;
      this.byUrl = new Map();
    }
    let c = this.byUrl.get(url);
    if (!c) {
      c = build();
      this.byUrl.set(url, c);
    }
    return c;
  }
}

/** The x402 v2 requirements of the challenge's one accepts entry (what the facilitator is given). */
function requirementsOf(c: Record<string, unknown>): PaymentRequirements {
  const a = (c.accepts as Record<string, unknown>[])[0]!;
  return { scheme: a.scheme, network: a.network, amount: a.amount, asset: a.asset, payTo: a.payTo, maxTimeoutSeconds: a.maxTimeoutSeconds, extra: a.extra } as PaymentRequirements;
}

/** `PAYMENT-RESPONSE` (v2) and, for a payment sent as `X-PAYMENT`, also `X-PAYMENT-RESPONSE` (v1's name). */
function paymentResponseHeaders(payment: ReadPayment, settle: SettleResponseBody): Record<string, string> {
  const value = Buffer.from(JSON.stringify(settle), 'utf8').toString('base64');
  return payment.header === 'x-payment' ? { 'payment-response': value, 'x-payment-response': value } : { 'payment-response': value };
}
