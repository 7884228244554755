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

export function registerStatusRoutes(app: FastifyInstance, ctx: StatusContext): void {
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
export type { StatusContext, StatusSources } from './context.js';
export { NO_SOURCES } from './context.js';
