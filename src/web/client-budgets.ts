/**
 * The per-client request counts behind the rate limits (decision O12): fixed windows, one cell
 * per budget key (`class|client`), as @fastify/rate-limit's own in-memory store counts them, and
 * a store the plugin takes (`incr`, `child`), so a client's budget is one count whichever path
 * answers it: the plugin for every route Fastify serves, `countIn` for the prepared documents'
 * fast path (fast-path.ts), which holds the cell of a connection's client instead of building the
 * key, hashing it and moving it up an LRU list on every read (about 2 µs of a 30 µs board read in
 * the profiles of docs/performance.md §12, a sixth of the served board's rate).
 *
 * Memory is bounded: at most `maxCells` cells. A new client past the bound first sweeps the cells
 * whose window has ended (at most once a second, so a flood of new addresses cannot make every
 * request a sweep), then drops the oldest cell; a dropped cell is marked, so a holder asks again
 * and counts in the live one. Times come from the clock passed in (monotonic milliseconds: a
 * wall-clock step never resets or stretches a window).
 */
// The module's binding, not the global: on Node 20 the global `performance` is a lazy getter run on
// every read (0.04 µs a request in the fast path's profile).
import { performance } from 'node:perf_hooks';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';

/** Monotonic milliseconds: the budgets' and the fast path's default clock. */
export const monotonicMs = (): number => performance.now();

/** One budget key's count in its current window. */
export interface BudgetCell {
  count: number;
  /** When the window began (the clock's milliseconds). */
  start: number;
  /** False once the cell was dropped from the store: whoever holds it must look it up again. */
  live: boolean;
}

/** At most this many clients are counted at once (a cell and its key: about 150 bytes each). */
const MAX_CELLS = 50_000;

/** Counts one request in `cell` at `now`: the count in the window (which begins again when over). */
export function countIn(cell: BudgetCell, now: number, windowMs: number): number {
  if (now - cell.start >= windowMs) {
    cell.start = now;
    cell.count = 1;
    return 1;
  }
  return ++cell.count;
}

export class ClientBudgets {
  readonly #cells = new Map<string, BudgetCell>();
  #nextSweep = Number.NEGATIVE_INFINITY;

  constructor(
    readonly windowMs: number,
    readonly clock: () => number,
    readonly maxCells = MAX_CELLS,
  ) {}

  /** Counts one request in `cell` at `now` in this store's window: the count in the window. */
  count(cell: BudgetCell, now: number): number {
    return countIn(cell, now, this.windowMs);
  }

  /** The cell of `key`, created on first use; callers may hold it while it is `live`. */
  cell(key: string): BudgetCell {
    let c = this.#cells.get(key);
    if (c === undefined) {
      if (this.#cells.size >= this.maxCells) this.#makeRoom();
      c = { count: 0, start: Number.NEGATIVE_INFINITY, live: true };
      this.#cells.set(key, c);
    }
    return c;
  }

  get size(): number {
    return this.#cells.size;
  }

  #makeRoom(): void {
    const now = this.clock();
    if (now >= this.#nextSweep) {
      this.#nextSweep = now + 1000;
      for (const [key, c] of this.#cells)
        if (now - c.start >= this.windowMs) {
          c.live = false;
          this.#cells.delete(key);
        }
    }
    // Still full: the oldest cell goes (a Map iterates in insertion order).
    for (const [key, c] of this.#cells) {
      if (this.#cells.size < this.maxCells) break;
      c.live = false;
      this.#cells.delete(key);
    }
  }

  /**
   * The same counts as a @fastify/rate-limit store: `current` in the window and the milliseconds
   * left of it (`ttl`), answered synchronously, in this store's window (the plugin is given the
   * same one, rate-limits.ts). The plugin constructs its store with `new`; the service hands it
   * this one.
   */
  readonly store: FastifyRateLimitStore = {
    incr: (key, callback) => {
      const c = this.cell(key);
      const now = this.clock();
      const current = this.count(c, now);
      callback(null, { current, ttl: this.windowMs - (now - c.start) });
    },
    child: () => this.store,
  };
}
