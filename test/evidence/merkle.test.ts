/**
 * RFC 6962 / 9162 against the transparency-dev/merkle vectors (test/vectors/merkle): every
 * inclusion and consistency file verifies iff `wantErr === false`, and the reference tree's
 * roots, subtree hashes and hasher vectors are reproduced by both the recursive functions and
 * the built `MerkleTree`.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import {
  consistencyProof,
  EMPTY_ROOT,
  inclusionProof,
  leafHash,
  MerkleTree,
  nodeHash,
  rootOf,
  verifyConsistency,
  verifyInclusion,
} from '../../src/core/evidence/merkle/index.js';
import { vectorPath } from '../helpers/repo.js';

const MERKLE = vectorPath('merkle');

function jsonFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? jsonFiles(join(dir, e.name)) : e.name.endsWith('.json') ? [join(dir, e.name)] : [],
    )
    .sort();
}

const b64 = (s: string) => Buffer.from(s, 'base64');

/**
 * u64 fields read from the source text: JSON.parse would round 18446744073709551615 (0 − 1 in
 * uint64, in the leafIdx-sub-@1 files) to 2^64, and the vector must be judged on the exact value.
 */
function u64Field(text: string, field: string): bigint {
  const m = new RegExp(`"${field}":\\s*(\\d+)`).exec(text);
  assert.ok(m, `field ${field} missing`);
  return BigInt(m[1]!);
}

interface InclusionProbe {
  root: string;
  leafHash: string;
  proof: string[] | null;
  desc: string;
  wantErr: boolean;
}
interface ConsistencyProbe {
  root1: string;
  root2: string;
  proof: string[] | null;
  desc: string;
  wantErr: boolean;
}

const inclusionFiles = jsonFiles(join(MERKLE, 'inclusion'));
const consistencyFiles = jsonFiles(join(MERKLE, 'consistency'));

describe('merkle vector files', () => {
  it('all 197 data files match test/vectors/SHA256SUMS (a changed file must fail, not change the counts)', () => {
    const sums = readFileSync(vectorPath('SHA256SUMS'), 'utf8')
      .split('\n')
      .filter((l) => l.includes(' merkle/'));
    assert.equal(sums.length, 197);
    for (const line of sums) {
      const [sum, path] = line.split(/\s+/) as [string, string];
      assert.equal(
        createHash('sha256')
          .update(readFileSync(vectorPath(path)))
          .digest('hex'),
        sum,
        path,
      );
    }
  });
});

describe('transparency-dev/merkle inclusion vectors', () => {
  it('has all 98 files, 6 of which must verify (an empty directory cannot pass)', () => {
    assert.equal(inclusionFiles.length, 98);
    const happy = inclusionFiles.filter((f) => !(JSON.parse(readFileSync(f, 'utf8')) as InclusionProbe).wantErr);
    assert.equal(happy.length, 6);
  });

  for (const file of inclusionFiles) {
    it(relative(MERKLE, file), () => {
      const text = readFileSync(file, 'utf8');
      const v = JSON.parse(text) as InclusionProbe;
      const result = verifyInclusion(
        b64(v.leafHash),
        u64Field(text, 'leafIdx'),
        u64Field(text, 'treeSize'),
        (v.proof ?? []).map(b64),
        b64(v.root),
      );
      assert.equal(result.ok, !v.wantErr, `${v.desc}: ${result.ok ? 'verified' : result.reason}`);
    });
  }
});

describe('transparency-dev/merkle consistency vectors', () => {
  it('has all 98 files, 6 of which must verify (an empty directory cannot pass)', () => {
    assert.equal(consistencyFiles.length, 98);
    const happy = consistencyFiles.filter((f) => !(JSON.parse(readFileSync(f, 'utf8')) as ConsistencyProbe).wantErr);
    assert.equal(happy.length, 6);
  });

  for (const file of consistencyFiles) {
    it(relative(MERKLE, file), () => {
      const text = readFileSync(file, 'utf8');
      const v = JSON.parse(text) as ConsistencyProbe;
      const result = verifyConsistency(
        u64Field(text, 'size1'),
        u64Field(text, 'size2'),
        (v.proof ?? []).map(b64),
        b64(v.root1),
        b64(v.root2),
      );
      assert.equal(result.ok, !v.wantErr, `${v.desc}: ${result.ok ? 'verified' : result.reason}`);
    });
  }
});

interface ReferenceTree {
  leafInputs: string[];
  rootHashesBySize: string[];
  nodeHashes: string[][];
  hasherVectors: {
    desc: string;
    op: string;
    input_utf8?: string;
    left_utf8?: string;
    right_utf8?: string;
    want: string;
  }[];
}

describe('reference-tree.json (testonly/constants.go)', () => {
  const ref = JSON.parse(readFileSync(join(MERKLE, 'reference-tree.json'), 'utf8')) as ReferenceTree;
  const leaves = ref.leafInputs.map((hex) => leafHash(Buffer.from(hex, 'hex')));
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

  it('has 8 leaves, 9 roots, 4 levels of subtree hashes and 4 hasher vectors', () => {
    assert.equal(ref.leafInputs.length, 8);
    assert.equal(ref.rootHashesBySize.length, 9);
    assert.deepEqual(
      ref.nodeHashes.map((l) => l.length),
      [8, 4, 2, 1],
    );
    assert.equal(ref.hasherVectors.length, 4);
  });

  it('rootOf and MerkleTree reproduce the root of every size 0..8', () => {
    ref.rootHashesBySize.forEach((want, n) => {
      assert.equal(hex(rootOf(leaves.slice(0, n))), want, `rootOf size ${n}`);
      assert.equal(hex(new MerkleTree(leaves.slice(0, n)).root()), want, `MerkleTree size ${n}`);
    });
  });

  it('every complete subtree hash nodeHashes[level][i] = MTH(leaves[i·2^level, (i+1)·2^level))', () => {
    ref.nodeHashes.forEach((level, k) =>
      level.forEach((want, i) => {
        assert.equal(hex(rootOf(leaves.slice(i * 2 ** k, (i + 1) * 2 ** k))), want, `level ${k} index ${i}`);
      }),
    );
  });

  it('the hasher vectors (empty root, leaf hashes, node over raw "N123", "N456")', () => {
    for (const v of ref.hasherVectors) {
      const got =
        v.op === 'emptyRoot'
          ? EMPTY_ROOT
          : v.op === 'hashLeaf'
            ? leafHash(Buffer.from(v.input_utf8!, 'utf8'))
            : nodeHash(Buffer.from(v.left_utf8!, 'utf8'), Buffer.from(v.right_utf8!, 'utf8'));
      assert.equal(hex(got), v.want, v.desc);
    }
  });

  it('proofs generated over the reference tree verify against its published roots', () => {
    for (let n = 1; n <= 8; n++) {
      const root = Buffer.from(ref.rootHashesBySize[n]!, 'hex');
      for (let i = 0; i < n; i++)
        assert.ok(
          verifyInclusion(leaves[i]!, i, n, inclusionProof(leaves.slice(0, n), i), root).ok,
          `inclusion ${i} of ${n}`,
        );
      for (let m = 1; m < n; m++) {
        const old = Buffer.from(ref.rootHashesBySize[m]!, 'hex');
        assert.ok(
          verifyConsistency(m, n, consistencyProof(leaves.slice(0, n), m), old, root).ok,
          `consistency ${m} → ${n}`,
        );
      }
    }
  });
});
