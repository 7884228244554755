/**
 * A receipt issued before a rotation still verifies (issue 30): the DID document lists the
 * retired key as `#board-attestation-1~1`, and the reference verifier (POST
 * /api/receipts/verify and gspc) and the browser's verifier both accept a receipt signed by it
 * when its `issuedAt` is at or before the retirement, and only then. An offer (no issue time)
 * is never accepted under a retired key; a tampered receipt never is.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keyPairFromSeed, verify } from '../../src/core/crypto/ed25519.js';
import { didDocumentResolver, verifyCompactJwsWith } from '../../src/core/crypto/jws-verifier.js';
import { verifyCompactJws } from '../../src/core/crypto/receipt-verifier.js';
import { didDocument } from '../../src/core/evidence/did.js';
import { KEY_TRANSITION_SCHEMA, signTransition } from '../../src/core/evidence/key-transition.js';
import { signOffer, signReceipt } from '../../src/core/pricing/offer-receipt.js';
import { didKeyResolver } from '../../src/keys/did-resolver.js';
import { sign } from '../../src/core/crypto/ed25519.js';

const DID = 'did:web:board.example';
const KID = `${DID}#board-attestation-1`;
const RETIRED_AT = '2026-11-20T12:00:00Z';
const retiredSeconds = Date.parse(RETIRED_AT) / 1000;

const pair = (n: number) => keyPairFromSeed(Buffer.alloc(32, n));
const [old, now] = [pair(7), pair(8)];
const signer = (p: ReturnType<typeof pair>) => ({
  kid: KID,
  publicKey: p.publicKey,
  sign: (m: Uint8Array) => sign(p.privateKey, m),
});
const transition = signTransition(
  {
    schema: KEY_TRANSITION_SCHEMA,
    did: DID,
    fragment: 'board-attestation-1',
    sequence: 1,
    kind: 'rotation',
    old_x: old.publicKey.toString('base64url'),
    new_x: now.publicKey.toString('base64url'),
    at: RETIRED_AT,
  },
  signer(old),
  signer(now),
);
const doc = didDocument(DID, [{ fragment: 'board-attestation-1', publicKey: now.publicKey }], [transition]);

const receipt = (p: ReturnType<typeof pair>, issuedAt: number) =>
  signReceipt(
    { network: 'eip155:8453', resourceUrl: 'https://board.example/api/x', payer: '0x1', issuedAt, transaction: '0xab' },
    signer(p),
  ).signature;

/** Both verifiers: the reference one through the service's resolver, the browser's through the page's. */
async function both(jws: string) {
  const service = await verifyCompactJws(
    jws,
    didKeyResolver(() => ({ did: DID, doc }), { trustedHosts: [] }),
  );
  const browser = await verifyCompactJwsWith(jws, didDocumentResolver(doc), {
    ed25519Verify: async (k, m, s) => verify(k, m, s),
  });
  assert.deepEqual([service.result, service.reason], [browser.result, browser.reason], 'the two verifiers agree');
  return service;
}

describe('receipts across a rotation', () => {
  it('a receipt by the retired key, issued before its retirement: VALID, naming the retired key', async () => {
    const r = await both(receipt(old, retiredSeconds - 60));
    assert.equal(r.result, 'VALID');
    assert.match(
      r.reason,
      /under did:web:board\.example#board-attestation-1~1, the key its kid had when the receipt was issued/,
    );
  });

  it('issued at the retirement instant: still the retired key; one second after: INVALID', async () => {
    assert.equal((await both(receipt(old, retiredSeconds))).result, 'VALID');
    const late = await both(receipt(old, retiredSeconds + 1));
    assert.deepEqual([late.result, late.reason], ['INVALID', 'signature does not verify under the resolved key']);
  });

  it('a receipt by the current key verifies as always', async () => {
    const r = await both(receipt(now, retiredSeconds + 3600));
    assert.deepEqual([r.result, r.reason], ['VALID', 'signature verifies under the resolved key']);
  });

  it('an offer by the retired key (it says no issue time) and a tampered receipt are INVALID', async () => {
    const offer = signOffer(
      {
        network: 'eip155:8453',
        asset: '0x0',
        payTo: '0x2',
        amount: '10',
        resourceUrl: 'https://board.example/api/x',
        scheme: 'exact',
      } as never,
      0,
      retiredSeconds - 600,
      300,
      signer(old),
    ).signature;
    assert.equal((await both(offer)).result, 'INVALID');
    const [h, p, s] = receipt(old, retiredSeconds - 60).split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, transaction: '0xcd' })).toString('base64url')}.${s}`;
    assert.equal((await both(forged)).result, 'INVALID');
  });
});
