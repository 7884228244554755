/**
 * A retired key is reached only through its fragment's kid (issue 36, second review): a revoked
 * key's thief signed an offer and a receipt with the kid `#board-attestation-1~1`, the DID
 * document's retired method, and the resolver handed back its key, past the revocation and past
 * the instant it was retired. Named directly, a retired method is INVALID; under the fragment's
 * kid the retired key still verifies what it signed before its retirement (issue 30).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import { signCompactJws } from '../../src/core/crypto/jws.js';
import { didDocumentResolver } from '../../src/core/crypto/jws-verifier.js';
import { verifyCompactJws } from '../../src/core/crypto/receipt-verifier.js';
import { didDocument } from '../../src/core/evidence/did.js';
import { KEY_TRANSITION_SCHEMA, signTransition } from '../../src/core/evidence/key-transition.js';

const DID = 'did:web:board.example';
const pair = (n: number) => keyPairFromSeed(Buffer.alloc(32, n));
const [old, now] = [pair(1), pair(2)];
const signer = (p: ReturnType<typeof pair>, kid: string) => ({
  kid,
  publicKey: p.publicKey,
  sign: (m: Uint8Array) => sign(p.privateKey, m),
});
const rotation = signTransition(
  {
    schema: KEY_TRANSITION_SCHEMA,
    did: DID,
    fragment: 'board-attestation-1',
    sequence: 1,
    kind: 'rotation',
    old_x: old.publicKey.toString('base64url'),
    new_x: now.publicKey.toString('base64url'),
    at: '2026-11-02T00:00:00Z',
  },
  signer(old, `${DID}#board-attestation-1`),
  signer(now, `${DID}#board-attestation-1`),
);
const doc = didDocument(DID, [{ fragment: 'board-attestation-1', publicKey: now.publicKey }], [rotation]);
const resolve = didDocumentResolver(doc);
const receipt = (issuedAt: number) => ({ payer: '0xabc', issuedAt, resourceUrl: 'https://board.example/api/x' });
const jws = (p: ReturnType<typeof pair>, kid: string, issuedAt: number) =>
  signCompactJws(receipt(issuedAt), { kid, sign: (m) => sign(p.privateKey, m) });

describe('a retired key is reached only through its fragment', () => {
  it('the DID document lists the retired key as #board-attestation-1~1', () => {
    assert.ok(doc.verificationMethod.some((m) => m.id === `${DID}#board-attestation-1~1`));
  });

  it('a JWS naming the retired method directly is INVALID, whenever it claims to be issued', async () => {
    for (const at of [Date.parse('2026-11-01T00:00:00Z') / 1000, Date.parse('2026-12-01T00:00:00Z') / 1000]) {
      const v = await verifyCompactJws(jws(old, `${DID}#board-attestation-1~1`, at), resolve);
      assert.equal(v.result, 'INVALID');
      assert.match(v.reason, /names a retired key/);
    }
  });

  it("under the fragment's kid the retired key verifies only what it signed before its retirement", async () => {
    const before = await verifyCompactJws(
      jws(old, `${DID}#board-attestation-1`, Date.parse('2026-11-01T00:00:00Z') / 1000),
      resolve,
    );
    assert.equal(before.result, 'VALID', before.reason);
    const after = await verifyCompactJws(
      jws(old, `${DID}#board-attestation-1`, Date.parse('2026-12-01T00:00:00Z') / 1000),
      resolve,
    );
    assert.equal(after.result, 'INVALID');
    const current = await verifyCompactJws(
      jws(now, `${DID}#board-attestation-1`, Date.parse('2026-12-01T00:00:00Z') / 1000),
      resolve,
    );
    assert.equal(current.result, 'VALID', current.reason);
  });
});
