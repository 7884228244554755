/**
 * Signed evidence, read-only and free: the DID document, cards (by id prefix) and their
 * inclusion proofs, the card index, bundle and matrix, the ledgers, the public root, its pointer
 * and witness record, the card log, and the keys' transitions (once a key was rotated). All bytes are prepared per release; only a consistency
 * proof from an arbitrary size is computed on request (from the stored tree).
 */
import { GspcError } from '../../core/errors.js';
import { CACHE_CONTROL, LOG_STATE_CACHE_CONTROL } from '../prepared-bytes.js';
import { built, prepared, type DocumentEntry } from './document.js';

export const EVIDENCE_PATHS = [
  '/.well-known/did.json',
  '/root.json',
  '/interop/card-root-latest.json',
  '/interop/root-witness-latest.json',
  '/cards-bundle.json',
  '/cards/index.json',
  '/signed/card-matrix.json',
  '/ledgers/withdrawals.json',
  '/ledgers/supersessions.json',
  '/log/checkpoint',
  '/log/vkey',
  '/log/entries.json',
  '/log/history.json',
  '/keys/transitions.json',
] as const;

const ids: Record<(typeof EVIDENCE_PATHS)[number], string> = {
  '/.well-known/did.json': 'did-document',
  '/root.json': 'root',
  '/interop/card-root-latest.json': 'root-pointer',
  '/interop/root-witness-latest.json': 'root-witness',
  '/cards-bundle.json': 'cards-bundle',
  '/cards/index.json': 'card-index',
  '/signed/card-matrix.json': 'card-matrix',
  '/ledgers/withdrawals.json': 'withdrawals',
  '/ledgers/supersessions.json': 'supersessions',
  '/log/checkpoint': 'log-checkpoint',
  '/log/vkey': 'log-vkey',
  '/log/entries.json': 'log-entries',
  '/log/history.json': 'log-history',
  '/keys/transitions.json': 'key-transitions',
};

const schemas: Partial<Record<(typeof EVIDENCE_PATHS)[number], string>> = {
  '/root.json': 'svc.public-root/1',
  '/interop/card-root-latest.json': 'svc.card-root-pointer/1',
  '/interop/root-witness-latest.json': 'svc.root-witness/1',
  '/cards-bundle.json': 'svc.cards-bundle/1',
  '/cards/index.json': 'svc.card-index/1',
  '/signed/card-matrix.json': 'svc.card-matrix/1',
  '/ledgers/withdrawals.json': 'svc.withdrawal-ledger/1',
  '/ledgers/supersessions.json': 'svc.supersession-ledger/1',
  '/log/entries.json': 'svc.card-log/1',
  '/log/history.json': 'svc.card-log-history/1',
  '/keys/transitions.json': 'svc.key-transitions/1',
};

export const evidenceDocuments: DocumentEntry[] = EVIDENCE_PATHS.map((path) => ({
  id: ids[path],
  route: path,
  query: null,
  schema: schemas[path] ?? null,
  // The log's state is revalidated on every read (WN4); the other evidence may be kept 300 s.
  cache: { kind: 'release', cacheControl: path.startsWith('/log/') ? LOG_STATE_CACHE_CONTROL : CACHE_CONTROL },
  paths: (current) => (current.files.has(path) ? [path] : []),
  read: (ctx) => {
    const f = ctx.state.current().files.get(path);
    if (!f) throw new GspcError('not_found', `${path} is not published by this release`);
    return prepared(f);
  },
}));

const CARD_FILE = /^([0-9a-f]{16})(?:(\.proof)?\.json|(\.tlog-proof))$/;

/**
 * `/cards/<id16>.json` (any card of the release, withdrawn ones included), `/cards/<id16>.proof.json`
 * (active cards) and `/cards/<id16>.tlog-proof` (every card the signed log holds: C2SP tlog-proof, TP1).
 */
export const cardDocument: DocumentEntry = {
  id: 'card',
  route: '/cards/:file',
  query: null,
  schema: null,
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  paths: (current) =>
    [...current.files.keys()].flatMap((p) => {
      const m = /^\/cards\/([0-9a-f]{16})\.json$/.exec(p);
      if (!m) return [];
      const sha = current.cardById(m[1]!)?.sha256;
      return [
        p,
        ...(current.proofFor(m[1]!) ? [`/cards/${m[1]}.proof.json`] : []),
        ...(sha !== undefined && current.log.hasTlogProof(sha) ? [`/cards/${m[1]}.tlog-proof`] : []),
      ];
    }),
  read: (ctx, req) => {
    const m = CARD_FILE.exec(req.params.file ?? '');
    if (!m)
      throw new GspcError(
        'not_found',
        'cards are served at /cards/<first 16 hex of sha256>.json and their proofs at /cards/<id>.proof.json and /cards/<id>.tlog-proof',
      );
    const current = ctx.state.current();
    if (m[3]) {
      const sha = current.cardById(m[1]!)?.sha256;
      const proof = sha === undefined ? undefined : current.log.tlogProof(sha);
      if (!proof) throw new GspcError('not_found', `no card the signed log holds has id ${m[1]}`);
      return prepared(proof);
    }
    if (m[2]) {
      const proof = current.proofFor(m[1]!);
      if (!proof) throw new GspcError('not_found', `no active card under the current root has id ${m[1]}`);
      return prepared(proof);
    }
    const f = current.files.get(`/cards/${m[1]}.json`);
    if (!f) throw new GspcError('not_found', `no card with id ${m[1]}`);
    return prepared(f);
  },
};

/** Consistency from any earlier size to the current checkpoint, computed from the stored tree. */
export const logConsistencyDocument: DocumentEntry = {
  id: 'log-consistency',
  route: '/log/consistency',
  query: ['from'],
  schema: 'svc.card-log-consistency/1',
  cache: { kind: 'request', cacheControl: LOG_STATE_CACHE_CONTROL },
  paths: (current) => Array.from({ length: current.log.size + 1 }, (_, i) => `/log/consistency?from=${i}`),
  read: (ctx, req) => {
    const log = ctx.state.current().log;
    const from = req.query.get('from');
    if (from === undefined || !/^(0|[1-9][0-9]{0,15})$/.test(from) || Number(from) > log.size) {
      throw new GspcError('bad_query', `from must be a tree size between 0 and the current size ${log.size}`);
    }
    return built(
      { schema: 'svc.card-log-consistency/1', ...log.consistency(Number(from)) },
      LOG_STATE_CACHE_CONTROL,
      true,
    );
  },
};
