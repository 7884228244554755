/** The a2a surface (stub: filled in by issue 6 work). */
import type { FastifyInstance } from 'fastify';
import type { SurfaceContext } from '../context.js';

export function registerA2aRoutes(_app: FastifyInstance, _ctx: SurfaceContext): void {}
