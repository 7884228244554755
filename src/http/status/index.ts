/**
 * Registers every status document route (specification: "read documents named by the rails
 * and invariants"), one module per document.
 */
import type { FastifyInstance } from 'fastify';
import type { StatusContext } from './context.js';
import { registerCorrectionsRoutes } from './corrections-routes.js';
import { registerActionJobsRoutes } from './action-jobs-routes.js';
import { registerOracleFleetRoutes } from './oracle-fleet-routes.js';
import { registerRegulationRoutes } from './regulation-routes.js';
import { registerReportedRoutes } from './reported-routes.js';
import { registerEastWestRoutes } from './east-west-routes.js';
import { registerInsurabilityRoutes } from './insurability-routes.js';
import { registerComputeRoutes } from './compute-routes.js';
import { registerXrplRoutes } from './xrpl-routes.js';
import { registerFabricRoutes } from './fabric-routes.js';
import { registerAggregateRoutes } from './aggregate-routes.js';
import { FabricObserver } from '../../status/fabric-observer.js';
import { HubIndexReader } from '../../status/hub-index.js';
import { ACTION_TIMEOUT_MS } from '../../core/fabric/actions.js';

/** The long-lived readers of the status routes; built from the context unless given (tests). */
export interface StatusReaders {
  fabric?: FabricObserver;
  hubs?: HubIndexReader;
}

/** How often the fabric probes its rails again by default (GSPC_FABRIC_REFRESH_SECONDS). */
export const DEFAULT_FABRIC_REFRESH_MS = 60_000;

export function registerStatusRoutes(app: FastifyInstance, ctx: StatusContext, readers: StatusReaders = {}): void {
  const fabric = readers.fabric ?? new FabricObserver({ origin: ctx.baseUrl, timeoutMs: ACTION_TIMEOUT_MS, fetch: (url, init) => fetch(url, init), now: ctx.now, refreshMs: DEFAULT_FABRIC_REFRESH_MS });
  const hubs = readers.hubs ?? new HubIndexReader({ peers: ctx.sources.hubPeers, timeoutMs: ACTION_TIMEOUT_MS, now: ctx.now });
  registerFabricRoutes(app, ctx, fabric);
  registerAggregateRoutes(app, ctx, hubs);
  registerCorrectionsRoutes(app, ctx);
  registerActionJobsRoutes(app, ctx);
  registerOracleFleetRoutes(app, ctx);
  registerRegulationRoutes(app, ctx);
  registerReportedRoutes(app, ctx);
  registerEastWestRoutes(app, ctx);
  registerInsurabilityRoutes(app, ctx);
  registerComputeRoutes(app, ctx);
  registerXrplRoutes(app, ctx);
}
export type { StatusContext } from './context.js';
export { NO_SOURCES } from './context.js';
