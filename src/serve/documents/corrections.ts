/**
 * The corrections ledger (specification, "Corrections ledger (svc.corrections/0.1)"; Endpoints:
 * GET /api/corrections). `GET /api/corrections` serves the ledger with each entry's unsigned
 * `correction_latency` computed on the request and the state of the ledger signature, checked
 * against the board key the served release was signed with (the DID document's, or the retired one
 * for a release served again after a rotation). `GET /corrections/<id>.json` serves
 * each original entry file byte for byte.
 */
import { GspcError } from '../../core/errors.js';
import { BOARD_KEY } from '../../core/evidence/signer.js';
import { CORRECTION_ID } from '../../core/ledger/corrections-entry.js';
import { correctionsDocument, noLedgerDocument } from '../../core/ledger/corrections-document.js';
import { signatureStatus, type SignatureStatus } from '../../core/ledger/corrections-signature.js';
import { JSON_TYPE } from '../headers.js';
import { CACHE_CONTROL, prepare, type Prepared } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';
import { built, perRelease, prepared, type DocumentEntry } from './document.js';

/**
 * The ledger document follows the served release and the keys of the DID document (both can
 * change on reload), so it is cached briefly; the original files never change under their id.
 */
export const CORRECTIONS_CACHE_CONTROL = 'public, max-age=60';

interface ReleaseLedger {
  signature: SignatureStatus;
  originals: Map<string, Prepared>;
}

// Keyed by the prepared release: a new release or new keys give a new object (ServedState.swap),
// so the signature is verified once per release and key set, never per request.
const ledgerOf = perRelease((current: PreparedRelease): ReleaseLedger | null => {
  const corpus = current.release.corpus.status.corrections;
  if (corpus === undefined) return null;
  const digest = {
    ledger_sha256: corpus.ledgerSha256,
    entries: corpus.entries.map((e) => ({ id: e.id, sha256: e.sha256 })),
  };
  return {
    signature: signatureStatus(
      corpus.signature,
      digest,
      // The key the release was signed with: a ledger signed before a rotation stays CURRENT when
      // its release is served again (issue 36).
      current.signedWith,
      `${current.didDocument.id}#${BOARD_KEY}`,
    ),
    originals: new Map(corpus.entries.map((e) => [e.id, prepare(e.bytes, JSON_TYPE, e.sha256)])),
  };
});

export const correctionsLedgerDocument: DocumentEntry<ReturnType<typeof correctionsDocument>> = {
  id: 'corrections',
  route: '/api/corrections',
  query: [],
  schema: 'svc.corrections/0.1',
  cache: { kind: 'request', cacheControl: CORRECTIONS_CACHE_CONTROL },
  paths: () => ['/api/corrections'],
  read: (ctx) => {
    const current = ctx.state.current();
    const corpus = current.release.corpus.status.corrections;
    const ledger = ledgerOf(current);
    // Built on each request: correction_latency is computed per request, never stored.
    const doc = corpus && ledger ? correctionsDocument(corpus, ledger.signature) : noLedgerDocument();
    return built(doc, CORRECTIONS_CACHE_CONTROL, true);
  },
};

export const correctionEntryDocument: DocumentEntry = {
  id: 'correction-entry',
  route: '/corrections/:file',
  query: [],
  schema: null,
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  paths: (current) =>
    (current.release.corpus.status.corrections?.entries ?? []).map((e) => `/corrections/${e.id}.json`),
  read: (ctx, req) => {
    const m = /^(.*)\.json$/.exec(req.params.file ?? '');
    const id = m?.[1];
    if (id === undefined || !CORRECTION_ID.test(id))
      throw new GspcError('not_found', 'original correction entries are served at /corrections/<C-YYYY-MMDD-NN>.json');
    const original = ledgerOf(ctx.state.current())?.originals.get(id);
    if (!original) throw new GspcError('not_found', `no correction ${id} in this release's ledger`);
    return prepared(original);
  },
};
