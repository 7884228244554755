/**
 * A reader of a log served as C2SP tlog-tiles (issue 42, item 3), for `gspc monitor` and
 * `gspc verify`: it fetches only the tiles a proof needs (O(log n) for a log of n entries), never
 * the whole log, computes the proof from them (src/core/evidence/merkle/tile-proofs.ts) and checks
 * it against roots the caller took from signed checkpoints. Nothing fetched is trusted: a wrong or
 * missing tile makes the check fail with the path that was read, and only the tiles of a proof
 * that held are kept for the next call (a tile's bytes never change, its width is in its path).
 *
 * A consistency check between equal sizes (an unchanged log) reads no tile at all.
 */
import { bytesEqual, HASH_SIZE, leafHash } from '../core/evidence/merkle/hash.js';
import { verifyConsistency, verifyInclusion } from '../core/evidence/merkle/rfc6962-verify.js';
import {
  consistencyProofFrom,
  consistencyTiles,
  inclusionProofFrom,
  inclusionTiles,
  rootTiles,
  tileHashReader,
  tilesForRanges,
  treeHashFrom,
} from '../core/evidence/merkle/tile-proofs.js';
import { extendPeaks, foldPeaks, peaksOf } from '../core/evidence/merkle/compact-range.js';
import {
  entryBundlePath,
  hashTilePath,
  parseEntryBundle,
  TILE_WIDTH,
  tileWidth,
  type Tile,
} from '../core/evidence/merkle/tiles.js';

/** Fetches a path of the view, at most `maxBytes` (undefined when it is not served). */
export type TileGet = (path: string, maxBytes: number) => Promise<Uint8Array | undefined>;

export type TileCheck = { ok: true; detail: string } | { ok: false; detail: string };

/** What a reader fetched so far: requests, bytes, and the paths (tests count them). */
export interface TileReads {
  requests: number;
  bytes: number;
  paths: string[];
}

export class LogTileReader {
  readonly reads: TileReads = { requests: 0, bytes: 0, paths: [] };
  /** Tiles of proofs that held, by path. */
  readonly #kept = new Map<string, Uint8Array>();

  /** `prefix`: where the log's tiles are, `/log/` for this service (its origin's path). */
  constructor(
    private readonly get: TileGet,
    private readonly prefix = '/log/',
  ) {}

  /** The tiles `tiles`, fetched in parallel (kept ones are not fetched again), or the first problem. */
  async #fetch(tiles: readonly Tile[]): Promise<Map<string, Uint8Array> | string> {
    const out = new Map<string, Uint8Array>();
    const problems: string[] = [];
    await Promise.all(
      tiles.map(async (t) => {
        const path = `${this.prefix}${hashTilePath(t)}`;
        const kept = this.#kept.get(path);
        if (kept !== undefined) {
          out.set(path, kept);
          return;
        }
        this.reads.requests++;
        this.reads.paths.push(path);
        const bytes = await this.get(path, TILE_WIDTH * HASH_SIZE);
        if (bytes === undefined) problems.push(`${path} is not served`);
        else if (bytes.length !== t.width * HASH_SIZE)
          problems.push(`${path} has ${bytes.length} bytes, not ${t.width * HASH_SIZE}`);
        else {
          this.reads.bytes += bytes.length;
          out.set(path, bytes);
        }
      }),
    );
    return problems.length > 0 ? problems.sort()[0]! : out;
  }

  /** Runs `compute` over the fetched tiles; keeps them when `holds` says the result is right. */
  async #with<T>(
    size: number,
    tiles: readonly Tile[],
    compute: (read: ReturnType<typeof tileHashReader>) => T,
    holds: (value: T) => TileCheck,
  ): Promise<TileCheck> {
    const fetched = await this.#fetch(tiles);
    if (typeof fetched === 'string') return { ok: false, detail: fetched };
    let value: T;
    try {
      value = compute(tileHashReader(size, (t) => fetched.get(`${this.prefix}${hashTilePath(t)}`)));
    } catch (e) {
      return { ok: false, detail: `the tiles do not give the proof: ${(e as Error).message}` };
    }
    const verdict = holds(value);
    if (verdict.ok) for (const [path, bytes] of fetched) this.#kept.set(path, bytes);
    return verdict;
  }

  /** The tree of `oldSize` entries with root `oldRoot` is a prefix of the one of `size` with `root`. */
  async consistency(oldSize: number, oldRoot: Uint8Array, size: number, root: Uint8Array): Promise<TileCheck> {
    if (oldSize === size)
      return bytesEqual(oldRoot, root)
        ? { ok: true, detail: `unchanged at size ${size}: no tile read` }
        : { ok: false, detail: `at size ${size} the root differs from the one verified before` };
    if (oldSize > size) return { ok: false, detail: `size ${size} is below the ${oldSize} verified before` };
    const tiles = consistencyTiles(oldSize, size);
    return this.#with(
      size,
      tiles,
      (read) => consistencyProofFrom(read, oldSize, size),
      (proof) => {
        const v = verifyConsistency(oldSize, size, proof, oldRoot, root);
        return v.ok
          ? { ok: true, detail: `consistent from size ${oldSize} to ${size} (${tiles.length} tiles)` }
          : { ok: false, detail: `the consistency proof from size ${oldSize} read from the tiles fails: ${v.reason}` };
      },
    );
  }

  /**
   * The consistency proof from `oldSize` to `size` computed from the tiles, unchecked: for a
   * reader that checks it against a root it holds and this one does not (a witness, MT7).
   * Throws when a tile is not served or is the wrong length.
   */
  async consistencyProof(oldSize: number, size: number): Promise<Uint8Array[]> {
    const fetched = await this.#fetch(consistencyTiles(oldSize, size));
    if (typeof fetched === 'string') throw new Error(fetched);
    return consistencyProofFrom(
      tileHashReader(size, (t) => fetched.get(`${this.prefix}${hashTilePath(t)}`)),
      oldSize,
      size,
    );
  }

  /** Entry `index` of the tree of `size` with root `root` is `entry` (leaf = SHA-256(0x00 ‖ entry)). */
  async inclusion(index: number, entry: Uint8Array, size: number, root: Uint8Array): Promise<TileCheck> {
    if (index >= size) return { ok: false, detail: `index ${index} is not below the size ${size}` };
    const tiles = inclusionTiles(index, size);
    return this.#with(
      size,
      tiles,
      (read) => inclusionProofFrom(read, index, size),
      (proof) => {
        const v = verifyInclusion(leafHash(entry), index, size, proof, root);
        return v.ok
          ? { ok: true, detail: `entry ${index} of ${size} (${tiles.length} tiles)` }
          : { ok: false, detail: `the inclusion proof of entry ${index} read from the tiles fails: ${v.reason}` };
      },
    );
  }

  /** The tiles of a tree of `size` give `root` (its right edge: O(log n) tiles). */
  async root(size: number, root: Uint8Array): Promise<TileCheck> {
    if (size === 0) return { ok: false, detail: 'an empty log has no tiles' };
    return this.#with(
      size,
      rootTiles(size),
      (read) => treeHashFrom(read, size),
      (got) =>
        bytesEqual(got, root)
          ? { ok: true, detail: `the tiles give the root at size ${size}` }
          : { ok: false, detail: `the tiles give another root at size ${size}` },
    );
  }

  /**
   * Entries `from` to `size` − 1 of a tree of `size`, read from the entry bundles that hold them
   * (the first bundle's earlier entries are read and dropped). Not yet authenticated: `grew` checks
   * them against the signed roots. A bundle that is missing, cut, or has another number of entries
   * than its width is the problem returned, with its path.
   */
  async entries(from: number, size: number): Promise<Uint8Array[] | string> {
    if (from >= size) return [];
    const first = Math.floor(from / TILE_WIDTH);
    const last = Math.floor((size - 1) / TILE_WIDTH);
    const bundles: Tile[] = [];
    for (let index = first; index <= last; index++) bundles.push({ level: 0, index, width: tileWidth(size, 0, index) });
    const got = await Promise.all(
      bundles.map(async (t) => {
        const path = `${this.prefix}${entryBundlePath(t)}`;
        this.reads.requests++;
        this.reads.paths.push(path);
        // This log's entries are 32 bytes (TT1), 34 with their length: a bundle is no larger, so
        // a hostile view's 256 bundles cost at most 2.2 MB.
        const bytes = await this.get(path, t.width * (2 + HASH_SIZE));
        if (bytes === undefined) return `${path} is not served`;
        this.reads.bytes += bytes.length;
        let list: Uint8Array[];
        try {
          list = parseEntryBundle(bytes);
        } catch (e) {
          return `${path}: ${(e as Error).message}`;
        }
        return list.length === t.width ? list : `${path} has ${list.length} entries, not ${t.width}`;
      }),
    );
    const problem = got.find((g) => typeof g === 'string');
    if (typeof problem === 'string') return problem;
    return (got as Uint8Array[][]).flat().slice(from - first * TILE_WIDTH);
  }

  /**
   * The tree of `oldSize` with root `oldRoot` grew into the one of `size` with root `root` by
   * exactly `added` (entries `oldSize` to `size` − 1), decision MT2: the old tree's peaks, read
   * from the tiles of the new tree, fold to `oldRoot`, and with the added entries' leaves appended
   * fold to `root`. One check proves the consistency and authenticates every added entry.
   */
  async grew(
    oldSize: number,
    oldRoot: Uint8Array,
    size: number,
    root: Uint8Array,
    added: readonly Uint8Array[],
  ): Promise<TileCheck> {
    if (oldSize + added.length !== size)
      return { ok: false, detail: `${added.length} entries do not take size ${oldSize} to ${size}` };
    const peaks = peaksOf(oldSize);
    return this.#with(
      size,
      oldSize === 0 ? [] : tilesForRanges(size, [[0, oldSize]]),
      (read) => peaks.map(read),
      (hashes) => {
        const before = foldPeaks(hashes);
        if (oldSize > 0 && (before === undefined || !bytesEqual(before, oldRoot)))
          return { ok: false, detail: `the tiles do not give the root verified before at size ${oldSize}` };
        const after = foldPeaks(
          extendPeaks(
            oldSize,
            hashes,
            added.map((e) => leafHash(e)),
          ),
        );
        return after !== undefined && bytesEqual(after, root)
          ? { ok: true, detail: `grew from size ${oldSize} to ${size} by the ${added.length} entries of the bundles` }
          : {
              ok: false,
              detail: `size ${oldSize}'s tree with the ${added.length} entries of the bundles does not give the root signed at ${size}`,
            };
      },
    );
  }
}
