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
import { buildXrplAssets, type XrplLiveOutcome } from '../../core/status/xrpl-assets.js';
import { readXrplLive } from '../../status/xrpl-reader.js';
import type { ServiceContext } from '../context.js';
import { built, type DocumentEntry } from './document.js';

/** How long one live read (or failure) is reused. */
export const LIVE_READ_REUSE_MS = 10_000;

/** The entry with its own live-read state (one per registry: two services never share a read). */
export function xrplDocument(): DocumentEntry<ReturnType<typeof buildXrplAssets>> {
  let last: { at: number; outcome: Promise<XrplLiveOutcome> } | null = null;
  const liveRead = (ctx: ServiceContext): Promise<XrplLiveOutcome> | null => {
    const ep = ctx.sources.xrpl;
    if (ep === null) return null;
    const now = ctx.now().getTime();
    // A clock that stepped back also reads again.
    if (!last || now < last.at || now - last.at >= LIVE_READ_REUSE_MS)
      last = { at: now, outcome: readXrplLive(ep, ctx.now) };
    return last.outcome;
  };
  return {
    id: 'xrpl',
    route: '/api/xrpl',
    query: [],
    schema: 'svc.xrpl-assets/0.1',
    cache: { kind: 'request', cacheControl: 'no-store' },
    paths: () => ['/api/xrpl'],
    read: async (ctx) => {
      const live = await liveRead(ctx);
      const snapshot = ctx.state.current().release.corpus.status.xrplSnapshot;
      return built(buildXrplAssets(ctx.now(), live, snapshot), 'no-store');
    },
  };
}
