/** Offers and receipts as @x402/extensions (the official offer-receipt code) reads them, and as POST /api/receipts/verify does. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJWS, verifyOfferSignatureJWS, verifyReceiptSignatureJWS } from '@x402/extensions/offer-receipt';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import { publicJwk } from '../../src/core/crypto/jwk.js';
import { verifyCompactJws } from '../../src/core/crypto/receipt-verifier.js';
import { signOffer, signReceipt } from '../../src/core/pricing/offer-receipt.js';

const KID = 'did:web:localhost%3A8080#board-attestation-1';
const pair = keyPairFromSeed(Buffer.alloc(32, 9));
const key = { kid: KID, sign: (m: Uint8Array) => sign(pair.privateKey, m) };
const jwk = { ...publicJwk(pair.publicKey), alg: 'EdDSA' };
const terms = {
  resourceUrl: 'http://localhost:8080/api/request-attestation?subject=m',
  scheme: 'exact' as const,
  network: 'eip155:8453',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  payTo: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  amount: '10000',
};

describe('offer-receipt (JWS)', () => {
  it('an offer verifies with @x402/extensions and carries the signed terms', async () => {
    const offer = signOffer(terms, 0, 1_800_000_000, 300, key);
    const payload = await verifyOfferSignatureJWS(offer, jwk);
    assert.deepEqual(payload, { version: 1, ...terms, validUntil: 1_800_000_300 });
  });

  it('is byte-identical to the reference createJWS for the same payload (header {alg, kid}, RFC 8785 payload)', async () => {
    const signer = {
      kid: KID,
      format: 'jws' as const,
      algorithm: 'EdDSA',
      sign: async (b: Uint8Array) => Buffer.from(sign(pair.privateKey, b)).toString('base64url'),
    };
    const reference = await createJWS({ ...terms, version: 1, validUntil: 1_800_000_300 }, signer);
    assert.equal(signOffer(terms, 0, 1_800_000_000, 300, key).signature, reference);
  });

  it('a receipt names the transaction, verifies with @x402/extensions and with the service verifier; a tampered one does not', async () => {
    const receipt = signReceipt(
      {
        network: 'eip155:8453',
        resourceUrl: terms.resourceUrl,
        payer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        issuedAt: 1_800_000_001,
        transaction: `0x${'ab'.repeat(32)}`,
      },
      key,
    );
    const payload = await verifyReceiptSignatureJWS(receipt, jwk);
    assert.equal(payload.transaction, `0x${'ab'.repeat(32)}`);
    const resolve = async () => ({ state: 'found' as const, jwk: publicJwk(pair.publicKey) });
    assert.equal((await verifyCompactJws(receipt.signature, resolve)).result, 'VALID');
    const [h, p, s] = receipt.signature.split('.');
    const forged = `${h}.${Buffer.from(Buffer.from(p!, 'base64url').toString().replace('ab', 'cd')).toString('base64url')}.${s}`;
    await assert.rejects(verifyReceiptSignatureJWS({ format: 'jws', signature: forged }, jwk));
    assert.equal((await verifyCompactJws(forged, resolve)).result, 'INVALID');
  });
});
