/**
 * `GET /api/xrpl` (rail xrpl-reader, action svc.xrpl.assets.read: `kind`, `writes_board` false),
 * `svc.xrpl-assets/0.1`. With a configured endpoint (GSPC_XRPL_URL, GSPC_XRPL_ACCOUNT) it reads
 * live; otherwise, or when the live read fails, the corpus's recorded snapshot, saying which.
 * No query parameters: the endpoint and account come from the operator only.
 *
 * One live read serves every request for LIVE_READ_REUSE_MS (concurrent requests share the read
 * in flight), so callers cannot turn this route into a stream of calls to someone's XRPL server.
 * The response depends on live state: `no-store`.
 */
import type { FastifyInstance } from 'fastify';
import { buildXrplAssets, type XrplLiveOutcome } from '../../core/status/xrpl-assets.js';
import { readXrplLive } from '../../status/xrpl-reader.js';
import { BASE_HEADERS } from '../errors.js';
import { readQuery } from '../query.js';
import type { StatusContext } from './context.js';

/** How long one live read (or failure) is reused. */
export const LIVE_READ_REUSE_MS = 10_000;

/** Registers GET /api/xrpl; the live read state (one shared read) belongs to this registration. */
export function registerXrplRoutes(app: FastifyInstance, ctx: StatusContext): void {
  let last: { at: number; outcome: Promise<XrplLiveOutcome> } | null = null;
  const liveRead = (): Promise<XrplLiveOutcome> | null => {
    const ep = ctx.sources.xrpl;
    if (ep === null) return null;
    const now = ctx.now().getTime();
    // A clock that stepped back also reads again.
    if (!last || now < last.at || now - last.at >= LIVE_READ_REUSE_MS) last = { at: now, outcome: readXrplLive(ep, ctx.now) };
    return last.outcome;
  };

  app.get('/api/xrpl', async (req, reply) => {
    readQuery(req.url, []);
    const live = await liveRead();
    const snapshot = ctx.state.current().release.corpus.status.xrplSnapshot;
    const doc = buildXrplAssets(ctx.now(), live, snapshot);
    return reply.headers({ ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).send(doc);
  });
}
