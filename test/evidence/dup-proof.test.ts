/** The async (browser-side) proof check agrees with the Node tree that builds the proofs. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { dupInclusionProof, dupRoot } from '../../src/core/evidence/merkle/dup-root.js';
import { rootLeaves } from '../../src/core/evidence/public-root.js';
import { verifyDupProof } from '../../src/core/verify/dup-proof.js';
import { nodeVerifyCrypto } from '../../src/verify/node-crypto.js';

const hashes = (n: number) =>
  Array.from({ length: n }, (_, i) => createHash('sha256').update(`card ${i}`).digest('hex')).sort();
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('dup-tree proofs: builder and browser-side verifier agree', () => {
  it('every proof for n = 1..40 verifies, and a wrong index, count, sibling or card fails', async () => {
    let checked = 0;
    for (let n = 1; n <= 40; n++) {
      const cards = hashes(n);
      const leaves = rootLeaves(cards);
      const root = hex(dupRoot(leaves));
      for (let i = 0; i < n; i++) {
        const proof = dupInclusionProof(leaves, i).map(hex);
        assert.ok(await verifyDupProof(nodeVerifyCrypto, cards[i]!, i, n, proof, root), `n=${n} i=${i}`);
        if (n > 1)
          assert.ok(
            !(await verifyDupProof(nodeVerifyCrypto, cards[i]!, (i + 1) % n, n, proof, root)),
            `wrong index n=${n} i=${i}`,
          );
        if (proof.length > 0) {
          const bent = [...proof];
          bent[0] = `${bent[0]!.slice(0, -1)}${bent[0]!.endsWith('0') ? '1' : '0'}`;
          assert.ok(!(await verifyDupProof(nodeVerifyCrypto, cards[i]!, i, n, bent, root)));
        }
        assert.ok(!(await verifyDupProof(nodeVerifyCrypto, 'f'.repeat(64), i, n, proof, root)));
        checked++;
      }
    }
    assert.equal(checked, 820);
  });
});
