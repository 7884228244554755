/**
 * The warm-up after a release is prepared (service.ts): every per-axis document a first reader
 * would otherwise wait seconds for, built off the request path one axis after another: the whole
 * axis's `/api/models`, then a tagged axis's slices and a dated axis's contamination windows.
 * Its own unit, so that neither the slices nor the windows document owns the other's warming.
 */
import type { PreparedRelease } from '../prepared.js';
import { comparisonAxes, warmModelsDocuments } from './models.js';
import { slicesOf } from './slices.js';
import { bytesFor as windowsBytes } from './windows.js';

/**
 * Warms every axis's whole document (warmModelsDocuments), then, axis by axis, a tagged axis's
 * slices and a dated axis's contamination windows, so the first reader of a slice does not wait
 * for 1,000 of them nor the first of /api/windows for its pairs; `done` counts the sliced axes. `stop` ends it;
 * a slice build already under way finishes (it yields between steps and is shared by readers).
 */
export function warmAxisDocuments(p: PreparedRelease): { stop: () => void; done: Promise<number> } {
  const models = warmModelsDocuments(p);
  let stopped = false;
  const done = models.done.then(async () => {
    let built = 0;
    for (const axis of comparisonAxes(p)) {
      if (stopped) break;
      await new Promise((resolve) => setImmediate(resolve));
      if (stopped) break;
      const facets = p.release.corpus.tables.get(axis)?.facets;
      if (
        facets?.tagged &&
        (await Promise.resolve()
          .then(() => slicesOf(p, axis))
          .then(
            () => true,
            () => false,
          ))
      )
        built++;
      // A dated axis's contamination windows too, so their first reader does not wait for the
      // build either (seconds at hundreds of models); an undated axis's is a few words, built on
      // request. A failed build is retried by a reader, which gets the error (as above).
      if (!stopped && facets?.dated)
        await Promise.resolve()
          .then(() => windowsBytes(p, axis))
          .then(
            () => undefined,
            () => undefined,
          );
    }
    return built;
  });
  return {
    stop: () => {
      stopped = true;
      models.stop();
    },
    done,
  };
}
