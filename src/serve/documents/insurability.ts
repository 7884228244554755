/**
 * `GET /api/insurability-pack`: the insurability evidence pack (`svc.insurability-evidence-pack/0.1`;
 * specification, "Insurability evidence pack"), an unsigned template. Its counts are read from
 * what the service serves: `measured_cells` from the served card matrix (`/signed/card-matrix.json`),
 * the public count from the served board. `ts` is the clock and the signing chain is live, so
 * `cache-control: no-store`.
 */
import { GspcError } from '../../core/errors.js';
import { insurabilityPack } from '../../core/status/insurability-pack.js';
import { reportedCount } from '../../core/status/reported-figures.js';
import { built, perRelease, type DocumentEntry } from './document.js';

/** The counts the pack quotes, read once per release from the served bytes (never typed). */
export const servedCounts = perRelease((p) => {
  const matrix = p.files.get('/signed/card-matrix.json');
  const cells = matrix ? (JSON.parse(matrix.body.toString('utf8')) as { cells?: unknown }).cells : undefined;
  // A release always publishes its card matrix (src/release/evidence.ts): without one the release is broken.
  if (!Array.isArray(cells))
    throw new GspcError('internal', 'the served release has no readable /signed/card-matrix.json');
  const board = JSON.parse(p.boards.get('')!.body.toString('utf8')) as { totals: { public_count: string } };
  return { measured_cells: cells.length, public_count: board.totals.public_count };
});

export const insurabilityDocument: DocumentEntry<ReturnType<typeof insurabilityPack>> = {
  id: 'insurability-pack',
  route: '/api/insurability-pack',
  query: [],
  schema: 'svc.insurability-evidence-pack/0.1',
  cache: { kind: 'request', cacheControl: 'no-store' },
  paths: () => ['/api/insurability-pack'],
  read: (ctx) => {
    const current = ctx.state.current();
    const { status, obligations } = current.release.corpus;
    const { did, boardKey } = ctx.state.signingLive();
    const counts = servedCounts(current);
    const pack = insurabilityPack({
      ts: ctx.now().toISOString(),
      public_count: counts.public_count,
      measured_cells: counts.measured_cells,
      reported_figures: reportedCount(status.reported),
      regulation: status.regulation
        ? { version: status.regulation.version, verified_as_of: status.regulation.verified_as_of }
        : null,
      market: ctx.rail
        ? {
            network: ctx.rail.network,
            asset: ctx.rail.asset,
            pay_to_configured: ctx.rail.payTo !== null,
            facilitator_configured: ctx.rail.facilitatorUrl !== null,
          }
        : null,
      signing: boardKey.healthy
        ? { did, kid: boardKey.signer.kid, healthy: true }
        : { did, kid: boardKey.kid, healthy: false, reason: boardKey.reason },
      owners: status.owners,
      obligations: obligations.map((o) => o.id),
    });
    return built(pack, 'no-store');
  },
};
