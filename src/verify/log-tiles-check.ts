/**
 * `gspc verify <url>`, the log's tiles (issue 42, item 3; decision MT9): a view that serves the
 * log as C2SP tlog-tiles must serve the log its checkpoint signs and `/log/entries.json` lists.
 * The tiles of the right edge must give the root (O(log n) tiles), and the last entry bundle
 * must hold the last entries of `/log/entries.json`. A view without tiles passes, and the check
 * says so: an older release or a mirror exported before tiles is checked from its entries alone.
 * The other tiles are not read: checking them all would read the whole log again.
 */
import { TILE_WIDTH } from '../core/evidence/merkle/tiles.js';
import { LogTileReader } from './log-tile-reader.js';
import type { ReleaseSource } from './release-source.js';

type Add = (check: string, ok: boolean, detail: string) => boolean;

export async function checkLogTiles(
  src: ReleaseSource,
  entries: readonly string[],
  root: Uint8Array,
  add: Add,
): Promise<void> {
  const size = entries.length;
  if (size === 0) return;
  const reader = new LogTileReader(async (path, max) => {
    const bytes = await src.get(path);
    return bytes === undefined || bytes.length > max ? bytes?.subarray(0, max + 1) : bytes;
  });
  const r = await reader.root(size, root);
  if (!r.ok && /^\/log\/tile\/\S+ is not served$/.test(r.detail) && reader.reads.bytes === 0) {
    add(
      'log_tiles',
      true,
      'the view serves no tiles (an older release, or a mirror exported before them): the log is checked from /log/entries.json alone',
    );
    return;
  }
  if (!r.ok) {
    add('log_tiles', false, `the tiles are not the signed log: ${r.detail}`);
    return;
  }
  const tiles = reader.reads.requests;
  const from = Math.floor((size - 1) / TILE_WIDTH) * TILE_WIDTH;
  const last = await reader.entries(from, size);
  if (typeof last === 'string') {
    add('log_tiles', false, `the last entry bundle: ${last}`);
    return;
  }
  const differs = last.findIndex((e, i) => Buffer.from(e).toString('hex') !== entries[from + i]);
  add(
    'log_tiles',
    differs < 0,
    differs < 0
      ? `the tiles of the right edge give the checkpoint's root (${tiles} tiles) and the last bundle holds the last ${last.length} entries of /log/entries.json`
      : `entry ${from + differs} of the last bundle is not /log/entries.json's`,
  );
}
