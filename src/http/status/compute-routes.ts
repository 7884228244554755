/**
 * `GET /api/compute` (specification, "Compute bridge", `svc.compute-bridge/1`) and
 * `GET /api/provider-canary` (rails model-hub-provider-execution and pod-execution,
 * `svc.provider-canary/0.1`). Neither takes query parameters.
 *
 * The bridge is a function of the served release (its catalogued census), built once per
 * release and cached 300 s like the board. The canary reads the operator's observation file on
 * every request (it depends on the clock and on a file the runner rewrites): `no-store`.
 */
import type { FastifyInstance } from 'fastify';
import { buildComputeBridge, type ComputeBridgeDocument } from '../../core/status/compute-bridge.js';
import { buildProviderCanary } from '../../core/status/provider-canary.js';
import { readCanaryFile } from '../../status/provider-canary-reader.js';
import { BASE_HEADERS } from '../errors.js';
import type { PreparedRelease } from '../prepared.js';
import { readQuery } from '../query.js';
import type { StatusContext } from './context.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Registers GET /api/compute and GET /api/provider-canary; reads only the served release and the configured adapter. */
export function registerComputeRoutes(app: FastifyInstance, ctx: StatusContext): void {
  const bridges = new WeakMap<PreparedRelease, ComputeBridgeDocument>();
  app.get('/api/compute', (req, reply) => {
    readQuery(req.url, []);
    const current = ctx.state.current();
    let doc = bridges.get(current);
    if (!doc) {
      doc = buildComputeBridge(current.release.corpus.status.census);
      bridges.set(current, doc);
    }
    reply.headers({ ...BASE_HEADERS, 'content-type': JSON_TYPE, 'cache-control': 'public, max-age=300' }).send(doc);
  });

  app.get('/api/provider-canary', async (req, reply) => {
    readQuery(req.url, []);
    const read = await readCanaryFile(ctx.sources.providerCanaryFile);
    const doc = buildProviderCanary(read, ctx.now());
    return reply.headers({ ...BASE_HEADERS, 'content-type': JSON_TYPE, 'cache-control': 'no-store' }).send(doc);
  });
}
