/**
 * The four pages (specification, "Endpoints": /gspc-verify, /methodology, /pricing, /dashboard)
 * and their assets. Server-rendered HTML that reads well without JavaScript; small bundled
 * scripts add plots and in-browser verification.
 */
import type { FastifyInstance } from 'fastify';
import { registerAssetRoutes } from './asset-routes.js';
import type { PageContext } from './page-context.js';
import { registerMethodologyPage } from './methodology-page.js';
import { registerPricingPage } from './pricing-page.js';
import { registerDashboardPage } from './dashboard-page.js';
import { registerAxisPage } from './dashboard-axis-page.js';
import { registerItemExplorerPage } from './item-explorer-page.js';
import { registerVerifyPage } from './verify-page.js';

export function registerPageRoutes(app: FastifyInstance, ctx: PageContext): void {
  registerAssetRoutes(app);
  registerMethodologyPage(app, ctx);
  registerPricingPage(app, ctx);
  registerDashboardPage(app, ctx);
  registerAxisPage(app, ctx);
  registerItemExplorerPage(app, ctx);
  registerVerifyPage(app, ctx);
}
