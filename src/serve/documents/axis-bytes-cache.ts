/**
 * The bytes of a per-axis document (`/api/cost`, `/api/windows`), built once per corpus and axis:
 * at once when built, else the build under way, which the readers of one axis share. Kept per
 * corpus, not per PreparedRelease: the document is a function of the corpus alone, and a swap for
 * witness evidence or key health makes a new PreparedRelease of the same corpus, which must not
 * throw away a document that took seconds (as /api/models). A build that fails is dropped, so the
 * next reader tries again and gets the error as its answer.
 */
import type { Prepared } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';

type Bytes = Prepared | Promise<Prepared>;

export function axisBytesCache(
  build: (p: PreparedRelease, axis: string) => Promise<Prepared>,
): (p: PreparedRelease, axis: string) => Bytes {
  const byCorpus = new WeakMap<object, Map<string, Bytes>>();
  return (p, axis) => {
    let cache = byCorpus.get(p.release.corpus);
    if (cache === undefined) byCorpus.set(p.release.corpus, (cache = new Map()));
    const had = cache.get(axis);
    if (had !== undefined) return had;
    const pending = build(p, axis).then(
      (bytes) => {
        cache.set(axis, bytes);
        return bytes;
      },
      (e: unknown) => {
        cache.delete(axis);
        throw e;
      },
    );
    cache.set(axis, pending);
    return pending;
  };
}
