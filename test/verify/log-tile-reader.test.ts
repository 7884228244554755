/**
 * Reading a log through its C2SP tlog-tiles (issue 42, item 3): on a 1,000,000-entry log, a poll
 * after 1,000 new entries reads O(log n) tiles (counted), an unchanged log reads none, a card's
 * inclusion reads at most two tiles a level; a changed or missing tile fails the proof; and the reader
 * checks the tiles this service serves against its signed checkpoint. A tree of n entries has
 * ceil(log256 n) tile levels (3 here); a proof reads at most two tiles a level.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { leafHash } from '../../src/core/evidence/merkle/hash.js';
import { MerkleTree } from '../../src/core/evidence/merkle/merkle-tree.js';
import { rangeHash, type Subtree } from '../../src/core/evidence/merkle/tile-proofs.js';
import { parseTilePath, tileBytes, tileWidth } from '../../src/core/evidence/merkle/tiles.js';
import { buildApp } from '../../src/app.js';
import { ServedState } from '../../src/serve/served-state.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { LogTileReader, type TileGet } from '../../src/verify/log-tile-reader.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';

const N = 1_000_000;
// Synthetic entries (32 bytes, distinct), hashed as the card log hashes its entries.
const entry = (i: number) => {
  const e = new Uint8Array(32);
  new DataView(e.buffer).setUint32(0, i);
  return e;
};
const leaves = new Uint8Array(N * 32);
for (let i = 0; i < N; i++) leaves.set(leafHash(entry(i)), i * 32);
const tree = new MerkleTree(leaves);
/** The root of the first `size` leaves, from the stored tree's complete subtrees (no rehashing). */
const rootAt = (size: number) => rangeHash((s: Subtree) => tree.hashes(s.level, s.index, 1), 0, size);

/** The tiles of the tree's first `size` entries, as a tlog-tiles server serves them. */
function served(size: number, change?: (path: string, b: Uint8Array) => Uint8Array | undefined): TileGet {
  return async (path) => {
    const a = path.startsWith('/log/') ? parseTilePath(path.slice(5)) : undefined;
    if (a === undefined || a.kind !== 'hash') return undefined;
    const t = a.tile;
    if (t.index * 256 * 256 ** t.level >= size || tileWidth(size, t.level, t.index) !== t.width) return undefined;
    const bytes = Buffer.from(tileBytes(tree, t));
    return change ? change(path, bytes) : bytes;
  };
}

describe('log tile reader (1,000,000 entries)', () => {
  it('a poll after 1,000 new entries reads a handful of tiles, well under 100 kB; an unchanged log reads none', async () => {
    const reader = new LogTileReader(served(N));
    const same = await reader.consistency(N, rootAt(N), N, rootAt(N));
    assert.ok(same.ok);
    assert.equal(reader.reads.requests, 0);
    const r = await reader.consistency(N - 1000, rootAt(N - 1000), N, rootAt(N));
    assert.ok(r.ok, r.detail);
    // log256(10^6) < 3 levels: at most two tiles a level around the old and new right edges.
    assert.ok(reader.reads.requests <= 6, `${reader.reads.requests} tiles: ${reader.reads.paths.join(' ')}`);
    assert.ok(reader.reads.bytes < 100_000, `${reader.reads.bytes} bytes`);
    // Growing with log n, not n: the same poll on a log 100 times smaller reads as many tiles or fewer.
    const small = new LogTileReader(served(10_000));
    assert.ok((await small.consistency(9_000, rootAt(9_000), 10_000, rootAt(10_000))).ok);
    assert.ok(small.reads.requests <= reader.reads.requests);
  });

  it("a card's inclusion reads at most two tiles a level (its own side and the right edge); a neighbour's reuses the tiles that held", async () => {
    const reader = new LogTileReader(served(N));
    const ok = await reader.inclusion(123_456, entry(123_456), N, rootAt(N));
    assert.ok(ok.ok, ok.detail);
    const first = reader.reads.requests;
    assert.ok(first <= 6, `${first} tiles: ${reader.reads.paths.join(' ')}`);
    assert.ok((await reader.inclusion(123_457, entry(123_457), N, rootAt(N))).ok);
    assert.equal(reader.reads.requests, first, 'the same tiles, kept');
    assert.ok((await reader.root(N, rootAt(N))).ok);
    assert.ok(reader.reads.requests <= first + 6);
    // Another entry at that index, or the right entry under another root, is refused.
    assert.equal((await reader.inclusion(123_456, entry(7), N, rootAt(N))).ok, false);
    assert.equal((await reader.inclusion(123_456, entry(123_456), N, rootAt(N - 1))).ok, false);
    assert.equal((await reader.inclusion(N, entry(N), N, rootAt(N))).ok, false);
  });

  it('a changed byte in a tile, a tile of the wrong length, or a missing one fails the check with its path', async () => {
    let target = '';
    const flip = served(N, (path, b) => {
      if (target === '') target = path;
      if (path === target) b[5] = b[5]! ^ 1;
      return b;
    });
    const r = await new LogTileReader(flip).consistency(N - 1000, rootAt(N - 1000), N, rootAt(N));
    assert.equal(r.ok, false);
    assert.match(r.detail, /consistency proof from size 999000 read from the tiles fails/);
    const short = await new LogTileReader(served(N, (_p, b) => b.subarray(1))).root(N, rootAt(N));
    assert.equal(short.ok, false);
    assert.match(short.detail, /^\/log\/tile\/\S+ has \d+ bytes, not \d+$/);
    const none = await new LogTileReader(async () => undefined).consistency(10, rootAt(10), N, rootAt(N));
    assert.equal(none.ok, false);
    assert.match(none.detail, /is not served/);
    // The root verified before, given wrong: the tiles cannot make it right.
    const forked = await new LogTileReader(served(N)).consistency(N - 1000, rootAt(N - 999), N, rootAt(N));
    assert.equal(forked.ok, false);
  });
});

describe('log tile reader over this service', () => {
  const signing = testSigning();
  const { dir } = publishRelease(demoCopy(), tempDir(), signing.inputs);
  const app = buildApp({ state: new ServedState(loadRelease(dir), liveSigning(signing)), logLevel: 'silent' });
  after(() => app.close());
  const get: TileGet = async (path) => {
    const r = await app.inject({ method: 'GET', url: path });
    return r.statusCode === 200 ? r.rawPayload : undefined;
  };

  it("the served tiles give the checkpoint's root and each entry's inclusion", async () => {
    const cp = (await app.inject({ method: 'GET', url: '/log/checkpoint' })).body.split('\n');
    const size = Number(cp[1]);
    const root = Buffer.from(cp[2]!, 'base64');
    const { entries } = (await app.inject({ method: 'GET', url: '/log/entries.json' })).json() as { entries: string[] };
    assert.equal(entries.length, size);
    const reader = new LogTileReader(get);
    const r = await reader.root(size, root);
    assert.ok(r.ok, r.detail);
    for (const [i, e] of entries.entries()) {
      const v = await reader.inclusion(i, Buffer.from(e, 'hex'), size, root);
      assert.ok(v.ok, `${i}: ${v.detail}`);
    }
    assert.equal((await reader.inclusion(0, Buffer.from(entries[1]!, 'hex'), size, root)).ok, false);
  });
});
