/** The agui surface (stub: filled in by issue 6 work). */
import type { FastifyInstance } from 'fastify';
import type { SurfaceContext } from '../context.js';

export function registerAguiRoutes(_app: FastifyInstance, _ctx: SurfaceContext): void {}
