/**
 * Running a document's build generator off the request path (issues 39 and 41): the work is a
 * generator that yields every few milliseconds, and `driveInSlices` runs it in turns of at most
 * {@link SLICE_MS}, between which the event loop serves other requests. A reader of a large
 * document waits for it; the others do not. One driver for `/api/slices`, `/api/windows` and the
 * explorer's response index (`/api/models` drives its own, which also abandons a warm-up); and
 * one writer of a document whose pairs come last, in steps (`/api/models`, `/api/windows`).
 */
import { JSON_TYPE } from '../headers.js';
import { prepare, type Prepared } from '../prepared-bytes.js';
import { knownParsed } from './document.js';

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

/** Pairs serialised between two yields (one JSON.stringify of 143-180 MB held the loop for seconds). */
const PAIRS_PER_CHUNK = 4096;

/**
 * A document whose last key is `pairs` (`/api/models`, `/api/windows`), as prepared bytes written
 * in steps: its head, then the pairs a chunk at a time, exactly `JSON.stringify(doc)` (tested),
 * yielding between chunks. Each pair is frozen as it is written, and the document is registered
 * as what its bytes parse to (knownParsed), so in-process readers get it frozen, never a second
 * parse, and its deep freeze skips the pairs already frozen.
 */
export function* pairsLastBytes<P extends { difference_interval?: readonly number[] }>(doc: {
  pairs: readonly P[];
}): Generator<void, Prepared, void> {
  const { pairs, ...head } = doc;
  const parts: Buffer[] = [Buffer.from(`${JSON.stringify(head).slice(0, -1)},"pairs":[`)];
  for (let from = 0; from < pairs.length; from += PAIRS_PER_CHUNK) {
    const chunk = pairs.slice(from, from + PAIRS_PER_CHUNK);
    parts.push(Buffer.from(`${from === 0 ? '' : ','}${chunk.map((x) => JSON.stringify(x)).join(',')}`));
    for (const x of chunk) {
      if (x.difference_interval) Object.freeze(x.difference_interval);
      Object.freeze(x);
    }
    yield;
  }
  parts.push(Buffer.from(']}'));
  const bytes = prepare(Buffer.concat(parts), JSON_TYPE);
  knownParsed(bytes, doc);
  return bytes;
}
