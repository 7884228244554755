/**
 * `GET /api/models?axis=<slug>`: every model of one model-comparison axis, every pair tested,
 * tie groups, the size of each difference and what each pair could have seen
 * (`svc.gspc-models/0.1`, src/core/board/models-document.ts; issue 29). Built once per served
 * release and axis, on first request, then served as prepared bytes like the board.
 */
import { modelsDocument } from '../../core/board/models-document.js';
import { GspcError } from '../../core/errors.js';
import { CACHE_CONTROL, prepare, type Prepared } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';
import { perRelease, prepared, type DocumentEntry } from './document.js';

const comparisonAxes = (p: PreparedRelease) =>
  p.release.corpus.definitions.filter((d) => d.kind === 'model-comparison').map((d) => d.axis);

const perAxis = perRelease(() => new Map<string, Prepared>());

function documentFor(p: PreparedRelease, axis: string): Prepared {
  const cache = perAxis(p);
  let bytes = cache.get(axis);
  if (bytes === undefined) {
    const def = p.release.corpus.definitions.find((d) => d.axis === axis);
    if (def?.kind !== 'model-comparison')
      throw new GspcError('unknown_axis', 'unknown axis', { known: comparisonAxes(p) });
    const doc = modelsDocument(def, p.release.corpus.tables.get(axis), p.release.corpus.meta.own_models);
    bytes = prepare(Buffer.from(JSON.stringify(doc)), 'application/json; charset=utf-8');
    cache.set(axis, bytes);
  }
  return bytes;
}

export const modelsDocumentEntry: DocumentEntry = {
  id: 'models',
  route: '/api/models',
  query: ['axis'],
  schema: 'svc.gspc-models/0.1',
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  paths: (p) => comparisonAxes(p).map((a) => `/api/models?axis=${a}`),
  read: (ctx, req) => {
    const axis = req.query.get('axis');
    const current = ctx.state.current();
    if (axis === undefined)
      throw new GspcError('bad_query', 'axis: required (a model-comparison axis slug)', {
        known: comparisonAxes(current),
      });
    return prepared(documentFor(current, axis));
  },
};
