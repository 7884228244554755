/**
 * `GET /api/capability-fabric`: the capability fabric and its action contract (specification,
 * "Capability fabric"; the path is ours: "the paths that serve the capability fabric document:
 * not shown"). Built from the observer's cache at request time: it never waits on a probe.
 */
import { fabricDocument } from '../../core/fabric/fabric-document.js';
import { built, type DocumentEntry } from './document.js';

export const fabricDocumentEntry: DocumentEntry<ReturnType<typeof fabricDocument>> = {
  id: 'capability-fabric',
  route: '/api/capability-fabric',
  query: [],
  schema: 'svc.capability-fabric/0.1',
  cache: { kind: 'request', cacheControl: 'no-store' },
  paths: () => ['/api/capability-fabric'],
  read: (ctx) => {
    // Probes start with the first reader (a service that is never asked never probes itself).
    ctx.fabric.start();
    return built(fabricDocument(ctx.fabric.snapshot(), ctx.now()), 'no-store');
  },
};
