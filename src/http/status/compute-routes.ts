/** Routes of the compute status document (stub: filled in by issue 5 work). */
import type { FastifyInstance } from 'fastify';
import type { StatusContext } from './context.js';

export function registerComputeRoutes(_app: FastifyInstance, _ctx: StatusContext): void {}
