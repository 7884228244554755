/**
 * `GET /api/action-jobs` (rail action-job-ledger) and `GET /api/oracle-fleet` (rail oracle-fleet,
 * action svc.compute.heartbeat.read, whose output requires `source`): read from the ledger on
 * each request and never cached (the chain is re-verified per request; ages and states depend on
 * the clock). Without a ledger, or when reading it fails, the answer is still 200 with the
 * reason: an unread chain is never shown as an empty one, and the watchdog is UNREAD, never
 * NEVER_SEEN (which would claim the ledger was read and holds no beat). Failures are values with
 * a public reason; the details go to the log only (they may name a file or host).
 */
import { GspcError } from '../../core/errors.js';
import { actionJobsDocument, VERIFY_BOUND, type ActionJobsRead } from '../../core/ledger/action-jobs-document.js';
import { oracleFleetDocument, type HeartbeatRead } from '../../core/ledger/oracle-fleet.js';
import type { ReadLog, ServiceContext } from '../context.js';
import { built, type DocumentEntry } from './document.js';

const codeOf = (err: unknown) => (err instanceof GspcError ? err.code : 'internal');

/** Reads at most VERIFY_BOUND + 1 rows, so the document can tell "over the bound" without reading the whole table. */
export async function readActionReceipts(ctx: ServiceContext, log: ReadLog): Promise<ActionJobsRead> {
  if (ctx.ledger === undefined) {
    return {
      ok: false,
      source: 'no action-job ledger configured',
      reason: 'this service runs without a ledger, so no receipt could be read',
    };
  }
  const source = `action-job ledger (${ctx.ledger.backend})`;
  try {
    return { ok: true, source, rows: await ctx.ledger.listActionReceipts({ limit: VERIFY_BOUND + 1 }) };
  } catch (err) {
    log.warn({ err }, 'action-jobs: the ledger could not be read');
    return { ok: false, source: `${source}, unread`, reason: `the ledger could not be read (${codeOf(err)})` };
  }
}

/** One read of the latest beats. */
export async function readHeartbeats(ctx: ServiceContext, log: ReadLog): Promise<HeartbeatRead> {
  if (ctx.ledger === undefined) {
    return {
      ok: false,
      source: 'no heartbeat ledger configured',
      reason: 'this service runs without a ledger, so no heartbeat could be read',
    };
  }
  const source = `heartbeat ledger (${ctx.ledger.backend})`;
  try {
    return { ok: true, source, latest: await ctx.ledger.latestHeartbeats() };
  } catch (err) {
    log.warn({ err }, 'oracle-fleet: the ledger could not be read');
    return { ok: false, source: `${source}, unread`, reason: `the ledger could not be read (${codeOf(err)})` };
  }
}

export const actionJobsDoc: DocumentEntry<ReturnType<typeof actionJobsDocument>> = {
  id: 'action-jobs',
  route: '/api/action-jobs',
  query: [],
  schema: 'svc.action-jobs/0.1',
  cache: { kind: 'request', cacheControl: 'no-store' },
  paths: () => ['/api/action-jobs'],
  read: async (ctx, req) => built(actionJobsDocument(await readActionReceipts(ctx, req.log), ctx.now()), 'no-store'),
};

export const oracleFleetDoc: DocumentEntry<ReturnType<typeof oracleFleetDocument>> = {
  id: 'oracle-fleet',
  route: '/api/oracle-fleet',
  query: [],
  schema: 'svc.oracle-fleet/0.1',
  cache: { kind: 'request', cacheControl: 'no-store' },
  paths: () => ['/api/oracle-fleet'],
  read: async (ctx, req) => built(oracleFleetDocument(await readHeartbeats(ctx, req.log), ctx.now()), 'no-store'),
};
