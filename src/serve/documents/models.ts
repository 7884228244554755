/**
 * `GET /api/models?axis=<slug>`: every model of one model-comparison axis, every pair tested,
 * tie groups, the size of each difference and what each pair could have seen
 * (`svc.gspc-models/0.3`, src/core/board/models-document.ts; issues 29 and 39). Built once per served
 * release and axis (ahead of the first request by warmModelsDocuments, or on it), then served as
 * prepared bytes like the board.
 */
import { tieGroups } from '../../core/board/lead-sentence.js';
import { MODELS_SCHEMA, modelsDocument, type ModelsDocument } from '../../core/board/models-document.js';
import { GspcError } from '../../core/errors.js';
import { CACHE_CONTROL, prepare, type Prepared } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';
import { perRelease, prepared, type DocumentEntry } from './document.js';

/** The release's model-comparison axes: those with an every-model document (and an axis page). */
export const comparisonAxes = (p: PreparedRelease) =>
  p.release.corpus.definitions.filter((d) => d.kind === 'model-comparison').map((d) => d.axis);

interface Built {
  doc: ModelsDocument;
  bytes: Prepared;
}

const perAxis = perRelease(() => new Map<string, Built>());

function builtFor(p: PreparedRelease, axis: string): Built {
  const cache = perAxis(p);
  let built = cache.get(axis);
  if (built === undefined) {
    const def = p.release.corpus.definitions.find((d) => d.axis === axis);
    if (def?.kind !== 'model-comparison')
      throw new GspcError('unknown_axis', 'unknown axis', { known: comparisonAxes(p) });
    const doc = modelsDocument(def, p.release.corpus.tables.get(axis), p.release.corpus.meta.own_models);
    built = { doc, bytes: prepare(Buffer.from(JSON.stringify(doc)), 'application/json; charset=utf-8') };
    cache.set(axis, built);
  }
  return built;
}

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
 * Builds every axis's document after a release is prepared, one axis per turn of the event loop,
 * so the first reader of `/api/models` (or of the AG-UI state) does not wait for the pairs of a
 * large axis (about 0.6 s at 100 models × 100,000 items, docs/performance.md §13). `stop` ends it
 * (a newer release replaced this one); `done` says how many axes it built before it ended.
 */
export function warmModelsDocuments(p: PreparedRelease): { stop: () => void; done: Promise<number> } {
  const axes = comparisonAxes(p);
  let built = 0;
  let ended = false;
  let finish: (built: number) => void = () => {};
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });
  const end = () => {
    ended = true;
    clearImmediate(timer);
    finish(built);
  };
  const next = () => {
    if (ended) return;
    if (built >= axes.length) return end();
    builtFor(p, axes[built]!);
    built++;
    timer = setImmediate(next);
  };
  let timer: NodeJS.Immediate = setImmediate(next);
  return {
    stop: () => {
      if (!ended) end();
    },
    done,
  };
}

/** Whether an axis's document is built already (for tests of the warming). */
export const isBuilt = (p: PreparedRelease, axis: string): boolean => perAxis(p).has(axis);
export const modelsDocumentEntry: DocumentEntry = {
  id: 'models',
  route: '/api/models',
  query: ['axis'],
  schema: MODELS_SCHEMA,
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  paths: (p) => comparisonAxes(p).map((a) => `/api/models?axis=${a}`),
  read: (ctx, req) => {
    const axis = req.query.get('axis');
    const current = ctx.state.current();
    if (axis === undefined)
      throw new GspcError('bad_query', 'axis: required (a model-comparison axis slug)', {
        known: comparisonAxes(current),
      });
    return prepared(builtFor(current, axis).bytes);
  },
};
