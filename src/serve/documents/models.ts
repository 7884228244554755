/**
 * `GET /api/models?axis=<slug>`: every model of one model-comparison axis, every pair tested,
 * tie groups, the size of each difference and what each pair could have seen
 * (`svc.gspc-models/0.4`, src/core/board/models-document.ts; issues 29 and 39). Built once per served
 * release and axis (ahead of the first request by warmModelsDocuments, or on it), in slices that
 * leave the event loop to other requests, then served as prepared bytes like the board.
 */
import { tieGroups } from '../../core/board/lead-sentence.js';
import { MODELS_SCHEMA, modelsDocumentSteps, type ModelsDocument } from '../../core/board/models-document.js';
import { GspcError } from '../../core/errors.js';
import { CACHE_CONTROL, type Prepared } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';
import { perRelease, prepared, type DocumentEntry } from './document.js';
import { pairsLastBytes } from './sliced-build.js';

/** The release's model-comparison axes: those with an every-model document (and an axis page). */
export const comparisonAxes = (p: PreparedRelease) =>
  p.release.corpus.definitions.filter((d) => d.kind === 'model-comparison').map((d) => d.axis);

/** The `axis` a per-axis document (`/api/models`, `/api/usage`, `/api/cost`) requires, or 400 naming the known ones. */
export function requiredAxis(query: ReadonlyMap<string, string>, current: PreparedRelease): string {
  const axis = query.get('axis');
  if (axis === undefined)
    throw new GspcError('bad_query', 'axis: required (a model-comparison axis slug)', {
      known: comparisonAxes(current),
    });
  return axis;
}

interface Built {
  doc: ModelsDocument;
  bytes: Prepared;
}

/** An axis's document: built, or being built in steps (`steps` yields between slices of work). */
interface Building {
  built?: Built;
  steps: Generator<void, Built, void>;
  /** Set while something drives `steps` across turns of the event loop. */
  done?: Promise<Built>;
  /** Requests waiting on it (the warm-up is not one). */
  readers?: number;
  /** The warm-up that started it was stopped: with no reader, the build ends. */
  abandoned?: boolean;
}

/**
 * Per corpus, not per PreparedRelease: the document is a function of the corpus alone, and a swap
 * for new witness evidence or key health makes a new PreparedRelease of the same corpus, which
 * must not throw away (and rebuild) a document that took seconds (review of issue 39).
 */
const byCorpus = new WeakMap<object, Map<string, Building>>();
function perAxis(p: PreparedRelease): Map<string, Building> {
  let m = byCorpus.get(p.release.corpus);
  if (m === undefined) byCorpus.set(p.release.corpus, (m = new Map()));
  return m;
}

/** How long one slice of a build may hold the event loop before it lets other work run. */
const SLICE_MS = 10;

function buildingFor(p: PreparedRelease, axis: string): Building {
  const cache = perAxis(p);
  let b = cache.get(axis);
  if (b === undefined) {
    const def = p.release.corpus.definitions.find((d) => d.axis === axis);
    if (def?.kind !== 'model-comparison')
      throw new GspcError('unknown_axis', 'unknown axis', { known: comparisonAxes(p) });
    b = {
      steps: buildSteps(modelsDocumentSteps(def, p.release.corpus.tables.get(axis), p.release.corpus.meta.own_models)),
    };
    cache.set(axis, b);
  }
  return b;
}

/** The document, then its bytes, in steps (pairsLastBytes: exactly `JSON.stringify(doc)`, tested). */
function* buildSteps(docSteps: Generator<void, ModelsDocument, void>): Generator<void, Built, void> {
  const doc = yield* docSteps;
  return { doc, bytes: yield* pairsLastBytes(doc) };
}

/**
 * One step of an axis's build. A step that throws (out of memory, a bug) ends this build: the
 * entry is dropped, so the next reader starts a new one rather than reading a finished generator
 * forever (review of issue 39), and the error goes to the reader that drove the step.
 */
function step(p: PreparedRelease, axis: string, b: Building): void {
  try {
    const r = b.steps.next();
    if (r.done) b.built = r.value;
  } catch (e) {
    if (perAxis(p).get(axis) === b) perAxis(p).delete(axis);
    throw e;
  }
}

/** Finishes an axis's build now, whatever is left of it (a reader that cannot wait: tests, tools). */
function builtFor(p: PreparedRelease, axis: string): Built {
  const b = buildingFor(p, axis);
  while (b.built === undefined) step(p, axis, b);
  return b.built;
}

/**
 * The axis's document, built in slices of at most {@link SLICE_MS} between which the event loop
 * serves other requests: a reader of a large axis waits for it, the others do not (issue 39:
 * 1,000 models held every request for 8-16 s). Readers of one axis share one build.
 */
function whenBuilt(p: PreparedRelease, axis: string, reader = true): Promise<Built> {
  const b = buildingFor(p, axis);
  if (b.built !== undefined) return Promise.resolve(b.built);
  if (reader) b.readers = (b.readers ?? 0) + 1;
  if (b.done === undefined)
    b.done = new Promise<Built>((resolve, reject) => {
      const slice = () => {
        try {
          // The warm-up of a release that is no longer served was the only one waiting: stop,
          // rather than hold a second large heap beside the new release's (review of issue 39).
          if (b.abandoned && !b.readers) {
            if (perAxis(p).get(axis) === b) perAxis(p).delete(axis);
            throw new Error('abandoned: the release is no longer served');
          }
          const until = performance.now() + SLICE_MS;
          while (b.built === undefined && performance.now() < until) step(p, axis, b);
          if (b.built !== undefined) resolve(b.built);
          else setImmediate(slice);
        } catch (e) {
          reject(e);
        }
      };
      slice();
    });
  return b.done;
}

/**
 * The axis's every-model document exactly as `/api/models?axis=` serves it (frozen; built in
 * slices when it is not yet), for documents read beside it (`/api/cost`, issue 40). An unknown
 * axis throws `unknown_axis` as the route does.
 */
export const modelsDocumentOf = (p: PreparedRelease, axis: string): Promise<ModelsDocument> =>
  whenBuilt(p, axis).then((b) => b.doc);

/** One axis's tie groups: each label with its public models, as `/api/models?axis=` gives them. */
export interface AxisTieGroups {
  source: string;
  /** Public tested pairs: the Holm family the letters come from. */
  m: number;
  groups: Record<string, string[]>;
  /** How many groups there are (null past 702: no letters). */
  groups_total: number | null;
  /** The rank-1 public model and every public model not separated from it. */
  leader_group: string[];
}

/**
 * Every model-comparison axis's tie groups (the AG-UI state carries them beside the board):
 * read from the same per-release documents `GET /api/models` serves, so they cannot disagree.
 */
export const tieGroupsOf = perRelease((p): Record<string, AxisTieGroups> => {
  const out: Record<string, AxisTieGroups> = {};
  for (const axis of comparisonAxes(p)) {
    const { doc } = builtFor(p, axis);
    out[axis] = {
      source: `/api/models?axis=${axis}`,
      m: doc.m,
      groups: tieGroups(doc),
      groups_total: doc.groups,
      leader_group: doc.leader_group,
    };
  }
  return out;
});

/**
 * Builds every axis's document after a release is prepared, one axis after another, each in
 * slices between which other requests are served ({@link whenBuilt}), so the first reader of
 * `/api/models` (or of the AG-UI state) does not wait for the pairs of a large axis (about 0.6 s
 * at 100 models × 100,000 items, docs/performance.md §13; 8-16 s at 1,000 models, §16). `stop`
 * ends it (a newer release replaced this one): an axis being built is abandoned unless a reader
 * of the old release waits on it; `done` says how many axes it built.
 */
export function warmModelsDocuments(p: PreparedRelease): { stop: () => void; done: Promise<number> } {
  const axes = comparisonAxes(p);
  let stopped = false;
  let current: string | undefined;
  const done = (async () => {
    let built = 0;
    for (const axis of axes) {
      if (stopped) break;
      // Yield first: the release's first requests are served before any building starts.
      await new Promise((resolve) => setImmediate(resolve));
      if (stopped) break;
      // A build that fails is not retried here (a reader's request retries it and gets the
      // error as its answer); `done` never rejects, so no caller can leave it unhandled.
      current = axis;
      if (
        await whenBuilt(p, axis, false).then(
          () => true,
          () => false,
        )
      )
        built++;
    }
    return built;
  })();
  return {
    stop: () => {
      stopped = true;
      const b = current === undefined ? undefined : perAxis(p).get(current);
      if (b !== undefined && b.built === undefined) b.abandoned = true;
    },
    done,
  };
}

/**
 * Every axis's document of the release built (in slices): what a reader that needs all of them
 * at once (the AG-UI state's tie groups) waits for, rather than building them in one call.
 */
export async function modelsReady(p: PreparedRelease): Promise<void> {
  await Promise.all(comparisonAxes(p).map((axis) => whenBuilt(p, axis)));
}

/** Whether an axis's document is built already (for tests of the warming). */
/** Whether an axis's document is being built (started, not finished), for tests of abandoning. */
export const isBuilding = (p: PreparedRelease, axis: string): boolean => {
  const b = perAxis(p).get(axis);
  return b?.done !== undefined && b.built === undefined;
};
export const isBuilt = (p: PreparedRelease, axis: string): boolean => perAxis(p).get(axis)?.built !== undefined;
export const modelsDocumentEntry: DocumentEntry = {
  id: 'models',
  route: '/api/models',
  query: ['axis'],
  schema: MODELS_SCHEMA,
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  paths: (p) => comparisonAxes(p).map((a) => `/api/models?axis=${a}`),
  read: (ctx, req) => {
    const current = ctx.state.current();
    const axis = requiredAxis(req.query, current);
    // Built: answered synchronously (so the fast path may replay it); else when the build ends.
    const built = buildingFor(current, axis).built;
    return built ? prepared(built.bytes) : whenBuilt(current, axis).then((b) => prepared(b.bytes));
  },
};
