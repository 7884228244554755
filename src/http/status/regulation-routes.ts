/**
 * `GET /api/regulation`: the regulation deadline feed (`svc.regulation-feed/0.1`; specification,
 * "Versioning" §5 and the capability action `svc.regulation.deadlines.read`, which requires
 * `schema` and `deadlines`). Built per request because `days_until` and the reverification state
 * depend on the clock: `cache-control: no-store`. Without a corpus file: 200 with null blocks
 * and the reason. No query parameters (any is a 400 `bad_query`).
 */
import type { FastifyInstance } from 'fastify';
import { regulationFeed } from '../../core/status/regulation-feed.js';
import { BASE_HEADERS } from '../errors.js';
import { readQuery } from '../query.js';
import type { StatusContext } from './context.js';

const HEADERS = { ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } as const;

export function registerRegulationRoutes(app: FastifyInstance, ctx: StatusContext): void {
  app.get('/api/regulation', (req, reply) => {
    readQuery(req.url, []);
    const doc = regulationFeed(ctx.state.current().release.corpus.status.regulation, ctx.now());
    return reply.code(200).headers(HEADERS).send(JSON.stringify(doc));
  });
}
