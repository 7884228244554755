/**
 * The signed evidence of a release, produced at publish time and stored in the release (so it is
 * immutable and byte-identical for the same corpus, keys and history): every card, the card
 * bundle, index and matrix, the withdrawal and supersession ledgers, the public root and its
 * pointer. Paths are relative to the release directory.
 */
import { rootBinding } from '../core/evidence/witness.js';
import type { PublishedKey } from '../core/evidence/did.js';
import {
  cardMatrix,
  cardIndex,
  supersessionLedger,
  withdrawalLedger,
  activeCards,
  type IssuedCard,
  type SupersessionEntry,
  type WithdrawalEntry,
} from '../core/evidence/card-matrix.js';
import { sealCard } from '../core/evidence/card.js';
import { transitionId, transitionsDocument, type TransitionRecord } from '../core/evidence/key-transition.js';
import { planCards, type CardSourceFile } from '../core/evidence/measurement-cards.js';
import { buildRoot } from '../core/evidence/public-root.js';
import {
  extendLog,
  logEntriesDocument,
  logHistoryDocument,
  logOrigin,
  type PreviousLog,
} from '../core/evidence/card-log.js';
import type { SignerState } from '../core/evidence/signer.js';
import { publishedUrl } from '../core/board/peritem-manifest.js';
import type { Corpus } from '../corpus/read-corpus.js';
import type { DerivedRelease } from './derive.js';

export const EVIDENCE_DIR = 'evidence';

/**
 * Where each evidence file of a release is served (cards, `cards/<id16>.json`, are served at
 * `/cards/<id16>.json`). The server and `gspc verify` of a release directory both read this.
 */
export const EVIDENCE_URL_BY_FILE: Readonly<Record<string, string>> = {
  'root.json': '/root.json',
  'card-root-latest.json': '/interop/card-root-latest.json',
  'cards-bundle.json': '/cards-bundle.json',
  'card-index.json': '/cards/index.json',
  'card-matrix.json': '/signed/card-matrix.json',
  'withdrawals.json': '/ledgers/withdrawals.json',
  'supersessions.json': '/ledgers/supersessions.json',
  'public-keys.json': '/release/public-keys.json',
  'log-entries.json': '/log/entries.json',
  'log-history.json': '/log/history.json',
  'log-checkpoint': '/log/checkpoint',
  'key-transitions.json': '/keys/transitions.json',
};

/** The public URL of a release's evidence file (path relative to the release), if it is served. */
export function evidenceUrl(path: string): string | undefined {
  if (!path.startsWith(`${EVIDENCE_DIR}/`)) return undefined;
  const name = path.slice(EVIDENCE_DIR.length + 1);
  if (/^cards\/[0-9a-f]{16}\.json$/.test(name)) return `/${name}`;
  return EVIDENCE_URL_BY_FILE[name];
}

/** What a new release inherits from the current one: its cards and ledgers. */
export interface PreviousEvidence {
  cards: IssuedCard[];
  withdrawals: WithdrawalEntry[];
  supersessions: SupersessionEntry[];
}

export interface EvidenceInputs {
  did: string;
  boardKey: SignerState;
  publishedKeys: readonly PublishedKey[];
  previous?: PreviousEvidence;
  /** The largest card log published before (the log only grows, whichever release is current). */
  previousLog?: PreviousLog;
  /** Every transition of the DID's keys (rotations, revocations, adoptions), oldest first; logged before the cards. */
  transitions?: readonly TransitionRecord[];
}

/** Every JSON evidence file's bytes: indented by two spaces, with a final newline. */
export const evidenceJson = (v: unknown): Buffer => Buffer.from(`${JSON.stringify(v, null, 2)}\n`);
const json = evidenceJson;

/** `/interop/card-root-latest.json`: binds the exact bytes of `/root.json` (its SHA-256 and length). */
export function rootPointer(root: Buffer) {
  const record = JSON.parse(root.toString('utf8')) as { merkle_root: string; leaf_count: number; as_of: string };
  return {
    schema: 'svc.card-root-pointer/1',
    ...rootBinding(root, record),
    witness_url: '/interop/root-witness-latest.json',
    cards_bundle_url: '/cards-bundle.json',
    card_matrix_url: '/signed/card-matrix.json',
  };
}

export function buildEvidence(corpus: Corpus, derived: DerivedRelease, inputs: EvidenceInputs): Map<string, Buffer> {
  const asOf = corpus.meta.as_of;
  const files = new Map(corpus.files.map((f) => [f.path, f]));
  const sourceOf = (axis: string): CardSourceFile => {
    const rows = files.get(`peritem/${axis}.jsonl`);
    const f = rows ?? files.get(`axes/${axis}.json`)!;
    const ev = derived.source.axes.find((a) => a.row.axis === axis)?.row.evidence_url;
    const evidence = ev ? files.get(ev.slice(1)) : undefined;
    const used = evidence ?? f;
    const count = rows ? corpus.tables.get(axis)?.rowCount : undefined;
    return { url: publishedUrl(used.path).url, sha256: used.sha256, ...(count !== undefined && { rows: count }) };
  };
  const kid = inputs.boardKey.healthy ? inputs.boardKey.signer.kid : inputs.boardKey.kid;
  const issued: IssuedCard[] = planCards(derived.source.axes, { asOf, signerKid: kid, sourceOf }).map((p) => ({
    card: sealCard(p.body, inputs.boardKey),
    model: p.model,
    axis: p.axis,
    ...(p.withdrawn !== undefined && { withdrawn: p.withdrawn }),
  }));
  const prev = inputs.previous;
  const out = new Map<string, Buffer>();
  for (const c of issued) out.set(`${EVIDENCE_DIR}${c.card.url}`, json(c.card));
  const active = activeCards(issued);
  out.set(
    `${EVIDENCE_DIR}/cards-bundle.json`,
    json({ schema: 'svc.cards-bundle/1', as_of: asOf, cards: active.map((c) => c.card) }),
  );
  out.set(`${EVIDENCE_DIR}/card-index.json`, json(cardIndex(asOf, issued)));
  out.set(`${EVIDENCE_DIR}/card-matrix.json`, json(cardMatrix(asOf, issued)));
  out.set(`${EVIDENCE_DIR}/withdrawals.json`, json(withdrawalLedger(asOf, issued, prev?.withdrawals)));
  out.set(
    `${EVIDENCE_DIR}/supersessions.json`,
    json(supersessionLedger(asOf, issued, prev?.cards ?? [], prev?.supersessions)),
  );
  // Issued-card metadata (model and withdrawal) that card files do not carry, for the next publish.
  out.set(
    `${EVIDENCE_DIR}/issued.json`,
    json(
      issued.map((c) => ({
        sha256: c.card.sha256,
        model: c.model,
        axis: c.axis,
        ...(c.withdrawn !== undefined && { withdrawn: c.withdrawn }),
      })),
    ),
  );
  const root = json(
    buildRoot(
      active.map((c) => c.card.sha256),
      asOf,
      inputs.did,
      inputs.boardKey,
    ),
  );
  out.set(`${EVIDENCE_DIR}/root.json`, root);
  out.set(`${EVIDENCE_DIR}/card-root-latest.json`, json(rootPointer(root)));
  const transitions = inputs.transitions ?? [];
  const log = extendLog(
    inputs.previousLog,
    active.map((c) => c.card.sha256),
    logOrigin(inputs.did),
    inputs.boardKey,
    transitions.map(transitionId),
  );
  // Only once there is one: a release of keys that never changed keeps the bytes it always had.
  if (transitions.length > 0)
    out.set(`${EVIDENCE_DIR}/key-transitions.json`, json(transitionsDocument(inputs.did, transitions)));
  out.set(`${EVIDENCE_DIR}/log-entries.json`, json(logEntriesDocument(log, kid)));
  out.set(`${EVIDENCE_DIR}/log-history.json`, json(logHistoryDocument(log)));
  if (log.checkpoint !== undefined) out.set(`${EVIDENCE_DIR}/log-checkpoint`, Buffer.from(log.checkpoint, 'utf8'));
  out.set(
    `${EVIDENCE_DIR}/public-keys.json`,
    json({
      did: inputs.did,
      keys: inputs.publishedKeys.map((k) => ({
        fragment: k.fragment,
        x: Buffer.from(k.publicKey).toString('base64url'),
      })),
    }),
  );
  return out;
}
