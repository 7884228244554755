/** Routes of the regulation status document (stub: filled in by issue 5 work). */
import type { FastifyInstance } from 'fastify';
import type { StatusContext } from './context.js';

export function registerRegulationRoutes(_app: FastifyInstance, _ctx: StatusContext): void {}
