/**
 * `GET /api/usage?axis=<slug>`: tokens and latency per model on one model-comparison axis, with
 * coverage and 95% intervals (`svc.gspc-usage/0.1`, src/core/board/usage.ts; issue 40 item 3).
 * Built once per served release and axis, on the first request, then served as prepared bytes.
 * Keyless and read-only, like `/api/models`; the board is not touched.
 */
import { USAGE_SCHEMA, usageDocument } from '../../core/board/usage.js';
import { GspcError } from '../../core/errors.js';
import { CACHE_CONTROL, prepare, type Prepared } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';
import { perRelease, prepared, type DocumentEntry } from './document.js';
import { comparisonAxes, requiredAxis } from './models.js';

const perAxis = perRelease(() => new Map<string, Prepared>());

function bytesFor(p: PreparedRelease, axis: string): Prepared {
  const cache = perAxis(p);
  let bytes = cache.get(axis);
  if (bytes === undefined) {
    const def = p.release.corpus.definitions.find((d) => d.axis === axis);
    if (def?.kind !== 'model-comparison')
      throw new GspcError('unknown_axis', 'unknown axis', { known: comparisonAxes(p) });
    const doc = usageDocument(def, p.release.corpus.tables.get(axis), p.release.corpus.meta.own_models);
    bytes = prepare(Buffer.from(JSON.stringify(doc)), 'application/json; charset=utf-8');
    cache.set(axis, bytes);
  }
  return bytes;
}

export const usageDocumentEntry: DocumentEntry = {
  id: 'usage',
  route: '/api/usage',
  query: ['axis'],
  schema: USAGE_SCHEMA,
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  paths: (p) => comparisonAxes(p).map((a) => `/api/usage?axis=${a}`),
  read: (ctx, req) => {
    const current = ctx.state.current();
    const axis = requiredAxis(req.query, current);
    return prepared(bytesFor(current, axis));
  },
};
