/**
 * The card log served as C2SP tlog-tiles (src/serve/log-tiles.ts, /log/tile/*): which tiles a
 * log publishes (its own and its earlier checkpoints' partial tiles), their bytes against the
 * stored tree and the entries, the cache headers (a full tile immutable for a year, a partial
 * one 300 s), and over HTTP: octet-stream, ETag and 304, a 404 `tile_not_found` for every path
 * the log publishes nothing at.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { logLeaves } from '../../src/core/evidence/card-log.js';
import { leafHash, MerkleTree } from '../../src/core/evidence/merkle/index.js';
import { parseEntryBundle, parseTilePath, tileBytes } from '../../src/core/evidence/merkle/tiles.js';
import type { LoadedRelease } from '../../src/release/load.js';
import { IMMUTABLE, logTiles } from '../../src/serve/log-tiles.js';
import { demoApp } from '../helpers/app.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** A release as far as its log goes: `n` synthetic entries and earlier checkpoints of `sizes`. */
function fakeRelease(n: number, sizes: number[]): LoadedRelease {
  const entries = Array.from({ length: n }, (_, i) => createHash('sha256').update(`card ${i}`).digest('hex'));
  const history = sizes.map((tree_size) => ({ tree_size, root_hash: '', checkpoint: '', consistency_proof: [] }));
  return {
    evidence: { log: { origin: 'example.test/log', entries, history, checkpoint: 'x' } },
  } as unknown as LoadedRelease;
}

describe('the tiles a log publishes', () => {
  const release = fakeRelease(70_000, [300, 69_990]);
  const tiles = logTiles(release);
  const paths = tiles.paths();
  const entries = release.evidence.log.entries;
  const tree = new MerkleTree(logLeaves(entries));

  it('lists its own tiles and the partial tiles of earlier checkpoints that have not filled', () => {
    // 70,000: 273 full level-0 tiles + .p/112, level 1: full + .p/17, level 2: .p/1 (the spec's example).
    const hash = paths.filter((p) => !p.startsWith('/log/tile/entries/'));
    const bundles = paths.filter((p) => p.startsWith('/log/tile/entries/'));
    assert.ok(hash.includes('/log/tile/0/273.p/112'));
    assert.ok(hash.includes('/log/tile/1/001.p/17'));
    assert.ok(hash.includes('/log/tile/2/000.p/1'));
    assert.ok(hash.includes('/log/tile/0/272'));
    // 69,990's level-0 partial (tile 273, width 102) is still partial now: kept. 300's (tile 1,
    // width 44) has filled: dropped. Level 1 and 2 of 69,990 are the same widths as now.
    assert.ok(hash.includes('/log/tile/0/273.p/102'));
    assert.ok(!hash.includes('/log/tile/0/001.p/44'));
    assert.equal(hash.length, 273 + 2 + 2 + 1);
    assert.equal(bundles.length, 273 + 2);
    assert.equal(new Set(paths).size, paths.length);
  });

  it('serves each hash tile as the stored tree holds it, each bundle as the entries, with their cache rule', () => {
    for (const path of paths) {
      const p = tiles.read(path);
      assert.ok(p, path);
      assert.equal(p.headers['content-type'], 'application/octet-stream');
      const { kind, tile } = parseTilePath(path.slice('/log/'.length))!;
      assert.equal(p.headers['cache-control'], tile.width === 256 ? IMMUTABLE : 'public, max-age=300', path);
      if (kind === 'hash') assert.equal(hex(p.body), hex(tileBytes(tree, tile)), path);
      else {
        const got = parseEntryBundle(p.body);
        assert.equal(got.length, tile.width);
        got.forEach((e, i) => {
          assert.equal(hex(e), entries[tile.index * 256 + i]);
          assert.equal(hex(leafHash(e)), hex(tree.leafHash(tile.index * 256 + i)));
        });
      }
      assert.equal(tiles.read(path), p, 'prepared once');
    }
  });

  it('publishes nothing at other paths', () => {
    for (const path of [
      '/log/tile/0/274',
      '/log/tile/0/273',
      '/log/tile/0/273.p/111',
      '/log/tile/0/001.p/44',
      '/log/tile/3/000.p/1',
      '/log/tile/entries/273.p/111',
      '/log/tile/0/x000/001',
      '/log/tile/8/0/000',
      '/log/tile/data/000',
      '/log/tile/0/000.p/256',
      '/log/tiles/0/000',
      '/log/tile/0/x009/x007/x199/x254/x740/992',
    ])
      assert.equal(tiles.read(path), undefined, path);
    assert.deepEqual(logTiles(fakeRelease(0, [])).paths(), []);
  });
});

describe('/log/tile/* over HTTP', () => {
  const { app, state } = demoApp();
  const size = state.current().release.evidence.log.entries.length;

  it('answers a tile and a bundle as octet-stream with an ETag, and 304 on a match', async () => {
    assert.ok(size > 0 && size < 256, `the demo log has ${size} entries`);
    const r = await app.inject({ url: `/log/tile/0/000.p/${size}` });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['content-type'], 'application/octet-stream');
    assert.equal(r.headers['cache-control'], 'public, max-age=300');
    assert.equal(r.rawPayload.length, size * 32);
    const leaves = logLeaves(state.current().release.evidence.log.entries);
    assert.equal(hex(r.rawPayload), hex(leaves));
    const again = await app.inject({
      url: `/log/tile/0/000.p/${size}`,
      headers: { 'if-none-match': String(r.headers.etag) },
    });
    assert.equal(again.statusCode, 304);
    const b = await app.inject({ url: `/log/tile/entries/000.p/${size}` });
    assert.equal(b.statusCode, 200);
    assert.equal(b.rawPayload.length, size * 34);
  });

  it('answers 404 tile_not_found as JSON for a tile the log does not publish', async () => {
    for (const url of [
      '/log/tile/0/000',
      `/log/tile/0/000.p/${size + 1}`,
      '/log/tile/1/000.p/1',
      '/log/tile/0/1',
      '/log/tile/entries/000',
      '/log/tile/',
      // An index past 2^53 − 1 (six 3-digit elements reach 10^18 − 1): a 404, not a 500 (R3-1).
      '/log/tile/0/x009/x007/x199/x254/x740/992',
      '/log/tile/0/x999/x999/x999/x999/x999/999',
      '/log/tile/entries/x999/x999/x999/x999/x999/999.p/5',
    ]) {
      const r = await app.inject({ url });
      assert.equal(r.statusCode, 404, url);
      assert.equal(r.json().code, 'tile_not_found', url);
    }
  });
});
