/**
 * `GET /api/cost?axis=<slug>` (`svc.gspc-cost/0.2`, src/core/board/cost-document.ts; issue 40
 * item 4): per model the price that applies and what its responses cost, with 95% intervals;
 * which models are dominated; the models not separated from the leader with their cost, and the
 * cheapest of them. Accuracy, ranks and the SEPARATED pairs are read from the same per-release
 * document `/api/models?axis=` serves (modelsDocumentOf), never derived again. Built once per
 * served release and axis, then served as prepared bytes (ETag, mirrored by gspc export static).
 * Keyless and read-only; the board is not touched.
 */
import { COST_SCHEMA, costDocument, type CostDocument } from '../../core/board/cost-document.js';
import { GspcError } from '../../core/errors.js';
import { PRICES_PATH } from '../../corpus/prices.js';
import { JSON_TYPE } from '../headers.js';
import { CACHE_CONTROL, prepare, type Prepared } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';
import { axisBytesCache } from './axis-bytes-cache.js';
import { prepared, type DocumentEntry } from './document.js';
import { comparisonAxes, modelsDocumentOf, requiredAxis } from './models.js';

async function build(p: PreparedRelease, axis: string): Promise<Prepared> {
  const { corpus } = p.release;
  const def = corpus.definitions.find((d) => d.axis === axis);
  if (def?.kind !== 'model-comparison')
    throw new GspcError('unknown_axis', 'unknown axis', { known: comparisonAxes(p) });
  const models = await modelsDocumentOf(p, axis);
  const file = corpus.files.find((f) => f.path === PRICES_PATH);
  const doc: CostDocument = costDocument(
    def,
    corpus.tables.get(axis),
    models,
    corpus.prices,
    corpus.meta.as_of,
    file === undefined ? null : { url: `/peritem/${PRICES_PATH}`, sha256: file.sha256 },
  );
  return prepare(Buffer.from(JSON.stringify(doc)), JSON_TYPE);
}

const cached = axisBytesCache(build);

/** The axis's bytes: at once when built, else when its build (and its /api/models document) ends. */
function bytesFor(p: PreparedRelease, axis: string): Prepared | Promise<Prepared> {
  const def = p.release.corpus.definitions.find((d) => d.axis === axis);
  if (def?.kind !== 'model-comparison')
    throw new GspcError('unknown_axis', 'unknown axis', { known: comparisonAxes(p) });
  return cached(p, axis);
}

export const costDocumentEntry: DocumentEntry<CostDocument> = {
  id: 'cost',
  route: '/api/cost',
  query: ['axis'],
  schema: COST_SCHEMA,
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  paths: (p) => comparisonAxes(p).map((a) => `/api/cost?axis=${a}`),
  read: (ctx, req) => {
    const current = ctx.state.current();
    const axis = requiredAxis(req.query, current);
    const bytes = bytesFor(current, axis);
    return bytes instanceof Promise ? bytes.then(prepared) : prepared(bytes);
  },
};
