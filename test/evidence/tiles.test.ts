/**
 * C2SP tlog-tiles math (src/core/evidence/merkle/tiles.ts, tile-proofs.ts) against the existing
 * RFC 6962 code: every tile hash is the MTH of its range as rfc6962.ts computes it; widths and
 * paths are the spec's (its own 70,000 and 256 examples, 1234067 → x001/x234/067); roots and
 * proofs read from tiles equal MerkleTree's and verify; a changed tile byte breaks them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import {
  leafHash,
  MerkleTree,
  rootOf,
  verifyConsistency,
  verifyInclusion,
} from '../../src/core/evidence/merkle/index.js';
import {
  entryBundle,
  entryBundlePath,
  hashTilePath,
  parseEntryBundle,
  parseTilePath,
  tileBytes,
  tileIndexPath,
  tileWidth,
  treeBundles,
  treeTiles,
  type Tile,
} from '../../src/core/evidence/merkle/tiles.js';
import {
  consistencyProofFrom,
  consistencyTiles,
  inclusionProofFrom,
  inclusionTiles,
  rootTiles,
  tileHashReader,
  treeHashFrom,
} from '../../src/core/evidence/merkle/tile-proofs.js';

const entry = (i: number) => createHash('sha256').update(`entry ${i}`).digest();
const leaves = (n: number) => Array.from({ length: n }, (_, i) => leafHash(entry(i)));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Tiles of a tree by path, as a server would hold them. */
function tileStore(tree: MerkleTree): Map<string, Uint8Array> {
  return new Map(treeTiles(tree.size).map((t) => [hashTilePath(t), tileBytes(tree, t)]));
}

describe('tile coordinates and paths', () => {
  it('writes N as the spec does', () => {
    assert.equal(tileIndexPath(0), '000');
    assert.equal(tileIndexPath(67), '067');
    assert.equal(tileIndexPath(1000), 'x001/000');
    assert.equal(tileIndexPath(1234067), 'x001/x234/067');
    assert.equal(hashTilePath({ level: 2, index: 1234067, width: 256 }), 'tile/2/x001/x234/067');
    assert.equal(hashTilePath({ level: 0, index: 5, width: 17 }), 'tile/0/005.p/17');
    assert.equal(entryBundlePath({ level: 0, index: 1000, width: 3 }), 'tile/entries/x001/000.p/3');
    assert.throws(() => entryBundlePath({ level: 1, index: 0, width: 256 }), RangeError);
    assert.throws(() => hashTilePath({ level: 0, index: 0, width: 0 }), RangeError);
  });

  it('parses only the canonical spelling', () => {
    assert.deepEqual(parseTilePath('tile/0/x001/x234/067'), {
      kind: 'hash',
      tile: { level: 0, index: 1234067, width: 256 },
    });
    assert.deepEqual(parseTilePath('tile/entries/001.p/255'), {
      kind: 'entries',
      tile: { level: 0, index: 1, width: 255 },
    });
    assert.deepEqual(parseTilePath('tile/63/000.p/1'), { kind: 'hash', tile: { level: 63, index: 0, width: 1 } });
    for (const bad of [
      'tile/0/1',
      'tile/0/0001',
      'tile/00/000',
      'tile/64/000',
      'tile/0/x000/001',
      'tile/0/001.p/256',
      'tile/0/001.p/0',
      'tile/0/001.p/07',
      'tile/0/x001',
      'tile/0/001/',
      'tile/8/0/000',
      'tile/data/000',
      'tile/entries/x001/x002/x003/x004/x005/x006/007',
    ])
      assert.equal(parseTilePath(bad), undefined, bad);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 63 }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.integer({ min: 1, max: 256 }),
        (level, index, width) => {
          const t = { level, index, width };
          assert.deepEqual(parseTilePath(hashTilePath(t)), { kind: 'hash', tile: t });
        },
      ),
    );
  });

  it("gives the spec's example sizes their tiles", () => {
    const count = (tiles: Tile[], level: number) => tiles.filter((t) => t.level === level);
    const t70k = treeTiles(70_000);
    assert.equal(count(t70k, 0).filter((t) => t.width === 256).length, 273);
    assert.deepEqual(
      count(t70k, 0).filter((t) => t.width < 256),
      [{ level: 0, index: 273, width: 112 }],
    );
    assert.deepEqual(count(t70k, 1), [
      { level: 1, index: 0, width: 256 },
      { level: 1, index: 1, width: 17 },
    ]);
    assert.deepEqual(count(t70k, 2), [{ level: 2, index: 0, width: 1 }]);
    assert.equal(t70k.length, 273 + 1 + 2 + 1);
    assert.deepEqual(treeTiles(256), [
      { level: 0, index: 0, width: 256 },
      { level: 1, index: 0, width: 1 },
    ]);
    assert.deepEqual(treeTiles(0), []);
    assert.deepEqual(treeTiles(1), [{ level: 0, index: 0, width: 1 }]);
    assert.equal(treeBundles(70_000).length, 274);
    assert.equal(tileWidth(70_000, 0, 274), 0);
    assert.equal(tileWidth(70_000, 3, 0), 0);
  });
});

describe('tile bytes from the stored tree', () => {
  it('every tile hash is the MTH of its range (rfc6962.ts), full and partial', () => {
    for (const n of [1, 2, 255, 256, 257, 511, 512, 600, 65_536 + 300]) {
      const hs = leaves(n);
      const tree = new MerkleTree(hs);
      for (const t of treeTiles(n)) {
        const bytes = tileBytes(tree, t);
        assert.equal(bytes.length, t.width * 32);
        const span = 256 ** t.level;
        // Checking every hash of level 0 is the leaves themselves; sample higher levels fully.
        for (let i = 0; i < t.width; i++) {
          const lo = (t.index * 256 + i) * span;
          const want = t.level === 0 ? hs[lo]! : rootOf(hs.slice(lo, lo + span));
          assert.equal(
            hex(bytes.subarray(i * 32, (i + 1) * 32)),
            hex(want),
            `n=${n} tile ${hashTilePath(t)} hash ${i}`,
          );
        }
      }
    }
  });

  it('refuses a hash that is not a complete subtree', () => {
    const tree = new MerkleTree(leaves(300));
    assert.throws(() => tree.hashes(8, 0, 2), RangeError);
    assert.throws(() => tree.hashes(0, 299, 2), RangeError);
    assert.equal(tree.hashes(8, 0, 1).length, 32);
  });
});

describe('proofs from tiles', () => {
  it('root, inclusion and consistency from tiles equal MerkleTree and verify', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1200 }), fc.nat(), fc.nat(), (n, a, b) => {
        const tree = new MerkleTree(leaves(n));
        const store = tileStore(tree);
        const read = tileHashReader(n, (t) => store.get(hashTilePath(t)));
        const root = tree.root();
        assert.equal(hex(treeHashFrom(read, n)), hex(root));
        for (const t of rootTiles(n)) assert.ok(store.has(hashTilePath(t)));
        const i = a % n;
        const proof = inclusionProofFrom(read, i, n);
        assert.deepEqual(proof.map(hex), tree.inclusionProof(i).map(hex));
        assert.equal(verifyInclusion(tree.leafHash(i), i, n, proof, root).ok, true);
        const m = b % (n + 1);
        const cons = consistencyProofFrom(read, m, n);
        assert.deepEqual(cons.map(hex), tree.consistencyProof(m).map(hex));
        if (m > 0) {
          const oldRoot = new MerkleTree(leaves(m)).root();
          assert.equal(verifyConsistency(m, n, cons, oldRoot, root).ok, true);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('past two tile levels (70,000 and 65,536 ± 1 leaves) too', () => {
    for (const n of [65_535, 65_536, 65_537, 70_000]) {
      const tree = new MerkleTree(leaves(n));
      const store = tileStore(tree);
      const read = tileHashReader(n, (t) => store.get(hashTilePath(t)));
      assert.equal(hex(treeHashFrom(read, n)), hex(tree.root()), `root n=${n}`);
      for (const i of [0, 255, 256, 65_535, n - 1].filter((x) => x < n))
        assert.deepEqual(
          inclusionProofFrom(read, i, n).map(hex),
          tree.inclusionProof(i).map(hex),
          `inclusion ${i} n=${n}`,
        );
      for (const m of [1, 256, 300, 65_535, 65_536, n - 1].filter((x) => x <= n))
        assert.deepEqual(
          consistencyProofFrom(read, m, n).map(hex),
          tree.consistencyProof(m).map(hex),
          `consistency ${m} n=${n}`,
        );
    }
  });

  it('reads O(log n) tiles for a proof', () => {
    const n = 1_000_000;
    // At most two tiles per level (the path's own and the right edge), 3 levels at 10^6.
    assert.equal(inclusionTiles(123_456, n).length, 5);
    assert.equal(consistencyTiles(n - 1000, n).length, 4);
    assert.deepEqual(rootTiles(n), [
      { level: 2, index: 0, width: 15 },
      { level: 1, index: 15, width: 66 },
      { level: 0, index: 3906, width: 64 },
    ]);
    for (const t of inclusionTiles(123_456, n)) assert.equal(t.width, tileWidth(n, t.level, t.index));
  });

  it('a changed tile byte makes a proof through it fail', () => {
    const n = 70_000;
    const tree = new MerkleTree(leaves(n));
    const store = tileStore(tree);
    const i = 12_345;
    const [leafTile] = inclusionTiles(i, n);
    const tampered = new Uint8Array(store.get(hashTilePath(leafTile!))!);
    const at = ((i % 256) ^ 1) * 32; // the leaf's sibling
    tampered[at] = tampered[at]! ^ 1;
    const read = tileHashReader(n, (t) =>
      hashTilePath(t) === hashTilePath(leafTile!) ? tampered : store.get(hashTilePath(t)),
    );
    // The root reads the right edge only (level-2 and level-1 tiles): untouched by this tile.
    assert.equal(hex(treeHashFrom(read, n)), hex(tree.root()));
    assert.equal(verifyInclusion(tree.leafHash(i), i, n, inclusionProofFrom(read, i, n), tree.root()).ok, false);
    // A changed byte of a right-edge tile changes the root.
    const edge = hashTilePath(rootTiles(n)[1]!);
    const bad = new Uint8Array(store.get(edge)!);
    bad[0] = bad[0]! ^ 1;
    const readEdge = tileHashReader(n, (t) => (hashTilePath(t) === edge ? bad : store.get(hashTilePath(t))));
    assert.notEqual(hex(treeHashFrom(readEdge, n)), hex(tree.root()));
    assert.throws(() => tileHashReader(n, () => new Uint8Array(31))({ level: 0, index: 0 }), RangeError);
  });
});

describe('entry bundles', () => {
  it('length-prefixes each entry and parses back', () => {
    const es = [entry(0), new Uint8Array(0), new Uint8Array(300).fill(7)];
    const b = entryBundle(es);
    assert.equal(b.length, 2 + 32 + 2 + 0 + 2 + 300);
    assert.deepEqual([...b.subarray(0, 2)], [0, 32]);
    assert.deepEqual([...b.subarray(36, 38)], [1, 44]);
    assert.deepEqual(parseEntryBundle(b).map(hex), es.map(hex));
    assert.throws(() => parseEntryBundle(b.subarray(0, b.length - 1)), RangeError);
    assert.throws(() => parseEntryBundle(new Uint8Array([0])), RangeError);
    assert.throws(() => entryBundle([new Uint8Array(65_536)]), RangeError);
  });
});
