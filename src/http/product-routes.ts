/**
 * The metered products (specification, "Metered products"): a request without payment gets the
 * 402 challenge (JSON body and `PAYMENT-REQUIRED`), an evidence-bundle request without
 * `bundle=1` gets its free preview (200), a bad query is a 400 before any challenge, and an
 * unreadable payment header a 400. A payment goes through `payForArtefact` (verify, reserve,
 * produce, settle, record); on a rail that is not configured (no payee or no facilitator) it is a
 * 503 `rail_unconfigured` and nothing is charged. What is answered before payment is built in
 * src/serve/products.ts (shared with the MCP metered tools and the quote manifest); invoices are
 * in invoice-routes.ts.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { PaymentRequirements } from '@x402/core/types';
import { GspcError } from '../core/errors.js';
import { productRouteSchema } from '../web/openapi-schemas.js';
import { PRODUCTS, type Product } from '../core/pricing/products.js';
import { readPaymentHeader, type ReadPayment } from '../payments/payment-header.js';
import { payForArtefact, type PaidDeps, type PaidOutcome, type SettleResponseBody } from '../payments/paid-request.js';
import { deliverSettled } from '../payments/paid-replay.js';
import { readSignIn, UsedSignIns } from '../payments/payer-sign-in.js';
import { produceArtefact } from '../payments/artefacts.js';
import type { ProductsContext, ServiceContext } from '../serve/context.js';
import { BASE_HEADERS } from '../serve/headers.js';
import {
  bundlePreviewBody,
  challengeFor,
  isBundlePreview,
  nothingToDeliver,
  offeredChallenge,
  productQuery,
  releaseView,
  withSignInNonce,
  type SerialisedChallenge,
} from '../serve/products.js';
import { issueInvoice, registerInvoiceRoutes } from './invoice-routes.js';

const PAYMENT_HEADERS = {
  ...BASE_HEADERS,
  'access-control-expose-headers': 'PAYMENT-REQUIRED, PAYMENT-RESPONSE, X-PAYMENT-RESPONSE',
};

export function registerProductRoutes(app: FastifyInstance, ctx: ServiceContext, products: ProductsContext): void {
  // A configured rail without a ledger is refused when the service is composed (src/app.ts).
  const { rail } = products;
  const paid: Omit<PaidDeps, 'boardKey'> | undefined =
    products.facilitator && products.ledger
      ? {
          ledger: products.ledger,
          facilitator: products.facilitator,
          rail,
          now: ctx.now,
          inFlightWaitMs: products.facilitatorTimeoutMs,
        }
      : undefined;
  // Sign-in proofs used in this process (decision P45).
  const used = new UsedSignIns();
  for (const product of PRODUCTS)
    app.get(product.path, { schema: productRouteSchema(product.key) }, (req, reply) =>
      answer(product, req.url, req.headers, req.ip, reply, ctx, products, paid, used),
    );
  registerInvoiceRoutes(app, { ledger: products.ledger, baseUrl: ctx.baseUrl });
}

async function answer(
  product: Product,
  url: string,
  headers: Record<string, string | string[] | undefined>,
  client: string,
  reply: FastifyReply,
  ctx: ServiceContext,
  products: ProductsContext,
  paid: Omit<PaidDeps, 'boardKey'> | undefined,
  used: UsedSignIns,
) {
  const { rail } = products;
  const current = ctx.state.current();
  const obligations = current.release.corpus.obligations;
  const query = productQuery(product, url, current);
  const view = releaseView(current);
  const base = ctx.baseUrl;
  if (isBundlePreview(product, query)) {
    return reply
      .code(200)
      .headers({ ...BASE_HEADERS, 'cache-control': 'public, max-age=300' })
      .send(bundlePreviewBody(ctx, query));
  }
  const payment = readPaymentHeader(headers);
  const signing = ctx.state.signingLive();
  const produce = (commissionedFor: {
    resource: string;
    payer?: string;
    invoice_ref?: string;
    commissioned_by?: string;
  }) =>
    produceArtefact(product.key, query, {
      release: view.preview,
      obligations,
      boardJson: view.board,
      boardKey: signing.boardKey,
      did: signing.did,
      baseUrl: base,
      asOf: ctx.now().toISOString(),
      commissionedFor,
      regulation: current.release.corpus.status.regulation ?? null,
      proofOf: (sha: string) => current.proofObject(sha),
    });
  if (query.invoice !== undefined) {
    if (!products.ledger)
      throw new GspcError(
        'rail_unconfigured',
        'an invoice was requested, but this service has no ledger to record it; nothing was issued',
      );
    return issueInvoice(reply, {
      product,
      url,
      client,
      release: current.release.id,
      query,
      baseUrl: base,
      ledger: products.ledger,
      rail,
      now: ctx.now,
      ref: products.invoiceRef,
      produce: (ref) => produce({ resource: url, invoice_ref: ref, commissioned_by: query.commissioned_by! }),
    });
  }
  const offered = () => offeredChallenge(ctx, products, product, url, query);
  // The paying wallet signed in (decision P45): checked before anything is charged; a proof that
  // fails is a 402 saying why, so nothing is settled on a request whose proof was refused.
  const signIn = await readSignIn(headers, {
    origin: base,
    resourcePath: url,
    network: rail.network,
    used,
    now: ctx.now(),
  });
  if (signIn.kind === 'refused')
    return sendChallenge(reply, challengeFor(ctx, products, product, url, query, signIn.reason));
  const signedInAs = signIn.kind === 'signed_in' ? signIn.address : undefined;
  if (payment === undefined) {
    if (signedInAs === undefined || !paid) return sendChallenge(reply, offered());
    // No payment sent: what this wallet bought on this URL, if anything, else the challenge.
    const record = await paid.ledger.findSettledFor({
      payer: signedInAs,
      product_id: product.product_id,
      resource: url,
    });
    if (record === undefined)
      return sendChallenge(
        reply,
        challengeFor(
          ctx,
          products,
          product,
          url,
          query,
          `${signedInAs} holds no settled payment for this resource: pay for it`,
        ),
      );
    const outcome = await deliverSettled(
      record,
      { resourceUrl: `${base}${url}`, signedInAs, produce: () => produce({ resource: url, payer: signedInAs }) },
      null,
      { ...paid, boardKey: signing.boardKey },
    );
    ctx.events?.settlement('replayed');
    return sendDelivered(reply, undefined, outcome);
  }
  if (!paid) {
    throw new GspcError(
      'rail_unconfigured',
      `a payment was sent, but this service's payment rail is not configured (${[rail.payTo === null && 'GSPC_PAY_TO', rail.facilitatorUrl === null && 'GSPC_FACILITATOR_URL'].filter(Boolean).join(' and ')} unset); nothing was charged`,
    );
  }
  const empty = nothingToDeliver(product, query, view, obligations);
  if (empty !== undefined) return sendChallenge(reply, challengeFor(ctx, products, product, url, query, empty));
  const outcome = await payForArtefact(
    {
      product_id: product.product_id,
      sku_id: product.sku_id,
      resourcePath: url,
      resourceUrl: `${base}${url}`,
      requirements: requirementsOf(offered().challenge),
      payment,
      ...(signedInAs !== undefined && { signedInAs }),
      produce: () => produce({ resource: url, payer: payment.payer }),
    },
    { ...paid, boardKey: signing.boardKey },
  );
  ctx.events?.settlement(
    outcome.kind === 'delivered'
      ? outcome.replay
        ? 'replayed'
        : 'settled'
      : outcome.kind === 'rejected'
        ? 'refused'
        : 'settle_failed',
  );
  switch (outcome.kind) {
    case 'delivered':
      return sendDelivered(reply, payment, outcome);
    case 'rejected':
      return sendChallenge(reply, challengeFor(ctx, products, product, url, query, outcome.reason));
    case 'settle_failed':
      return reply
        .code(402)
        .headers({
          ...PAYMENT_HEADERS,
          'cache-control': 'no-store',
          ...paymentResponseHeaders(payment, outcome.settle),
        })
        .send({
          // The facilitator's word, not a proof: should a transfer land anyway, the same payment
          // sent again is found used and awaits reconcile (payment_pending), never paid twice.
          error:
            'settlement failed: the facilitator answered that it did not settle and named no transaction (its word, not a proof that nothing moved); nothing was delivered. Send the same payment again, not a new one: it is never charged twice, and if its transfer landed after all it is recorded as pending and delivered once the chain shows it',
          code: 'settlement_failed',
          reason: outcome.settle.errorReason,
          message: outcome.settle.errorMessage ?? null,
        });
  }
}

function sendDelivered(
  reply: FastifyReply,
  payment: ReadPayment | undefined,
  outcome: Extract<PaidOutcome, { kind: 'delivered' }>,
) {
  if (outcome.record === null)
    reply.log.error(
      { payer: outcome.settle.payer, transaction: outcome.settle.transaction },
      'settled on chain, but the ledger could not record it (left RESERVED): the artefact is delivered; run gspc reconcile once the ledger is writable',
    );
  return reply
    .code(200)
    .headers({
      ...PAYMENT_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'private, no-store',
      ...paymentResponseHeaders(payment, outcome.settle),
      'x-gspc-replay': outcome.replay ? '1' : '0',
    })
    .send(outcome.body);
}

/**
 * A sign-in nonce for each 402 (decision P45): a prefix drawn once per process and a counter, 32
 * hex digits. It must differ between 402s (a proof's address and nonce are used once) and need not
 * be secret (the proof's signature is what counts); drawing 16 random bytes per 402 cost 3 µs.
 */
const NONCE_PREFIX = randomBytes(8).toString('hex');
let nonceCounter = 0n;
function nextSignInNonce(): string {
  nonceCounter++;
  return NONCE_PREFIX + nonceCounter.toString(16).padStart(16, '0');
}

function sendChallenge(reply: FastifyReply, cached: SerialisedChallenge) {
  const c = withSignInNonce(cached, nextSignInNonce());
  return reply
    .code(402)
    .headers({
      ...PAYMENT_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'payment-required': c.header,
    })
    .send(c.json);
}

/** The x402 v2 requirements of the challenge's one accepts entry (what the facilitator is given). */
function requirementsOf(c: Record<string, unknown>): PaymentRequirements {
  const a = (c.accepts as Record<string, unknown>[])[0]!;
  return {
    scheme: a.scheme,
    network: a.network,
    amount: a.amount,
    asset: a.asset,
    payTo: a.payTo,
    maxTimeoutSeconds: a.maxTimeoutSeconds,
    extra: a.extra,
  } as PaymentRequirements;
}

/** `PAYMENT-RESPONSE` (v2) and, for a payment sent as `X-PAYMENT`, also `X-PAYMENT-RESPONSE` (v1's name). */
function paymentResponseHeaders(payment: ReadPayment | undefined, settle: SettleResponseBody): Record<string, string> {
  const value = Buffer.from(JSON.stringify(settle), 'utf8').toString('base64');
  return payment?.header === 'x-payment'
    ? { 'payment-response': value, 'x-payment-response': value }
    : { 'payment-response': value };
}
