/**
 * `GET /api/reported`: figures reported by others (`svc.reported-figures/0.1`), labelled
 * REPORTED and never MEASURED. A function of the served release only, so it is built once per
 * release and served as prepared bytes with an ETag and `public, max-age=300` (the board's
 * cache lifetime). Without a corpus file: 200 with `figures: null` and the reason. No query
 * parameters (any is a 400 `bad_query`).
 */
import type { FastifyInstance } from 'fastify';
import { reportedFigures } from '../../core/status/reported-figures.js';
import { prepare, type Prepared } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';
import { readQuery } from '../query.js';
import { sendPrepared } from '../send.js';
import type { StatusContext } from './context.js';

const perRelease = new WeakMap<PreparedRelease, Prepared>();

/** The document's bytes for a served release, built on first request. */
export function reportedFor(p: PreparedRelease): Prepared {
  let bytes = perRelease.get(p);
  if (!bytes) {
    bytes = prepare(Buffer.from(JSON.stringify(reportedFigures(p.release.corpus.status.reported))), 'application/json; charset=utf-8');
    perRelease.set(p, bytes);
  }
  return bytes;
}

export function registerReportedRoutes(app: FastifyInstance, ctx: StatusContext): void {
  app.get('/api/reported', (req, reply) => {
    readQuery(req.url, []);
    return sendPrepared(req, reply, reportedFor(ctx.state.current()));
  });
}
