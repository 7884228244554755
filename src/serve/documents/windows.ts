/**
 * `GET /api/windows?axis=<slug>` (`svc.gspc-windows/0.1`, src/core/board/windows-document.ts;
 * issue 41 item 3): every pair of an axis tested on the items dated after both models' knowledge
 * cutoffs, each model's accuracy after its own, and the leader's lead there beside its lead on the
 * whole axis. Read beside the full-axis document `/api/models?axis=` serves (modelsDocumentOf),
 * never derived again. Built as /api/models is (decision CW6): once per corpus and axis, in slices
 * of at most 10 ms between which the event loop serves other requests, readers of one axis sharing
 * one build, a build that throws dropped so the next reader starts again; then served as prepared
 * bytes (ETag, 304, mirrored by gspc export static: CW7). An axis without per-item rows has no
 * item to date or pair: 404 `not_found`, as /api/items (CW8).
 */
import { WINDOWS_SCHEMA, windowsDocumentSteps, type WindowsDocument } from '../../core/board/windows-document.js';
import type { ModelComparisonAxis } from '../../core/board/model.js';
import { GspcError } from '../../core/errors.js';
import { MODEL_CARDS_PATH } from '../../corpus/model-cards.js';
import { CACHE_CONTROL, type Prepared } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';
import { axisBytesCache } from './axis-bytes-cache.js';
import { prepared, type DocumentEntry } from './document.js';
import { comparisonAxes, modelsDocumentOf, requiredAxis } from './models.js';
import { driveInSlices, pairsLastBytes } from './sliced-build.js';

/** The axes with per-item rows: those a window document exists for. */
const rowAxes = (p: PreparedRelease) => comparisonAxes(p).filter((a) => p.release.corpus.tables.has(a));

async function build(p: PreparedRelease, axis: string): Promise<Prepared> {
  const { corpus } = p.release;
  const def = corpus.definitions.find((d) => d.axis === axis)!;
  const full = await modelsDocumentOf(p, axis);
  const file = corpus.files.find((f) => f.path === MODEL_CARDS_PATH);
  return driveInSlices(
    (function* () {
      const doc = yield* windowsDocumentSteps(
        def as ModelComparisonAxis,
        corpus.tables.get(axis),
        full,
        corpus.modelCards,
        file === undefined ? null : `/peritem/${MODEL_CARDS_PATH}`,
      );
      return yield* pairsLastBytes(doc);
    })(),
  );
}

const cached = axisBytesCache(build);

/** The axis's bytes: at once when built, else when its build (and its /api/models document) ends. */
export function bytesFor(p: PreparedRelease, axis: string): Prepared | Promise<Prepared> {
  const def = p.release.corpus.definitions.find((d) => d.axis === axis);
  if (def?.kind !== 'model-comparison')
    throw new GspcError('unknown_axis', 'unknown axis', { known: comparisonAxes(p) });
  if (!p.release.corpus.tables.has(axis))
    throw new GspcError(
      'not_found',
      `axis ${axis} publishes no per-item rows: no item to date or pair, so no contamination window`,
      { known: rowAxes(p) },
    );
  return cached(p, axis);
}

export const windowsDocumentEntry: DocumentEntry<WindowsDocument> = {
  id: 'windows',
  route: '/api/windows',
  query: ['axis'],
  schema: WINDOWS_SCHEMA,
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  paths: (p) => rowAxes(p).map((a) => `/api/windows?axis=${a}`),
  read: (ctx, req) => {
    const current = ctx.state.current();
    const axis = requiredAxis(req.query, current);
    const bytes = bytesFor(current, axis);
    return bytes instanceof Promise ? bytes.then(prepared) : prepared(bytes);
  },
};
