/**
 * Root v1 (odd node duplicated, research transparency.md §2): the CVE-2012-2459 collision is
 * real, `boundRootDigest` removes it, §2.4 proofs verify and their mutations fail, a proof
 * replayed with n ± 1 is refused by the bound digest, and `DupTree` equals the plain functions.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  boundRootDigest,
  dupInclusionProof,
  dupRoot,
  DupTree,
  EMPTY_ROOT,
  leafHash,
  nodeHash,
  rootOf,
  verifyBoundDupInclusion,
  verifyDupInclusion,
} from '../../src/core/evidence/merkle/index.js';

const MAX = 3000;
const LEAVES = Array.from({ length: MAX + 2 }, (_, i) => leafHash(Buffer.from(`card ${i}`, 'utf8')));
const leaves = (n: number) => LEAVES.slice(0, n);
const hex = (bs: readonly Uint8Array[]) => bs.map((b) => Buffer.from(b).toString('hex'));
const [a, b, c, d, e, f] = LEAVES as [Buffer, Buffer, Buffer, Buffer, Buffer, Buffer];

describe('the duplicate-odd-node collision and the leaf-count binding', () => {
  it('dupRoot([a,b,c]) == dupRoot([a,b,c,c]) even with 0x00/0x01 prefixes, while the bound digests differ', () => {
    const r3 = dupRoot([a, b, c]);
    const r4 = dupRoot([a, b, c, c]);
    assert.deepEqual(r3, r4);
    assert.deepEqual(r3, nodeHash(nodeHash(a, b), nodeHash(c, c)));
    assert.notDeepEqual(boundRootDigest(3, r3), boundRootDigest(4, r4));
    // RFC 6962 promotes instead of duplicating, so it has no such collision.
    assert.notDeepEqual(rootOf([a, b, c]), rootOf([a, b, c, c]));
  });

  it("Bitcoin's example: [1..6] and [1..6,5,6] share a root, not a bound digest", () => {
    const six = [a, b, c, d, e, f];
    const r6 = dupRoot(six);
    assert.deepEqual(r6, dupRoot([...six, e, f]));
    assert.notDeepEqual(boundRootDigest(6, r6), boundRootDigest(8, r6));
  });

  it('boundRootDigest = SHA-256("gspc-root/v1\\n" ‖ u64be(n) ‖ root), for number and bigint n', () => {
    const root = dupRoot([a, b, c]);
    const n = Buffer.alloc(8);
    n.writeBigUInt64BE(3n);
    const want = createHash('sha256')
      .update(Buffer.concat([Buffer.from('gspc-root/v1\n', 'utf8'), n, root]))
      .digest();
    assert.deepEqual(boundRootDigest(3, root), want);
    assert.deepEqual(boundRootDigest(3n, root), want);
    assert.throws(() => boundRootDigest(3, root.subarray(1)), RangeError);
    assert.throws(() => boundRootDigest(-1, root), RangeError);
  });

  it('a proof for [a,b,c] replayed as a proof in [a,b,c,c] verifies against the bare root but not the bound digest', () => {
    const root = dupRoot([a, b, c]);
    const proof3 = dupInclusionProof([a, b, c], 2); // [H(a,b)]: c is the lone last node
    assert.deepEqual(hex(proof3), hex([nodeHash(a, b)]));
    assert.ok(verifyDupInclusion(c, 2, 3, proof3, root).ok);
    const proof4 = dupInclusionProof([a, b, c, c], 3); // [c, H(a,b)]
    assert.ok(verifyDupInclusion(c, 3, 4, proof4, root).ok, 'the phantom 4th leaf "verifies" against the bare root');
    assert.equal(verifyBoundDupInclusion(c, 3, 4, proof4, boundRootDigest(3, root)).ok, false);
    assert.ok(verifyBoundDupInclusion(c, 2, 3, proof3, boundRootDigest(3, root)).ok);
  });
});

describe('root v1 proofs, exhaustively for every n ≤ 64 and every i < n (2080 proofs)', () => {
  it('DupTree equals dupRoot and dupInclusionProof, and every proof verifies (bare root and bound digest)', () => {
    let proofs = 0;
    for (let n = 1; n <= 64; n++) {
      const tree = new DupTree(leaves(n));
      const root = dupRoot(leaves(n));
      assert.deepEqual(Buffer.from(tree.root()), root, `root n=${n}`);
      const bound = boundRootDigest(n, root);
      for (let i = 0; i < n; i++) {
        const proof = tree.inclusionProof(i);
        assert.deepEqual(hex(proof), hex(dupInclusionProof(leaves(n), i)), `proof ${i} of ${n}`);
        assert.deepEqual(hex(dupInclusionProof(tree, i)), hex(proof));
        assert.ok(verifyDupInclusion(LEAVES[i]!, i, n, proof, root).ok, `verify ${i} of ${n}`);
        assert.ok(verifyBoundDupInclusion(LEAVES[i]!, i, n, proof, bound).ok, `bound ${i} of ${n}`);
        proofs++;
      }
    }
    assert.equal(proofs, 2080);
  });

  it('i+1, i−1, i^1, one extra and one missing element are always rejected', () => {
    for (let n = 1; n <= 64; n++) {
      const tree = new DupTree(leaves(n));
      const root = tree.root();
      for (let i = 0; i < n; i++) {
        const proof = tree.inclusionProof(i);
        for (const j of new Set([i + 1, i - 1, i ^ 1])) {
          if (j >= 0 && j !== i)
            assert.equal(verifyDupInclusion(LEAVES[i]!, j, n, proof, root).ok, false, `(${i}, ${n}) as index ${j}`);
        }
        assert.equal(verifyDupInclusion(LEAVES[i]!, i, n, [...proof, root], root).ok, false);
        if (proof.length > 0) assert.equal(verifyDupInclusion(LEAVES[i]!, i, n, proof.slice(1), root).ok, false);
      }
    }
  });

  it('n ± 1 with the same bare root is accepted in 1824 of 2080 cases each way (research §2.4); the bound digest refuses all', () => {
    let plus = 0;
    let minus = 0;
    for (let n = 1; n <= 64; n++) {
      const tree = new DupTree(leaves(n));
      const root = tree.root();
      const bound = boundRootDigest(n, root);
      for (let i = 0; i < n; i++) {
        const proof = tree.inclusionProof(i);
        if (verifyDupInclusion(LEAVES[i]!, i, n + 1, proof, root).ok) plus++;
        if (verifyDupInclusion(LEAVES[i]!, i, n - 1, proof, root).ok) minus++;
        assert.equal(verifyBoundDupInclusion(LEAVES[i]!, i, n + 1, proof, bound).ok, false, `(${i}, ${n}) as n+1`);
        assert.equal(verifyBoundDupInclusion(LEAVES[i]!, i, n - 1, proof, bound).ok, false, `(${i}, ${n}) as n−1`);
      }
    }
    assert.equal(plus, 1824);
    assert.equal(minus, 1824);
  });
});

describe('root v1 properties', () => {
  const arbCase = fc
    .integer({ min: 1, max: MAX })
    .chain((n) => fc.record({ n: fc.constant(n), i: fc.integer({ min: 0, max: n - 1 }) }));

  it('for random n ≤ 3000 the tree equals the functions, proofs verify and a flipped bit fails (fast-check)', () => {
    fc.assert(
      fc.property(arbCase, fc.nat(), fc.integer({ min: 0, max: 255 }), ({ n, i }, re, bit) => {
        const tree = new DupTree(leaves(n));
        const root = dupRoot(leaves(n));
        assert.deepEqual(Buffer.from(tree.root()), root);
        const proof = tree.inclusionProof(i);
        assert.deepEqual(hex(proof), hex(dupInclusionProof(leaves(n), i)));
        const bound = boundRootDigest(BigInt(n), root);
        assert.ok(verifyBoundDupInclusion(LEAVES[i]!, BigInt(i), BigInt(n), proof, bound).ok);
        if (proof.length > 0) {
          const k = re % proof.length;
          const bad = proof.map((h, j) =>
            j === k ? Uint8Array.from(h, (x, at) => (at === bit >> 3 ? x ^ (1 << (bit & 7)) : x)) : h,
          );
          assert.equal(verifyBoundDupInclusion(LEAVES[i]!, i, n, bad, bound).ok, false);
        }
      }),
      { numRuns: 80 },
    );
  });

  it('equals the RFC 6962 root when n is a power of two (no odd level)', () => {
    for (const n of [1, 2, 4, 8, 64, 1024]) assert.deepEqual(dupRoot(leaves(n)), rootOf(leaves(n)), `n=${n}`);
    assert.notDeepEqual(dupRoot(leaves(5)), rootOf(leaves(5)));
  });

  it('edge cases: one leaf is its own root with an empty proof; no leaves give SHA-256("") and no proof verifies', () => {
    assert.deepEqual(dupRoot([a]), a);
    assert.deepEqual(dupInclusionProof([a], 0), []);
    assert.ok(verifyDupInclusion(a, 0, 1, [], a).ok);
    assert.deepEqual(dupRoot([]), EMPTY_ROOT);
    assert.deepEqual(Buffer.from(new DupTree([]).root()), EMPTY_ROOT);
    assert.equal(verifyDupInclusion(a, 0, 0, [], EMPTY_ROOT).ok, false);
    assert.equal(verifyDupInclusion(a.subarray(1), 0, 1, [], a).ok, false, 'a leaf hash that is not 32 bytes');
    assert.throws(() => dupInclusionProof([a, b], 2), RangeError);
    assert.throws(() => new DupTree([a, b]).inclusionProof(2), RangeError);
    assert.throws(() => dupRoot([a.subarray(1)]), TypeError);
  });
});
