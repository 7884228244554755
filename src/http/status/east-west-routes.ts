/**
 * `GET /api/east-west-bench`: the east-west bench (`svc.east-west-bench/0.1`), derived from the
 * served release's per-item rows with the board's ranking and statistics. A function of the
 * release only, so it is derived once per release and served as prepared bytes with an ETag and
 * `public, max-age=300`. Without `status/east-west.json`: 200 with null axes and the reason.
 * No query parameters (any is a 400 `bad_query`).
 */
import type { FastifyInstance } from 'fastify';
import { eastWestBench } from '../../core/status/east-west-bench.js';
import { prepare, type Prepared } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';
import { readQuery } from '../query.js';
import { sendPrepared } from '../send.js';
import type { StatusContext } from './context.js';

const perRelease = new WeakMap<PreparedRelease, Prepared>();

/** The bench's bytes for a served release, derived on first request. */
export function eastWestFor(p: PreparedRelease): Prepared {
  let bytes = perRelease.get(p);
  if (!bytes) {
    const { corpus } = p.release;
    const doc = eastWestBench(corpus.status.eastWest, { as_of: corpus.meta.as_of, own_models: corpus.meta.own_models, definitions: corpus.definitions, tables: corpus.tables });
    bytes = prepare(Buffer.from(JSON.stringify(doc)), 'application/json; charset=utf-8');
    perRelease.set(p, bytes);
  }
  return bytes;
}

export function registerEastWestRoutes(app: FastifyInstance, ctx: StatusContext): void {
  app.get('/api/east-west-bench', (req, reply) => {
    readQuery(req.url, []);
    return sendPrepared(req, reply, eastWestFor(ctx.state.current()));
  });
}
