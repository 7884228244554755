import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readPaymentHeader } from '../../src/payments/payment-header.js';
import { GspcError } from '../../src/core/errors.js';

const accepted = {
  scheme: 'exact',
  network: 'eip155:8453',
  amount: '10000',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  payTo: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  maxTimeoutSeconds: 300,
  extra: { name: 'USD Coin', version: '2' },
};
const authorization = {
  from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  to: accepted.payTo,
  value: '10000',
  validAfter: '0',
  validBefore: '1800000300',
  nonce: `0x${'Ab'.repeat(32)}`,
};
const v2 = {
  x402Version: 2,
  resource: { url: 'http://localhost:8080/api/request-attestation?subject=m' },
  accepted,
  payload: { signature: `0x${'11'.repeat(65)}`, authorization },
};
const v1 = {
  x402Version: 1,
  scheme: 'exact',
  network: 'base',
  payload: { signature: `0x${'11'.repeat(65)}`, authorization },
};
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
const code = (c: string, re?: RegExp) => (e: unknown) =>
  e instanceof GspcError && e.code === c && (re === undefined || re.test(e.message));

describe('payment headers', () => {
  it('no header is no payment (a challenge follows)', () => {
    assert.equal(readPaymentHeader({}), undefined);
  });

  it('reads a v2 PAYMENT-SIGNATURE and a v1 X-PAYMENT, dispatching on x402Version; payer and nonce lower-cased', () => {
    const a = readPaymentHeader({ 'payment-signature': b64(v2) })!;
    assert.equal(a.version, 2);
    assert.equal(a.header, 'payment-signature');
    assert.equal(a.payer, authorization.from.toLowerCase());
    assert.equal(a.nonce, `0x${'ab'.repeat(32)}`);
    assert.deepEqual(a.accepted, accepted);
    const b = readPaymentHeader({ 'x-payment': b64(v1) })!;
    assert.equal(b.version, 1);
    assert.equal(b.accepted, undefined);
    // The specification's header name may carry a v2 payload too.
    assert.equal(readPaymentHeader({ 'x-payment': b64(v2) })!.version, 2);
  });

  it("reads a request's headers once: the limiter's class check and the route get the same payment", () => {
    const headers = { 'payment-signature': b64(v2) };
    const first = readPaymentHeader(headers);
    assert.ok(first !== undefined);
    assert.equal(readPaymentHeader(headers), first);
    const other = readPaymentHeader({ 'payment-signature': b64(v2) });
    assert.notEqual(other, first, 'another request reads its own');
    assert.deepEqual(other, first);
  });

  it('refuses unreadable headers with bad_payment and a reason', () => {
    assert.throws(
      () => readPaymentHeader({ 'payment-signature': b64(v2), 'x-payment': b64(v1) }),
      code('bad_payment', /not both/),
    );
    assert.throws(() => readPaymentHeader({ 'payment-signature': 'not base64!' }), code('bad_payment', /not base64/));
    assert.throws(
      () => readPaymentHeader({ 'payment-signature': Buffer.from('{oops').toString('base64') }),
      code('bad_payment', /JSON/),
    );
    assert.throws(
      () => readPaymentHeader({ 'payment-signature': b64({ x402Version: 3 }) }),
      code('bad_payment', /not an x402 payment payload/),
    );
    assert.throws(
      () => readPaymentHeader({ 'payment-signature': 'A'.repeat(20_000) }),
      code('bad_payment', /longer than/),
    );
    assert.throws(
      () => readPaymentHeader({ 'payment-signature': [b64(v2), b64(v2)] }),
      code('bad_payment', /more than once/),
    );
    const noAuth = { ...v2, payload: { signature: '0x00' } };
    assert.throws(() => readPaymentHeader({ 'payment-signature': b64(noAuth) }), code('bad_payment', /EIP-3009/));
    const badNonce = { ...v2, payload: { ...v2.payload, authorization: { ...authorization, nonce: '0x12' } } };
    assert.throws(() => readPaymentHeader({ 'payment-signature': b64(badNonce) }), code('bad_payment', /EIP-3009/));
  });
});
