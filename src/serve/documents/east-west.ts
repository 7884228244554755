/**
 * `GET /api/east-west-bench`: the east-west bench (`svc.east-west-bench/0.1`), derived from the
 * served release's per-item rows with the board's ranking and statistics. A function of the
 * release only: derived once per release and served as prepared bytes with an ETag. Without
 * `status/east-west.json`: 200 with null axes and the reason.
 */
import { eastWestBench } from '../../core/status/east-west-bench.js';
import { JSON_TYPE } from '../headers.js';
import { CACHE_CONTROL, prepare } from '../prepared-bytes.js';
import { perRelease, prepared, type DocumentEntry } from './document.js';

const bytesOf = perRelease((p) => {
  const { corpus } = p.release;
  const doc = eastWestBench(corpus.status.eastWest, {
    as_of: corpus.meta.as_of,
    own_models: corpus.meta.own_models,
    definitions: corpus.definitions,
    tables: corpus.tables,
  });
  return prepare(Buffer.from(JSON.stringify(doc)), JSON_TYPE);
});

export const eastWestDocument: DocumentEntry<ReturnType<typeof eastWestBench>> = {
  id: 'east-west-bench',
  route: '/api/east-west-bench',
  query: [],
  schema: 'svc.east-west-bench/0.1',
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  paths: () => ['/api/east-west-bench'],
  read: (ctx) => prepared(bytesOf(ctx.state.current())),
};
