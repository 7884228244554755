/**
 * Issue 37: the receipt verifier tells an offer from a receipt (both are JWSs by the same key in
 * the same form) and checks what a relying party expects a receipt to cover; receipts now state
 * the amount and asset paid, and the official verifier still reads them; the validBefore bound.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verifyReceiptSignatureJWS } from '@x402/extensions/offer-receipt';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import { signCompactJws } from '../../src/core/crypto/jws.js';
import { publicJwk } from '../../src/core/crypto/jwk.js';
import { kindOf, verifyOfferOrReceipt } from '../../src/core/crypto/receipt-verifier.js';
import {
  latestValidBefore,
  VALID_BEFORE_SKEW_SECONDS,
  validBeforeProblem,
} from '../../src/core/pricing/authorization-window.js';
import { signOffer, signReceipt } from '../../src/core/pricing/offer-receipt.js';

const KID = 'did:web:localhost%3A8080#board-attestation-1';
const pair = keyPairFromSeed(Buffer.alloc(32, 7));
const key = { kid: KID, sign: (m: Uint8Array) => sign(pair.privateKey, m) };
const resolve = async () => ({ state: 'found' as const, jwk: publicJwk(pair.publicKey) });
const URL_A = 'http://localhost:8080/api/request-attestation?subject=m';
const URL_B = 'http://localhost:8080/api/evidence-bundle?obligation=article-50&bundle=1';
const offer = signOffer(
  {
    resourceUrl: URL_A,
    scheme: 'exact',
    network: 'eip155:8453',
    asset: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
    payTo: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
    amount: '20000',
  },
  0,
  1_800_000_000,
  300,
  key,
).signature;
const receiptOf = (over: Record<string, unknown> = {}) =>
  signReceipt(
    {
      network: 'eip155:8453',
      resourceUrl: URL_A,
      payer: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      issuedAt: 1_800_000_001,
      transaction: `0x${'ab'.repeat(32)}`,
      amount: '20000',
      asset: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      ...over,
    },
    key,
  ).signature;

describe('an offer is never a receipt', () => {
  it('an offer checked as a receipt (the default) is INVALID, says it is an offer, and shows no payload', async () => {
    const v = await verifyOfferOrReceipt(offer, resolve);
    assert.deepEqual([v.result, v.kind, v.payload], ['INVALID', 'offer', undefined]);
    assert.match(v.reason, /^the signature verifies, but this is an offer, not a receipt/);
    const asOffer = await verifyOfferOrReceipt(offer, resolve, { kind: 'offer', resourceUrl: URL_A, amount: '20000' });
    assert.deepEqual([asOffer.result, asOffer.kind], ['VALID', 'offer']);
  });

  it('a receipt is VALID as a receipt, INVALID as an offer', async () => {
    const r = receiptOf();
    assert.deepEqual(
      [(await verifyOfferOrReceipt(r, resolve)).result, (await verifyOfferOrReceipt(r, resolve)).kind],
      ['VALID', 'receipt'],
    );
    assert.equal((await verifyOfferOrReceipt(r, resolve, { kind: 'offer' })).result, 'INVALID');
  });

  it('a signed payload that is neither (or both) is INVALID as either', async () => {
    for (const payload of [
      { version: 1, hello: 'x' },
      { payer: '0x1', issuedAt: 1, payTo: '0x2', scheme: 'exact', validUntil: 2 },
    ]) {
      const jws = signCompactJws(payload, key);
      const v = await verifyOfferOrReceipt(jws, resolve);
      assert.deepEqual([v.result, v.kind], ['INVALID', 'unknown']);
    }
    assert.equal(kindOf(null), 'unknown');
    assert.equal(kindOf([]), 'unknown');
  });

  it('a bad signature stays INVALID with no kind: an unverified payload is never classified', async () => {
    const [h, p] = offer.split('.') as [string, string, string];
    const v = await verifyOfferOrReceipt(`${h}.${p}.${Buffer.alloc(64).toString('base64url')}`, resolve);
    assert.equal(v.result, 'INVALID');
    assert.equal(v.kind, undefined);
  });
});

describe('a receipt covers what it names', () => {
  it('an expected resource and amount are checked; a receipt without an amount cannot be shown to cover one', async () => {
    const r = receiptOf();
    assert.equal((await verifyOfferOrReceipt(r, resolve, { resourceUrl: URL_A, amount: '20000' })).result, 'VALID');
    const other = await verifyOfferOrReceipt(r, resolve, { resourceUrl: URL_B });
    assert.equal(other.result, 'INVALID');
    assert.match(other.reason, /covers ".*request-attestation.*", not ".*evidence-bundle/);
    const dearer = await verifyOfferOrReceipt(r, resolve, { amount: '250000000' });
    assert.match(dearer.reason, /states an amount of 20000, not 250000000/);
    const old = receiptOf({ amount: undefined, asset: undefined });
    assert.equal((await verifyOfferOrReceipt(old, resolve, { resourceUrl: URL_A })).result, 'VALID');
    const noAmount = await verifyOfferOrReceipt(old, resolve, { amount: '20000' });
    assert.deepEqual([noAmount.result, noAmount.kind], ['INVALID', 'receipt']);
    assert.match(noAmount.reason, /states no amount/);
  });

  it('the official verifier reads a receipt with its amount and asset', async () => {
    const payload = await verifyReceiptSignatureJWS(
      { format: 'jws', signature: receiptOf() },
      { ...publicJwk(pair.publicKey), alg: 'EdDSA' },
    );
    assert.deepEqual([payload.resourceUrl, (payload as { amount?: string }).amount], [URL_A, '20000']);
  });
});

describe('validBefore within the terms', () => {
  it('at most now + maxTimeoutSeconds + the skew; later is refused with the bound named', () => {
    const now = 1_800_000_000;
    assert.equal(latestValidBefore(now, 300), BigInt(now + 300 + VALID_BEFORE_SKEW_SECONDS));
    assert.equal(validBeforeProblem(String(now + 300 + VALID_BEFORE_SKEW_SECONDS), now, 300), undefined);
    assert.equal(validBeforeProblem('0', now, 300), undefined, 'an expired one is the facilitator’s to refuse');
    assert.match(
      validBeforeProblem(String(now + 300 + VALID_BEFORE_SKEW_SECONDS + 1), now, 300)!,
      /validBefore 1800000421 is later than now \+ maxTimeoutSeconds \(300 s\) \+ 120 s of clock skew \(1800000420\)/,
    );
    assert.ok(validBeforeProblem('18446744073709551615', now, 300));
    assert.ok(validBeforeProblem('9'.repeat(78), now, 300));
  });
});
