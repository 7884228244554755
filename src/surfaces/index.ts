/** Registers the agent surfaces (MCP, A2A, AG-UI) on the app; each module owns its routes. */
import type { FastifyInstance } from 'fastify';
import type { SurfaceContext } from './context.js';
import { registerMcpRoutes } from './mcp/mcp-routes.js';
import { registerA2aRoutes } from './a2a/a2a-routes.js';
import { registerAguiRoutes } from './agui/agui-routes.js';

export function registerSurfaces(app: FastifyInstance, ctx: SurfaceContext): void {
  registerMcpRoutes(app, ctx);
  registerA2aRoutes(app, ctx);
  registerAguiRoutes(app, ctx);
}
export type { SurfaceContext } from './context.js';
