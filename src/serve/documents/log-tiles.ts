/**
 * `/log/tile/*`: the card log's C2SP tlog-tiles, hash tiles and entry bundles (src/serve/log-tiles.ts),
 * as prepared bytes. A path the log publishes no tile at (a malformed one, a tile past the
 * log's size, a partial width no checkpoint had) is a 404 `tile_not_found`.
 */
import { GspcError } from '../../core/errors.js';
import { IMMUTABLE, logTiles } from '../log-tiles.js';
import { CACHE_CONTROL } from '../prepared-bytes.js';
import { prepared, type DocumentEntry } from './document.js';

export const logTileDocument: DocumentEntry = {
  id: 'log-tile',
  route: '/log/tile/*',
  query: null,
  schema: null,
  cache: {
    kind: 'release',
    // Two rules, so a template (with `<`): the registry test then reads each tile's own header.
    cacheControl: `${IMMUTABLE} for a full tile; ${CACHE_CONTROL} for a partial one (.p/<W>)`,
  },
  paths: (current) => logTiles(current.release).paths(),
  read: (ctx, req) => {
    const tile = logTiles(ctx.state.current().release).read(req.path);
    if (tile === undefined)
      throw new GspcError(
        'tile_not_found',
        `${req.path}: this log publishes no such tile; tiles are /log/tile/<L>/<N>[.p/<W>] and /log/tile/entries/<N>[.p/<W>] (c2sp.org/tlog-tiles) for its checkpoints' sizes`,
      );
    return prepared(tile);
  },
};
