/**
 * Running a document's build generator off the request path (issues 39 and 41): the work is a
 * generator that yields every few milliseconds, and `driveInSlices` runs it in turns of at most
 * {@link SLICE_MS}, between which the event loop serves other requests. A reader of a large
 * document waits for it; the others do not. One driver for `/api/slices`, `/api/windows` and the
 * explorer's response index (`/api/models` drives its own, which also abandons a warm-up).
 */

/** How long one turn of a build may hold the event loop before it lets other work run. */
export const SLICE_MS = 10;

/**
 * Runs `steps` to its end in turns of at most {@link SLICE_MS}; the promise settles with its
 * value, or with what a step threw (the build is over either way). The first turn runs on a later
 * turn of the event loop, so the request that started the build is not held by it either.
 */
export function driveInSlices<T>(steps: Generator<void, T, void>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const turn = () => {
      try {
        const until = performance.now() + SLICE_MS;
        for (;;) {
          const r = steps.next();
          if (r.done) return resolve(r.value);
          if (performance.now() >= until) break;
        }
        setImmediate(turn);
      } catch (e) {
        reject(e);
      }
    };
    setImmediate(turn);
  });
}
