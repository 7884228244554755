// @fastify/rate-limit ships no types for its in-memory store, which rate-limits.ts shares with
// the fast path (one budget per client whichever path answers). Its contract, as the plugin's
// own FastifyRateLimitStore type states it.
declare module '@fastify/rate-limit/store/LocalStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';

  const LocalStore: new (
    continueExceeding: boolean,
    exponentialBackoff: boolean,
    cache?: number,
  ) => FastifyRateLimitStore;
  export default LocalStore;
}
