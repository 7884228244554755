/**
 * A DID document that lists one verification-method id twice (issue 36): `gspc verify` took the
 * last key and the monitor the first, so a document could mean two key sets at once. Every
 * verifier now refuses it whole: the card/root verifier's keys (keysOfDidDocument, which the
 * browser's service context and `gspc verify` read), the offer/receipt key resolution
 * (resolveInMethods, the browser's and the reference verifier's), and the browser's did_document
 * check names the doubled id.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keyPairFromSeed } from '../../src/core/crypto/ed25519.js';
import { didDocumentResolver, resolveInMethods } from '../../src/core/crypto/jws-verifier.js';
import { didDocument } from '../../src/core/evidence/did.js';
import { doubledMethodId, keysOfDidDocument } from '../../src/core/verify/card-verifier.js';
import { loadServiceContext } from '../../src/core/verify/service-context.js';
import { nodeVerifyCrypto } from '../../src/verify/node-crypto.js';

const DID = 'did:web:board.example';
const key = (n: number) => keyPairFromSeed(Buffer.alloc(32, n)).publicKey;
const honest = didDocument(DID, [
  { fragment: 'board-attestation-1', publicKey: key(1) },
  { fragment: 'card-attestation-1', publicKey: key(2) },
]);
/** The same document with a second `#board-attestation-1`, holding another key, appended. */
const doubled = {
  ...honest,
  verificationMethod: [
    ...honest.verificationMethod,
    {
      ...honest.verificationMethod[0]!,
      publicKeyJwk: { ...honest.verificationMethod[0]!.publicKeyJwk, x: Buffer.from(key(3)).toString('base64url') },
    },
  ],
};
const BOARD = `${DID}#board-attestation-1`;

describe('a DID document with two verification methods of one id', () => {
  it('gives no keys to the card and root verifier, and doubledMethodId names the id', () => {
    assert.equal(keysOfDidDocument(honest).size, 2);
    assert.equal(doubledMethodId(honest), undefined);
    assert.equal(keysOfDidDocument(doubled).size, 0);
    assert.equal(doubledMethodId(doubled), BOARD);
  });

  it('resolves no key for an offer or a receipt, whichever kid is asked, naming the doubled id', async () => {
    for (const kid of [BOARD, `${DID}#card-attestation-1`])
      assert.deepEqual(resolveInMethods(doubled.verificationMethod, kid), {
        state: 'unresolvable',
        reason: `the DID document lists the verification method ${BOARD} twice`,
      });
    assert.equal((await didDocumentResolver(doubled)(BOARD)).state, 'unresolvable');
    assert.equal(resolveInMethods(honest.verificationMethod, BOARD).state, 'found');
  });

  it("fails the browser verifier's did_document check, naming the doubled id", async () => {
    const files = (doc: unknown) => ({
      get: async (path: string) =>
        path === '/.well-known/did.json' ? new TextEncoder().encode(JSON.stringify(doc)) : undefined,
    });
    const refused = await loadServiceContext(files(doubled), nodeVerifyCrypto);
    const check = refused.checks.find((c) => c.check === 'did_document');
    assert.deepEqual([check?.ok, check?.detail], [false, `the DID document lists ${BOARD} twice: refused whole`]);
    assert.equal(refused.keys.size, 0);
    const accepted = await loadServiceContext(files(honest), nodeVerifyCrypto);
    assert.equal(accepted.checks.find((c) => c.check === 'did_document')?.ok, true);
  });
});
