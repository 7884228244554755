/**
 * `GET /api/oracle-fleet` (specification, "Capability fabric": rail oracle-fleet, action
 * svc.compute.heartbeat.read, whose output requires `source`; Limits: watchdog period 10
 * minutes, external dead-man's switch): the latest heartbeat per source from the ledger, each
 * FRESH or STALE against the 600-second period on this request's clock, and the watchdog's
 * state on top (src/core/ledger/oracle-fleet.ts). No query parameters.
 *
 * Without a ledger, or when reading it fails, the answer is still 200: `source` says so,
 * heartbeats are null with the reason, and the watchdog is UNREAD (never NEVER_SEEN, which
 * would claim the ledger was read and holds no beat).
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { GspcError } from '../../core/errors.js';
import { oracleFleetDocument, type HeartbeatRead } from '../../core/ledger/oracle-fleet.js';
import { BASE_HEADERS } from '../errors.js';
import { readQuery } from '../query.js';
import type { StatusContext } from './context.js';

/** Ages and states depend on the clock and on beats recorded at any moment: never cached. */
export const ORACLE_FLEET_CACHE_CONTROL = 'no-store';

/** One read of the latest beats; a failure is a value with a public reason, details logged only. */
export async function readHeartbeats(ctx: StatusContext, log: FastifyBaseLogger): Promise<HeartbeatRead> {
  if (ctx.ledger === undefined) {
    return { ok: false, source: 'no heartbeat ledger configured', reason: 'this service runs without a ledger, so no heartbeat could be read' };
  }
  const source = `heartbeat ledger (${ctx.ledger.backend})`;
  try {
    return { ok: true, source, latest: await ctx.ledger.latestHeartbeats() };
  } catch (err) {
    log.warn({ err }, 'oracle-fleet: the ledger could not be read');
    const code = err instanceof GspcError ? err.code : 'internal';
    return { ok: false, source: `${source}, unread`, reason: `the ledger could not be read (${code})` };
  }
}

export function registerOracleFleetRoutes(app: FastifyInstance, ctx: StatusContext): void {
  app.get('/api/oracle-fleet', async (req, reply) => {
    readQuery(req.url, []);
    const read = await readHeartbeats(ctx, req.log);
    const doc = oracleFleetDocument(read, ctx.now());
    return reply.code(200).headers({ ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': ORACLE_FLEET_CACHE_CONTROL }).send(doc);
  });
}
