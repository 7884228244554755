/**
 * `GET /api/gspc` (specification, "GET /api/gspc") and the published per-item files.
 * Board bytes come pre-serialised from the served state; nothing is rebuilt per request.
 */
import type { FastifyInstance } from 'fastify';
import { GspcError } from '../core/errors.js';
import { readQuery } from './query.js';
import { sendPrepared } from './send.js';
import type { ServedState } from './served-state.js';

export function registerBoardRoutes(app: FastifyInstance, state: ServedState): void {
  app.get('/api/gspc', (req, reply) => {
    const current = state.current();
    const axis = readQuery(req.url, ['axis']).get('axis');
    const board = current.boards.get(axis ?? '');
    if (!board) throw new GspcError('unknown_axis', 'unknown axis', { known: current.knownAxes });
    return sendPrepared(req, reply, board);
  });

  const file = (req: { url: string }) => {
    const path = req.url.split('?')[0]!;
    const f = state.current().files.get(path);
    if (!f) throw new GspcError('not_found', `no published file at ${path}`);
    return f;
  };
  app.get('/peritem/*', (req, reply) => sendPrepared(req, reply, file(req)));
  app.get('/evidence/*', (req, reply) => sendPrepared(req, reply, file(req)));
}
