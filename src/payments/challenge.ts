/**
 * The 402 challenge of a metered product (specification, "Payment challenge body"): one x402 v2
 * `PaymentRequired` carrying every field of the specification's tables, sent both as the JSON
 * body and base64 in `PAYMENT-REQUIRED` (official v2 clients read only the header). `amount` and
 * `maxAmountRequired` are equal; `extra.name` is the asset's EIP-712 domain name ("USD Coin" for
 * USDC on Base). The offer is signed with the board key when it is healthy; otherwise the
 * challenge says why it is not. Time, keys and previews are arguments.
 */
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import { NEVER, type Product } from '../core/pricing/products.js';
import { priceAt } from '../core/pricing/price.js';
import { signOffer } from '../core/pricing/offer-receipt.js';
import type { SignerState } from '../core/evidence/signer.js';
import type { RailConfig } from './rail-config.js';
import { queryJsonSchema } from './product-queries.js';
import { signInDeclaration } from './payer-sign-in.js';

export const OFFER_RECEIPT_SPEC =
  'https://github.com/coinbase/x402/blob/main/specs/extensions/extension-offer-and-receipt.md';

export interface ChallengeInputs {
  product: Product;
  /** Absolute URL of the request (the resource paid for). */
  resourceUrl: string;
  baseUrl: string;
  rail: RailConfig;
  boardKey: SignerState;
  did: string;
  /** The board's headline (`lid`), quoted verbatim. */
  lid: string;
  /** The request's query parameters (bazaar `info.input.queryParams`). */
  query: Readonly<Record<string, string>>;
  /** The product's free preview from the live release. */
  preview: Record<string, unknown>;
  /** An example of the paid response's shape (bazaar output). */
  outputExample: Record<string, unknown>;
  /** Which header the request lacked or why it was not accepted. */
  notPaidReason: string;
  error?: string;
  now: Date;
}

export function buildChallenge(c: ChallengeInputs): Record<string, unknown> & { x402Version: 2 } {
  const pricing = priceAt(c.product, c.now, c.rail.promo);
  const amount = pricing.offered_amount_atomic;
  // An unconfigured rail still shows the product (the zero address, `pay_to_configured: false`);
  // a payment to it is refused with 503 before any facilitator call, and no offer is signed.
  const payTo = c.rail.payTo ?? '0x0000000000000000000000000000000000000000';
  const offerable = c.rail.payTo !== null;
  const resource = {
    url: c.resourceUrl,
    description: c.product.description,
    mimeType: 'application/json',
    serviceName: 'gspc-board',
    tags: ['evidence', 'measurement'],
  };
  const accepts = [
    {
      scheme: 'exact' as const,
      network: c.rail.network,
      amount,
      maxAmountRequired: amount,
      asset: c.rail.asset,
      payTo,
      maxTimeoutSeconds: c.rail.maxTimeoutSeconds,
      extra: { name: c.rail.assetName, version: c.rail.assetVersion, decimals: c.rail.decimals, symbol: c.rail.symbol },
      svc_pricing: pricing,
      resource: resource.url,
      description: resource.description,
      mimeType: resource.mimeType,
    },
  ];
  const key = c.boardKey;
  const kid = key.healthy ? key.signer.kid : key.kid;
  const nowSeconds = Math.floor(c.now.getTime() / 1000);
  const offers =
    key.healthy && offerable
      ? [
          signOffer(
            {
              resourceUrl: c.resourceUrl,
              scheme: 'exact',
              network: c.rail.network,
              asset: c.rail.asset,
              payTo,
              amount,
            },
            0,
            nowSeconds,
            c.rail.maxTimeoutSeconds,
            { kid, sign: (m) => key.signer.sign(m) },
          ),
        ]
      : [];
  const catalog = `${c.baseUrl}/api/x402`;
  return {
    x402Version: 2,
    error: c.error ?? 'payment required',
    resource,
    accepts,
    extensions: {
      // Idempotency (decision P42): a client that sends an id may have a lost response again.
      [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false),
      // The paying wallet signs in to have what it bought again (decision P45).
      'sign-in-with-x': signInDeclaration({
        origin: c.baseUrl,
        resourceUrl: c.resourceUrl,
        network: c.rail.network,
        now: c.now,
      }),
      bazaar: {
        info: {
          input: { type: 'http', method: 'GET', queryParams: { ...c.query } },
          output: { type: 'json', example: c.outputExample },
        },
        schema: bazaarSchema(c.product),
      },
      'offer-receipt': {
        info: { offers },
        schema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: {
            offers: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  format: { const: 'jws' },
                  acceptIndex: { type: 'integer' },
                  signature: { type: 'string' },
                },
                required: ['format', 'signature'],
              },
            },
          },
          required: ['offers'],
        },
      },
    },
    catalog,
    svc: {
      schema: c.product.schema,
      per: c.product.per,
      lid: c.lid,
      never: [...NEVER],
      deliverable: c.product.deliverable,
      signer: {
        did: c.did,
        key_present: key.healthy,
        receipt_will_be: key.healthy ? 'SIGNED' : 'UNSIGNED',
        unsigned_reason: key.healthy ? null : key.reason,
        checked_how:
          'the board key is health-checked at start and on every reload (file present, owner-only, matches the published key)',
      },
      preview: c.preview,
      rail: {
        mode: 'live',
        pay_to_configured: c.rail.payTo !== null,
        facilitator_configured: c.rail.facilitatorUrl !== null,
        note:
          c.rail.payTo !== null && c.rail.facilitatorUrl !== null
            ? 'payments are verified and settled by the configured facilitator'
            : 'the rail is not configured: a payment attempt is answered 503 and nothing is charged',
      },
      not_paid_reason: c.notPaidReason,
      catalog,
      explainer: `${c.baseUrl}/pricing`,
      free_preview: freePreviewUrl(c),
      offer_receipt: {
        extension: 'offer-receipt',
        spec: OFFER_RECEIPT_SPEC,
        spec_commit: 'v0.6',
        format: 'jws',
        alg: 'EdDSA',
        kid,
        signed: offers.length > 0,
        reason: !key.healthy
          ? key.reason
          : offerable
            ? null
            : 'the rail has no payee (GSPC_PAY_TO), so no offer is made',
        verify:
          'base64url-decode the JWS payload; fetch the DID document; take publicKeyJwk.x of the verification method whose id equals the header kid; verify Ed25519 over header.payload (or POST the JWS to /api/receipts/verify)',
      },
    },
  };
}

/** The bazaar schema: input (GET/HEAD/DELETE with the product's query parameters) and output. */
function bazaarSchema(product: Product): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      input: {
        type: 'object',
        properties: {
          type: { const: 'http' },
          method: { enum: ['GET', 'HEAD', 'DELETE'] },
          queryParams: queryJsonSchema(product.key),
        },
        required: ['type', 'method'],
        additionalProperties: false,
      },
      output: {
        type: 'object',
        properties: { type: { const: 'json' }, example: { type: 'object' } },
        required: ['type'],
      },
    },
    required: ['input'],
  };
}

function freePreviewUrl(c: ChallengeInputs): string {
  // The evidence bundle's preview is the same URL without bundle=1; others preview in the challenge itself.
  if (c.product.key !== 'evidence_bundle') return `${c.baseUrl}/api/gspc`;
  const u = new URL(c.resourceUrl);
  u.searchParams.delete('bundle');
  return u.toString();
}

/** `PAYMENT-REQUIRED`: standard base64 of the JSON (what @x402/core's header codec reads). */
export function paymentRequiredHeader(challenge: Record<string, unknown> | string): string {
  return Buffer.from(typeof challenge === 'string' ? challenge : JSON.stringify(challenge), 'utf8').toString('base64');
}
