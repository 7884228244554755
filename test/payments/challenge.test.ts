/** The 402 challenge: every field of the specification, readable by the official x402 client, offers verified by @x402/extensions. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { PaymentRequiredV2Schema } from '@x402/core/schemas';
import { verifyOfferSignatureJWS } from '@x402/extensions/offer-receipt';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import { publicJwk } from '../../src/core/crypto/jwk.js';
import { productByKey } from '../../src/core/pricing/products.js';
import { buildChallenge, paymentRequiredHeader, type ChallengeInputs } from '../../src/payments/challenge.js';
import { readRailConfig } from '../../src/config.js';

const DID = 'did:web:localhost%3A8080';
const pair = keyPairFromSeed(Buffer.alloc(32, 5));
const boardKey = {
  healthy: true as const,
  signer: {
    kid: `${DID}#board-attestation-1`,
    publicKey: pair.publicKey,
    sign: (m: Uint8Array) => sign(pair.privateKey, m),
  },
};
const rail = readRailConfig({
  GSPC_PAY_TO: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  GSPC_FACILITATOR_URL: 'http://127.0.0.1:9',
});

function inputs(over: Partial<ChallengeInputs> = {}): ChallengeInputs {
  return {
    product: productByKey('request_attestation'),
    resourceUrl: 'http://localhost:8080/api/request-attestation?subject=atlas-70b',
    baseUrl: 'http://localhost:8080',
    rail,
    boardKey,
    did: DID,
    lid: '22 axes · 15 measured',
    query: { subject: 'atlas-70b' },
    preview: { subject: 'atlas-70b' },
    outputExample: { schema: 'card-v0' },
    notPaidReason: 'no PAYMENT-SIGNATURE (x402 v2) or X-PAYMENT header',
    now: new Date('2026-11-21T00:00:00Z'),
    ...over,
  };
}

describe('402 challenge', () => {
  const challenge = buildChallenge(inputs());

  it('is an x402 v2 PaymentRequired that the official client reads from the PAYMENT-REQUIRED header', () => {
    assert.ok(PaymentRequiredV2Schema.safeParse(challenge).success);
    const header = paymentRequiredHeader(challenge);
    assert.deepEqual(decodePaymentRequiredHeader(header), challenge);
    const http = new x402HTTPClient(new x402Client());
    const read = http.getPaymentRequiredResponse((n) => (n.toLowerCase() === 'payment-required' ? header : null), {});
    assert.equal(read.accepts[0]!.amount, '20000');
  });

  it('carries every field of the specification tables', () => {
    const a = (challenge.accepts as Record<string, unknown>[])[0]!;
    assert.deepEqual(
      Object.keys(a).sort(),
      [
        'amount',
        'asset',
        'description',
        'extra',
        'maxAmountRequired',
        'maxTimeoutSeconds',
        'mimeType',
        'network',
        'payTo',
        'resource',
        'scheme',
        'svc_pricing',
      ].sort(),
    );
    assert.equal(a.amount, a.maxAmountRequired);
    assert.deepEqual(a.extra, { name: 'USD Coin', version: '2', decimals: 6, symbol: 'USDC' });
    assert.equal(a.maxTimeoutSeconds, 300);
    assert.equal((a.svc_pricing as { pricing_basis: string }).pricing_basis, 'STANDARD');
    const svc = challenge.svc as Record<string, unknown>;
    for (const k of [
      'schema',
      'per',
      'lid',
      'never',
      'deliverable',
      'signer',
      'preview',
      'rail',
      'not_paid_reason',
      'catalog',
      'explainer',
      'free_preview',
      'offer_receipt',
    ])
      assert.ok(k in svc, k);
    assert.deepEqual(svc.rail, {
      mode: 'live',
      pay_to_configured: true,
      facilitator_configured: true,
      note: 'payments are verified and settled by the configured facilitator',
    });
    assert.equal(challenge.catalog, 'http://localhost:8080/api/x402');
  });

  it('signs one offer per accepts entry under the board key; @x402/extensions verifies it with the signed terms', async () => {
    const offers = (
      challenge.extensions as Record<
        string,
        { info: { offers: { format: 'jws'; signature: string; acceptIndex: number }[] } }
      >
    )['offer-receipt']!.info.offers;
    assert.equal(offers.length, 1);
    const payload = await verifyOfferSignatureJWS(offers[0]!, { ...publicJwk(pair.publicKey), alg: 'EdDSA' });
    assert.equal(payload.amount, '20000');
    assert.equal(payload.payTo, rail.payTo);
    assert.equal(payload.resourceUrl, inputs().resourceUrl);
  });

  it('the bazaar info validates against its own JSON Schema 2020-12', () => {
    const bazaar = (challenge.extensions as Record<string, { info: unknown; schema: object }>).bazaar!;
    const ajv = new Ajv2020.default({ strict: false });
    assert.equal(ajv.validate(bazaar.schema, bazaar.info), true, JSON.stringify(ajv.errors));
    assert.equal(
      ajv.validate(bazaar.schema, { input: { type: 'http', method: 'GET', queryParams: {} } }),
      false,
      'subject is required',
    );
  });

  it('inside the promo window the offered amount is the promo price; the free door stays 0 and STANDARD', () => {
    const promo = buildChallenge(inputs({ now: new Date('2026-09-20T00:00:00Z') }));
    const a = (promo.accepts as { amount: string; svc_pricing: { pricing_basis: string } }[])[0]!;
    assert.equal(a.amount, '10000');
    assert.equal(a.svc_pricing.pricing_basis, 'PROMO_EXISTING_DATA');
    const free = buildChallenge(
      inputs({ product: productByKey('free_door'), query: {}, now: new Date('2026-09-20T00:00:00Z') }),
    );
    assert.equal((free.accepts as { amount: string }[])[0]!.amount, '0');
  });

  it('an unhealthy key: no offer, the receipt is said to be unsigned and why; an unconfigured rail says so', () => {
    const c = buildChallenge(
      inputs({
        boardKey: { healthy: false, kid: `${DID}#board-attestation-1`, reason: 'key file missing' },
        rail: readRailConfig({}),
      }),
    );
    const svc = c.svc as {
      signer: Record<string, unknown>;
      rail: Record<string, unknown>;
      offer_receipt: Record<string, unknown>;
    };
    assert.equal(svc.signer.receipt_will_be, 'UNSIGNED');
    assert.equal(svc.signer.unsigned_reason, 'key file missing');
    assert.equal(svc.offer_receipt.signed, false);
    assert.deepEqual(
      (c.extensions as Record<string, { info: { offers: unknown[] } }>)['offer-receipt']!.info.offers,
      [],
    );
    assert.equal(svc.rail.pay_to_configured, false);
    assert.equal(svc.rail.facilitator_configured, false);
    const noPayee = buildChallenge(inputs({ rail: readRailConfig({}) })).svc as {
      offer_receipt: { signed: boolean; reason: string };
    };
    assert.equal(noPayee.offer_receipt.signed, false);
    assert.match(noPayee.offer_receipt.reason, /GSPC_PAY_TO/);
  });
});
