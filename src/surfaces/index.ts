/** Registers the agent surfaces (MCP, A2A, AG-UI) on the app; each module owns its routes. */
import type { FastifyInstance } from 'fastify';
import type { DocumentEntry } from '../serve/documents/document.js';
import type { SurfaceContext } from './context.js';
import { registerMcpRoutes } from './mcp/mcp-routes.js';
import { agentCardDocuments, registerA2aRoutes } from './a2a/a2a-routes.js';
import { registerAguiRoutes } from './agui/agui-routes.js';

/** The documents the surfaces publish (the A2A agent card), for the registry. */
export function surfaceDocuments(ctx: SurfaceContext): DocumentEntry[] {
  return agentCardDocuments(ctx);
}

export function registerSurfaces(app: FastifyInstance, ctx: SurfaceContext): void {
  registerMcpRoutes(app, ctx);
  registerA2aRoutes(app, ctx);
  registerAguiRoutes(app, ctx);
}
export type { SurfaceContext } from './context.js';
