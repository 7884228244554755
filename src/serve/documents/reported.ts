/**
 * `GET /api/reported`: figures reported by others (`svc.reported-figures/0.1`), labelled
 * REPORTED and never MEASURED. A function of the served release only: built once per release
 * and served as prepared bytes with an ETag and the board's cache lifetime. Without a corpus
 * file: 200 with `figures: null` and the reason.
 */
import { reportedFigures } from '../../core/status/reported-figures.js';
import { JSON_TYPE } from '../headers.js';
import { CACHE_CONTROL, prepare } from '../prepared-bytes.js';
import { perRelease, prepared, type DocumentEntry } from './document.js';

const bytesOf = perRelease((p) =>
  prepare(Buffer.from(JSON.stringify(reportedFigures(p.release.corpus.status.reported))), JSON_TYPE),
);

export const reportedDocument: DocumentEntry<ReturnType<typeof reportedFigures>> = {
  id: 'reported',
  route: '/api/reported',
  query: [],
  schema: 'svc.reported-figures/0.1',
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  paths: () => ['/api/reported'],
  read: (ctx) => prepared(bytesOf(ctx.state.current())),
};
