/**
 * Review R3-3: a retired (rotated, not revoked) board key is not a log key for an offline
 * tlog-proof. The proof does not say where the rotation sits in the log, so whoever holds a
 * rotated-out key could sign a tree of any size under the origin's name; `gspc verify <url>` and
 * the monitor accept such a key only below its rotation. The current key still verifies.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import { keyPairFromSeed } from '../../src/core/crypto/ed25519.js';
import { logLeaves } from '../../src/core/evidence/card-log.js';
import { MerkleTree } from '../../src/core/evidence/merkle/merkle-tree.js';
import { formatCheckpoint } from '../../src/core/evidence/note/checkpoint.js';
import { signNote } from '../../src/core/evidence/note/signed-note.js';
import { formatTlogProof } from '../../src/core/evidence/tlog-proof.js';
import { trustedLogsOfDidDocument, verifyTlogProof } from '../../src/core/verify/tlog-proof.js';
import { nodeVerifyCrypto } from '../../src/verify/node-crypto.js';

const DID = 'did:web:board.example';
const ORIGIN = 'board.example/log';
const oldSeed = Buffer.alloc(32, 1);
const newSeed = Buffer.alloc(32, 2);
const jwk = (seed: Buffer) => ({
  kty: 'OKP',
  crv: 'Ed25519',
  x: Buffer.from(keyPairFromSeed(seed).publicKey).toString('base64url'),
});
const doc = {
  id: DID,
  verificationMethod: [
    { id: `${DID}#board-attestation-1`, type: 'JsonWebKey2020', controller: DID, publicKeyJwk: jwk(newSeed) },
    {
      id: `${DID}#board-attestation-1~1`,
      type: 'JsonWebKey2020',
      controller: DID,
      publicKeyJwk: jwk(oldSeed),
      retired: {
        fragment: 'board-attestation-1',
        sequence: 1,
        at: '2026-01-01T00:00:00Z',
        transition: 'ab'.repeat(32),
      },
    },
  ],
};

/** A 1,000-entry tree whose last entry is a card the board never issued, its checkpoint signed by `seed`. */
function proofSignedBy(seed: Buffer): { proof: string; card: string } {
  const card = createHash('sha256').update('a card the board never issued').digest('hex');
  const entries = Array.from({ length: 1000 }, (_, i) =>
    i === 999 ? card : createHash('sha256').update(`x${i}`).digest('hex'),
  );
  const tree = new MerkleTree(logLeaves(entries));
  const text = formatCheckpoint({ origin: ORIGIN, size: tree.size, rootHash: tree.root(), extensions: [] });
  const note = signNote(text, { name: ORIGIN, privateKey: seed });
  return { proof: formatTlogProof(999, tree.inclusionProof(999), note), card };
}

it('a retired board key signs no checkpoint an offline proof is checked against; the current key does', async () => {
  const logs = trustedLogsOfDidDocument(doc);
  assert.equal(logs.length, 1, 'only the board key is a log key');
  const retired = proofSignedBy(oldSeed);
  const v = await verifyTlogProof(nodeVerifyCrypto, retired.proof, retired.card, { logs });
  assert.equal(v.result, 'INVALID', JSON.stringify(v.checks));
  const current = proofSignedBy(newSeed);
  assert.equal((await verifyTlogProof(nodeVerifyCrypto, current.proof, current.card, { logs })).result, 'VALID');
});
