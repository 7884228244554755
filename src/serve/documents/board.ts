/**
 * `GET /api/gspc[?axis=]` (specification, "GET /api/gspc") and the published per-item and
 * evidence files. Board bytes come pre-serialised from the served state; nothing is rebuilt
 * per request.
 */
import { GspcError } from '../../core/errors.js';
import type { BoardResponse } from '../../core/board/board.js';
import { CACHE_CONTROL } from '../prepared-bytes.js';
import { prepared, type DocumentEntry } from './document.js';

export const boardDocument: DocumentEntry<BoardResponse> = {
  id: 'board',
  route: '/api/gspc',
  query: ['axis'],
  schema: 'svc.gspc-axes/0.5',
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  paths: (current) => ['/api/gspc', ...current.knownAxes.map((a) => `/api/gspc?axis=${a}`)],
  read: (ctx, req) => {
    const current = ctx.state.current();
    const board = current.boards.get(req.query.get('axis') ?? '');
    if (!board) throw new GspcError('unknown_axis', 'unknown axis', { known: current.knownAxes });
    // A signed release is never served unsigned (issue 38): while its board cannot be signed the
    // answer is a 503 (no-store), never an unsigned board a cache would keep.
    if (current.release.evidence.root.sig_ed25519 !== null && current.boardStamp.verification_state === 'UNSIGNED')
      throw new GspcError(
        'keys_unhealthy',
        `the release is signed but its board cannot be signed now: ${current.boardStamp.reason ?? 'the board key is unhealthy'}`,
      );
    return prepared(board);
  },
};

/** A published corpus or evidence file of the release, byte for byte (`/peritem/…`, `/evidence/…`). */
function releaseFiles(id: string, prefix: '/peritem/' | '/evidence/'): DocumentEntry {
  return {
    id,
    route: `${prefix}*`,
    query: null,
    schema: null,
    cache: { kind: 'release', cacheControl: CACHE_CONTROL },
    paths: (current) => [...current.files.keys()].filter((p) => p.startsWith(prefix)),
    read: (ctx, req) => {
      const f = ctx.state.current().files.get(req.path);
      if (!f) throw new GspcError('not_found', `no published file at ${req.path}`);
      return prepared(f);
    },
  };
}

export const peritemFiles = releaseFiles('peritem-file', '/peritem/');
export const evidenceFiles = releaseFiles('evidence-file', '/evidence/');
