/**
 * Properties of the RFC 6962 tree: the built `MerkleTree` answers exactly what the RFC's
 * recursive definitions (rfc6962.ts) give, every proof it generates verifies, and mutated proofs
 * (the transparency-dev proofgen mutation kinds) fail. fast-check runs are bounded; no timings.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  consistencyProof,
  inclusionProof,
  leafHash,
  MerkleTree,
  rootOf,
  verifyConsistency,
  verifyInclusion,
} from '../../src/core/evidence/merkle/index.js';

const MAX = 3000;
/** Distinct leaves, so that a proof for one position can never be right for another. */
const LEAVES = Array.from({ length: MAX + 2 }, (_, i) => leafHash(Buffer.from(`leaf ${i}`, 'utf8')));
const leaves = (n: number) => LEAVES.slice(0, n);
const hex = (bs: readonly Uint8Array[]) => bs.map((b) => Buffer.from(b).toString('hex'));

function flipBit(proof: readonly Uint8Array[], element: number, bit: number): Uint8Array[] {
  return proof.map((h, k) => {
    if (k !== element) return h;
    const copy = Uint8Array.from(h);
    copy[bit >> 3]! ^= 1 << (bit & 7);
    return copy;
  });
}

describe('MerkleTree equals the RFC 9162 recursive definitions', () => {
  it('for every n ≤ 40: root, every inclusion proof and every consistency proof', () => {
    for (let n = 0; n <= 40; n++) {
      const tree = new MerkleTree(leaves(n));
      assert.deepEqual(Buffer.from(tree.root()), rootOf(leaves(n)), `root n=${n}`);
      for (let i = 0; i < n; i++)
        assert.deepEqual(hex(tree.inclusionProof(i)), hex(inclusionProof(leaves(n), i)), `inclusion ${i} of ${n}`);
      for (let m = 0; m <= n; m++)
        assert.deepEqual(hex(tree.consistencyProof(m)), hex(consistencyProof(leaves(n), m)), `consistency ${m} → ${n}`);
    }
  });

  it('for random n ≤ 3000, index and old size (fast-check)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX }), fc.nat(), fc.nat(), (n, ri, rm) => {
        const tree = new MerkleTree(leaves(n));
        const i = ri % n;
        const m = rm % (n + 1);
        assert.deepEqual(Buffer.from(tree.root()), rootOf(leaves(n)));
        assert.deepEqual(hex(tree.inclusionProof(i)), hex(inclusionProof(leaves(n), i)));
        assert.deepEqual(hex(tree.consistencyProof(m)), hex(consistencyProof(leaves(n), m)));
      }),
      { numRuns: 60 },
    );
  });

  it('takes the concatenated leaf hashes as well as an array, and copies its input', () => {
    const input = Buffer.concat(leaves(7));
    const tree = new MerkleTree(input);
    input.fill(0);
    assert.deepEqual(Buffer.from(tree.root()), rootOf(leaves(7)));
    assert.equal(tree.size, 7);
  });

  it('rejects bad arguments as programmer errors', () => {
    assert.throws(() => new MerkleTree([new Uint8Array(31)]), TypeError);
    assert.throws(() => new MerkleTree(new Uint8Array(33)), TypeError);
    assert.throws(() => new MerkleTree(leaves(3)).inclusionProof(3), RangeError);
    assert.throws(() => new MerkleTree(leaves(3)).inclusionProof(-1), RangeError);
    assert.throws(() => new MerkleTree(leaves(3)).consistencyProof(4), RangeError);
    assert.throws(() => inclusionProof(leaves(3), 1.5), RangeError);
    assert.throws(() => verifyInclusion(LEAVES[0]!, -1, 3, [], LEAVES[0]!), RangeError);
    assert.throws(() => verifyInclusion(LEAVES[0]!, 0, 2 ** 60, [], LEAVES[0]!), RangeError);
    assert.throws(() => verifyConsistency(1, 1n << 64n, [], LEAVES[0]!, LEAVES[0]!), RangeError);
  });
});

describe('inclusion proofs', () => {
  const arbCase = fc
    .integer({ min: 1, max: MAX })
    .chain((n) => fc.record({ n: fc.constant(n), i: fc.integer({ min: 0, max: n - 1 }) }));

  it('every generated proof verifies, with number and bigint sizes', () => {
    fc.assert(
      fc.property(arbCase, ({ n, i }) => {
        const tree = new MerkleTree(leaves(n));
        const proof = tree.inclusionProof(i);
        assert.ok(verifyInclusion(LEAVES[i]!, i, n, proof, tree.root()).ok);
        assert.ok(verifyInclusion(LEAVES[i]!, BigInt(i), BigInt(n), proof, tree.root()).ok);
      }),
      { numRuns: 100 },
    );
  });

  it('a flipped bit in any proof element, the leaf hash or the root fails', () => {
    fc.assert(
      fc.property(
        arbCase.filter(({ n }) => n > 1),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        ({ n, i }, re, bit) => {
          const tree = new MerkleTree(leaves(n));
          const proof = tree.inclusionProof(i);
          const root = tree.root();
          assert.equal(verifyInclusion(LEAVES[i]!, i, n, flipBit(proof, re % proof.length, bit), root).ok, false);
          assert.equal(verifyInclusion(flipBit([LEAVES[i]!], 0, bit)[0]!, i, n, proof, root).ok, false);
          assert.equal(verifyInclusion(LEAVES[i]!, i, n, proof, flipBit([root], 0, bit)[0]!).ok, false);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('a wrong index fails, and so does a removed, inserted or extra component', () => {
    fc.assert(
      fc.property(
        arbCase.filter(({ n }) => n > 1),
        fc.nat(),
        ({ n, i }, rj) => {
          const tree = new MerkleTree(leaves(n));
          const proof = tree.inclusionProof(i);
          const root = tree.root();
          const j = (i + 1 + (rj % (n - 1))) % n; // any index but i
          assert.equal(verifyInclusion(LEAVES[i]!, j, n, proof, root).ok, false, `index ${j} instead of ${i}`);
          assert.equal(verifyInclusion(LEAVES[i]!, i + n, n, proof, root).ok, false);
          assert.equal(verifyInclusion(LEAVES[i]!, i, n, proof.slice(0, -1), root).ok, false);
          assert.equal(verifyInclusion(LEAVES[i]!, i, n, [...proof, root], root).ok, false);
          assert.equal(verifyInclusion(LEAVES[i]!, i, n, [root, ...proof], root).ok, false);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("a wrong tree size fails against that size's root (every n ≤ 32, every i, every other size ≤ 33)", () => {
    const roots = Array.from({ length: 34 }, (_, n) => rootOf(leaves(n)));
    for (let n = 1; n <= 32; n++) {
      const tree = new MerkleTree(leaves(n));
      for (let i = 0; i < n; i++) {
        const proof = tree.inclusionProof(i);
        for (let m = 1; m <= 33; m++)
          if (m !== n)
            assert.equal(verifyInclusion(LEAVES[i]!, i, m, proof, roots[m]!).ok, false, `(${i}, ${n}) as size ${m}`);
      }
    }
  });

  it('does not authenticate the size on its own: n ± 1 with the same root is accepted in 1824 of 2080 cases (n ≤ 64), as research §2.4 measured', () => {
    let plus = 0;
    let minus = 0;
    for (let n = 1; n <= 64; n++) {
      const tree = new MerkleTree(leaves(n));
      for (let i = 0; i < n; i++) {
        const proof = tree.inclusionProof(i);
        if (verifyInclusion(LEAVES[i]!, i, n + 1, proof, tree.root()).ok) plus++;
        if (verifyInclusion(LEAVES[i]!, i, n - 1, proof, tree.root()).ok) minus++;
      }
    }
    // Hence the size must come from the signed checkpoint, never from the proof's claim.
    assert.equal(plus, 1824);
    assert.equal(minus, 1824);
  });
});

describe('consistency proofs', () => {
  const arbCase = fc
    .integer({ min: 2, max: MAX })
    .chain((n) => fc.record({ n: fc.constant(n), m: fc.integer({ min: 1, max: n - 1 }) }));

  it('every generated proof verifies against the two roots', () => {
    fc.assert(
      fc.property(arbCase, ({ n, m }) => {
        const proof = new MerkleTree(leaves(n)).consistencyProof(m);
        assert.ok(verifyConsistency(m, n, proof, rootOf(leaves(m)), rootOf(leaves(n))).ok);
      }),
      { numRuns: 100 },
    );
  });

  it('a flipped bit, a truncated or extended proof, or swapped roots fail', () => {
    fc.assert(
      fc.property(arbCase, fc.nat(), fc.integer({ min: 0, max: 255 }), ({ n, m }, re, bit) => {
        const proof = new MerkleTree(leaves(n)).consistencyProof(m);
        const [r1, r2] = [rootOf(leaves(m)), rootOf(leaves(n))];
        assert.equal(verifyConsistency(m, n, flipBit(proof, re % proof.length, bit), r1, r2).ok, false);
        assert.equal(verifyConsistency(m, n, proof.slice(0, -1), r1, r2).ok, false);
        assert.equal(verifyConsistency(m, n, [...proof, r2], r1, r2).ok, false);
        assert.equal(verifyConsistency(m, n, proof, r2, r1).ok, false);
        assert.equal(verifyConsistency(m, n, proof, flipBit([r1], 0, bit)[0]!, r2).ok, false);
      }),
      { numRuns: 100 },
    );
  });

  it("wrong old or new sizes fail against those sizes' roots (every 1 ≤ m < n ≤ 24)", () => {
    const roots = Array.from({ length: 26 }, (_, n) => rootOf(leaves(n)));
    for (let n = 2; n <= 24; n++) {
      const tree = new MerkleTree(leaves(n));
      for (let m = 1; m < n; m++) {
        const proof = tree.consistencyProof(m);
        for (let m2 = 1; m2 <= n; m2++)
          if (m2 !== m)
            assert.equal(verifyConsistency(m2, n, proof, roots[m2]!, roots[n]!).ok, false, `${m}→${n} as ${m2}→${n}`);
        for (let n2 = m + 1; n2 <= 25; n2++)
          if (n2 !== n)
            assert.equal(verifyConsistency(m, n2, proof, roots[m]!, roots[n2]!).ok, false, `${m}→${n} as ${m}→${n2}`);
      }
    }
  });

  it('old size 0 gives an empty proof, which the RFC verifier rejects (witness-layer case)', () => {
    assert.deepEqual(new MerkleTree(leaves(5)).consistencyProof(0), []);
    assert.equal(verifyConsistency(0, 5, [], rootOf([]), rootOf(leaves(5))).ok, false);
  });
});
