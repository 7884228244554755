/**
 * GET /api/capability-fabric: the capability fabric and its action contract (specification,
 * "Capability fabric"; the path is ours: "the paths that serve the capability fabric document:
 * not shown"). Built from the observer's cache at request time: it never waits on a probe.
 */
import type { FastifyInstance } from 'fastify';
import { fabricDocument } from '../../core/fabric/fabric-document.js';
import { BASE_HEADERS } from '../errors.js';
import { readQuery } from '../query.js';
import type { StatusContext } from './context.js';
import type { FabricObserver } from '../../status/fabric-observer.js';

export function registerFabricRoutes(app: FastifyInstance, ctx: StatusContext, observer: FabricObserver): void {
  app.addHook('onClose', () => observer.stop());
  app.get('/api/capability-fabric', (req, reply) => {
    readQuery(req.url, []);
    // Probes start with the first reader (a service that is never asked never probes itself).
    observer.start();
    const doc = fabricDocument(observer.snapshot(), ctx.now());
    reply.headers({ ...BASE_HEADERS, 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' }).send(JSON.stringify(doc));
  });
}
