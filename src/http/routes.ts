/**
 * The HTTP routes that are not registered documents: free verification (POST), the metered
 * products and invoices. The free GET documents are served from the registry
 * (src/web/document-routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../serve/context.js';
import { registerProductRoutes } from './product-routes.js';
import { registerVerifyRoutes } from './verify-routes.js';

export function registerHttpRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  registerVerifyRoutes(app, ctx.state, ctx.resolveKey, ctx.didHost);
  if (ctx.products) registerProductRoutes(app, ctx, ctx.products);
}
