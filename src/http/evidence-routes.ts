/**
 * Signed evidence, read-only and free: the DID document, cards (by id prefix), the card index,
 * bundle and matrix, the ledgers, the public root, its pointer and witness record, and the
 * inclusion proof of any active card under the signed root. All bytes are prepared per release.
 */
import type { FastifyInstance } from 'fastify';
import { GspcError } from '../core/errors.js';
import { sendPrepared } from './send.js';
import { readQuery } from './query.js';
import { BASE_HEADERS } from './errors.js';
import type { ServedState } from './served-state.js';

export const EVIDENCE_PATHS = [
  '/.well-known/did.json', '/root.json', '/interop/card-root-latest.json', '/interop/root-witness-latest.json',
  '/cards-bundle.json', '/cards/index.json', '/signed/card-matrix.json', '/ledgers/withdrawals.json', '/ledgers/supersessions.json',
  '/log/checkpoint', '/log/vkey', '/log/entries.json', '/log/history.json',
] as const;

export function registerEvidenceRoutes(app: FastifyInstance, state: ServedState): void {
  for (const path of EVIDENCE_PATHS) {
    app.get(path, (req, reply) => {
      const f = state.current().files.get(path);
      if (!f) throw new GspcError('not_found', `${path} is not published by this release`);
      return sendPrepared(req, reply, f);
    });
  }
  // Consistency from any earlier size to the current checkpoint, computed from the stored tree.
  app.get('/log/consistency', (req, reply) => {
    const log = state.current().log;
    const from = readQuery(req.url, ['from']).get('from');
    if (from === undefined || !/^(0|[1-9][0-9]{0,15})$/.test(from) || Number(from) > log.size) {
      throw new GspcError('bad_query', `from must be a tree size between 0 and the current size ${log.size}`);
    }
    reply.headers({ ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' });
    return reply.send(`${JSON.stringify({ schema: 'svc.card-log-consistency/1', ...log.consistency(Number(from)) }, null, 2)}\n`);
  });
  app.get<{ Params: { file: string } }>('/cards/:file', (req, reply) => {
    const m = /^([0-9a-f]{16})(\.proof)?\.json$/.exec(req.params.file);
    if (!m) throw new GspcError('not_found', 'cards are served at /cards/<first 16 hex of sha256>.json and their proofs at /cards/<id>.proof.json');
    const current = state.current();
    if (m[2]) {
      const proof = current.proofFor(m[1]!);
      if (!proof) throw new GspcError('not_found', `no active card under the current root has id ${m[1]}`);
      return sendPrepared(req, reply, proof);
    }
    const f = current.files.get(`/cards/${m[1]}.json`);
    if (!f) throw new GspcError('not_found', `no card with id ${m[1]}`);
    return sendPrepared(req, reply, f);
  });
}
