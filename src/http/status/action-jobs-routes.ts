/**
 * `GET /api/action-jobs` (specification, "Capability fabric": rail action-job-ledger; Endpoints:
 * "read documents named by the rails and invariants"): the action-job ledger's policy (no
 * executor, execution disabled), its staging and concurrency statement, the receipt chain as
 * re-verified from the stored rows on this request, the jobs and the newest receipts
 * (src/core/ledger/action-jobs-document.ts). No query parameters.
 *
 * Without a ledger, or when reading it fails, the answer is still 200, with the chain UNREAD
 * and the reason: an unread chain is never shown as an empty one.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { GspcError } from '../../core/errors.js';
import { actionJobsDocument, VERIFY_BOUND, type ActionJobsRead } from '../../core/ledger/action-jobs-document.js';
import { BASE_HEADERS } from '../errors.js';
import { readQuery } from '../query.js';
import type { StatusContext } from './context.js';

/** The chain changes whenever a receipt is appended and is re-verified per request: never cached. */
export const ACTION_JOBS_CACHE_CONTROL = 'no-store';

/**
 * Reads at most VERIFY_BOUND + 1 rows, so the route can tell "over the bound" without reading
 * the whole table. A failure is a value with a public reason; the details go to the log only
 * (they may name a file or host).
 */
export async function readActionReceipts(ctx: StatusContext, log: FastifyBaseLogger): Promise<ActionJobsRead> {
  if (ctx.ledger === undefined) {
    return { ok: false, source: 'no action-job ledger configured', reason: 'this service runs without a ledger, so no receipt could be read' };
  }
  const source = `action-job ledger (${ctx.ledger.backend})`;
  try {
    return { ok: true, source, rows: await ctx.ledger.listActionReceipts({ limit: VERIFY_BOUND + 1 }) };
  } catch (err) {
    log.warn({ err }, 'action-jobs: the ledger could not be read');
    const code = err instanceof GspcError ? err.code : 'internal';
    return { ok: false, source: `${source}, unread`, reason: `the ledger could not be read (${code})` };
  }
}

export function registerActionJobsRoutes(app: FastifyInstance, ctx: StatusContext): void {
  app.get('/api/action-jobs', async (req, reply) => {
    readQuery(req.url, []);
    const read = await readActionReceipts(ctx, req.log);
    const doc = actionJobsDocument(read, ctx.now());
    return reply.code(200).headers({ ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': ACTION_JOBS_CACHE_CONTROL }).send(doc);
  });
}
