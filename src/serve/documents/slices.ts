/**
 * An axis's slices (issue 41 item 2): `GET /api/models?axis=&slice=<tag>` (the every-model
 * document of the tag's items, src/core/board/slice-family.ts) and `GET /api/slices?axis=` (every
 * tag with its leader and letters, `svc.gspc-slices/0.1`). Every slice of an axis shares one Holm
 * family, so the slices are built together: once per corpus and axis, after the axis's whole
 * document (whose model order the list follows), in steps of at most 10 ms (sliced-build.ts) between
 * which other requests are served, ahead of the first request (warmAxisDocuments) or on it. Each
 * document is then held only as prepared bytes (the fast path), never as objects: 1,000 slices'
 * objects would hold several times their bytes. Not mirrored by the static export (SL8).
 */
import { slicePairCount } from '../../core/board/item-slice.js';
import type { ItemTable } from '../../core/board/item-table.js';
import { type SlicedAxis, slicedAxisSteps } from '../../core/board/slice-family.js';
import { SLICES_SCHEMA } from '../../core/board/slices-document-shape.js';
import { GspcError } from '../../core/errors.js';
import { JSON_TYPE } from '../headers.js';
import { CACHE_CONTROL, prepare, type Prepared } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';
import { prepared, type DocumentEntry } from './document.js';
import { comparisonAxes, modelsDocumentEntry, modelsDocumentOf, requiredAxis } from './models.js';
import { driveInSlices } from './sliced-build.js';

/** Tags named in a `not_found` answer (the rest are counted). */
const KNOWN_NAMED = 50;
/**
 * The most model pairs, over every slice of an axis, a build may hold (review R1-3). Every pair of
 * every slice is an object until the family across slices is adjusted: about 2.9 kB a pair at its
 * peak (200 models x 20 one-item tags, 398,000 pairs: 1.16 GB of heap), so 100 one-item tags of 200
 * models ran the service out of its 4 GB heap and killed it. 300,000 pairs is about 0.9 GB, less
 * than /api/models at 1,000 models (1.3 GB): 1,000 tags x 10 models (45,000) and 57 subjects x
 * 100 models (282,150) are built; past it the slices are refused in words, never half built.
 */
export const MAX_SLICE_PAIRS = 300_000;
/** Each table's pair count over its slices, counted once (a pass over the tagged items). */
const pairCounts = new WeakMap<object, number>();

export interface SlicesBuilt {
  list: Prepared;
  documents: Map<string, Prepared>;
}

const byCorpus = new WeakMap<object, Map<string, SlicesBuilt | Promise<SlicesBuilt>>>();
function perAxis(p: PreparedRelease): Map<string, SlicesBuilt | Promise<SlicesBuilt>> {
  let m = byCorpus.get(p.release.corpus);
  if (m === undefined) byCorpus.set(p.release.corpus, (m = new Map()));
  return m;
}

const json = (v: unknown) => prepare(Buffer.from(JSON.stringify(v)), JSON_TYPE);

/**
 * The slices, then their bytes, one slice document per step (each is dropped as objects once
 * serialised), then the list.
 */
function* bytesSteps(steps: Generator<void, SlicedAxis, void>): Generator<void, SlicesBuilt, void> {
  const sliced = yield* steps;
  const documents = new Map<string, Prepared>();
  for (const [tag, doc] of sliced.documents) {
    documents.set(tag, json(doc));
    sliced.documents.delete(tag);
    yield;
  }
  return { list: json(sliced.list), documents };
}

/**
 * What a slice costs beside its pairs, in pairs: its document's objects and bytes (§9's method in
 * words, the family, the models), about 8 kB, measured at 1 model x 20,000 one-item tags (237 MB).
 * Without it, a million one-item tags of one model (no pair at all) would pass the budget and
 * exhaust the heap as surely.
 */
const SLICE_WEIGHT = 3;

/** Why an axis's slices are too large to build (pairs + 3 x slices over MAX_SLICE_PAIRS), or undefined. */
export function slicesTooLarge(table: ItemTable): { pairs: number; slices: number; reason: string } | undefined {
  let pairs = pairCounts.get(table);
  if (pairs === undefined) pairCounts.set(table, (pairs = slicePairCount(table)));
  const slices = table.facets.tagNames.length;
  if (pairs + SLICE_WEIGHT * slices <= MAX_SLICE_PAIRS) return undefined;
  return {
    pairs,
    slices,
    reason: `its ${slices.toLocaleString('en')} tags hold ${pairs.toLocaleString('en')} model pairs in all, and with ${SLICE_WEIGHT} for each slice's own document that is more than the ${MAX_SLICE_PAIRS.toLocaleString('en')} this service builds at once (every slice's pairs are held until the one family across slices is adjusted; docs/formats.md, slices)`,
  };
}

/** The axis's definition and table, or the error a reader gets: unknown axis, no rows, no tags. */
function axisOf(p: PreparedRelease, axis: string) {
  const def = p.release.corpus.definitions.find((d) => d.axis === axis);
  if (def?.kind !== 'model-comparison')
    throw new GspcError('unknown_axis', 'unknown axis', { known: comparisonAxes(p) });
  const table = p.release.corpus.tables.get(axis);
  if (table === undefined || !table.facets.tagged)
    throw new GspcError(
      'not_found',
      `axis '${axis}' has no slices: ${table === undefined ? 'it publishes no per-item rows (aggregate results only)' : 'no row of it carries tags'} (docs/formats.md §1, tags)`,
      { axis, known: [], known_total: 0 },
    );
  const tooMany = slicesTooLarge(table);
  if (tooMany !== undefined)
    throw new GspcError('not_found', `axis '${axis}' has no slices served: ${tooMany.reason}`, {
      axis,
      known: [],
      known_total: 0,
      pairs: tooMany.pairs,
      slices: tooMany.slices,
      max_pairs: MAX_SLICE_PAIRS,
    });
  return { def, table };
}

/** The axis's slices: at once when built, else when the build (and the whole axis's document) ends. */
export function slicesOf(p: PreparedRelease, axis: string): SlicesBuilt | Promise<SlicesBuilt> {
  const { def, table } = axisOf(p, axis);
  const cache = perAxis(p);
  const had = cache.get(axis);
  if (had !== undefined) return had;
  const pending = modelsDocumentOf(p, axis)
    .then((whole) => driveInSlices(bytesSteps(slicedAxisSteps(def, table, p.release.corpus.meta.own_models, whole))))
    .then(
      (b) => {
        cache.set(axis, b);
        return b;
      },
      (e: unknown) => {
        cache.delete(axis); // a failed build is tried again by the next reader
        throw e;
      },
    );
  cache.set(axis, pending);
  return pending;
}

/** One slice's document, or 404 `not_found` naming the axis's tags (at most 50, with the count). */
function sliceDocumentBytes(built: SlicesBuilt, tag: string): Prepared {
  const doc = built.documents.get(tag);
  if (doc !== undefined) return doc;
  const all = [...built.documents.keys()];
  throw new GspcError('not_found', `slice: no item of this axis carries the tag '${tag}'`, {
    known: all.slice(0, KNOWN_NAMED),
    known_total: all.length,
  });
}

export const slicesDocumentEntry: DocumentEntry = {
  id: 'slices',
  route: '/api/slices',
  query: ['axis'],
  schema: SLICES_SCHEMA,
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  // Not mirrored (SL8): the list links to slice documents a static tree does not hold.
  paths: () => [],
  read: (ctx, req) => {
    const current = ctx.state.current();
    const built = slicesOf(current, requiredAxis(req.query, current));
    return built instanceof Promise ? built.then((b) => prepared(b.list)) : prepared(built.list);
  },
};

/**
 * `/api/models` with `slice`: the whole axis's entry (models.ts) answers without it; with it, the
 * slice's document. Registered in its place (registry.ts), so models.ts need not import this file.
 */
export const modelsWithSlicesEntry: DocumentEntry = {
  ...modelsDocumentEntry,
  query: ['axis', 'slice'],
  read: (ctx, req) => {
    const tag = req.query.get('slice');
    if (tag === undefined) return modelsDocumentEntry.read(ctx, req);
    const current = ctx.state.current();
    const built = slicesOf(current, requiredAxis(req.query, current));
    return built instanceof Promise
      ? built.then((b) => prepared(sliceDocumentBytes(b, tag)))
      : prepared(sliceDocumentBytes(built, tag));
  },
};
