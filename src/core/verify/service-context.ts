/**
 * What a card is verified against, built from the service's public files alone: the DID
 * document's keys, the signed root (its signature checked), the withdrawal and supersession
 * ledgers, and the card log (its root recomputed from every entry and compared with the
 * checkpoint the board key signed). Browser-safe (injected primitives, files read through a
 * `get(path)` the caller provides), so the /gspc-verify page builds its context from exactly the
 * files `gspc verify` reads, with the same checks and the same wording (src/verify/
 * release-verifier.ts and log-verifier.ts), and hands it to the one card verifier.
 *
 * Inclusion under the root: for a bundle whose recomputed root equals the signed root and its
 * signed leaf_count, every card of the bundle is known to be included (as `gspc verify` does);
 * otherwise each card's published proof (/cards/<id>.proof.json) is read and checked against the
 * signed root by the card verifier. A proof is only asked for a card that can have one (a log
 * entry that is neither withdrawn nor superseded): that can make a card INVALID, never VALID.
 */
import { BOARD_KEY } from '../evidence/signer.js';
import { supersededNow } from '../evidence/card-matrix.js';
import {
  revocationsOfDidDocument,
  verifyCard,
  type CardVerdict,
  type CardVerificationContext,
  type InclusionProof,
} from './card-verifier.js';
import { checkLogCheckpoint } from './log-proof.js';
import { verifyRootRecord } from './root-verifier.js';
import { dupRootHex, logRootHex } from './tree-roots.js';
import type { VerifyCrypto } from '../crypto/verify-crypto.js';
import type { KeyAnchorCheck } from './key-source.js';
import { keysOfView, type KeysAt, type PublicFiles } from './view-keys.js';
import { isObject, parseJsonBytes } from './json-bytes.js';

export type { KeysAt, PublicFiles } from './view-keys.js';
export { anchoredKeysOf, listsRetiredKeys } from './view-keys.js';

/** A check of the context; `ok: null` is a statement, neither a pass nor a failure. */
export interface ContextCheck {
  check: string;
  ok: boolean | null;
  detail: string;
}

export interface ServiceContext {
  /** The DID document's id, when it has one. */
  did: string | undefined;
  /** The DID document whose keys every check uses: the DID's host's when anchored there. */
  didDocument: unknown;
  /** The `key_anchor` check, when the keys were anchored (a VALID card under unanchored keys is not VALID: anchoredVerdict). */
  anchor?: KeyAnchorCheck;
  keys: ReadonlyMap<string, Uint8Array>;
  root: { merkle_root: string; leaf_count: number; as_of: string } | null;
  checks: ContextCheck[];
  /** The card verifier's context (inclusion by per-card proof). */
  context: CardVerificationContext;
}

const decoder = new TextDecoder('utf-8', { fatal: true });
const parse = parseJsonBytes;

const isHex64 = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);

/** The log origin of a did:web DID: its host (port included) + `/log` (src/core/evidence/card-log.ts). */
export function logOriginOf(did: string): string {
  return `${did.slice('did:web:'.length).replace('%3A', ':')}/log`;
}

/** Ledger entries sha256 → field, as `gspc verify` reads them (a missing ledger is empty). */
function ledgerEntries(doc: unknown, field: string): [sha256: string, value: string][] {
  const entries = isObject(doc) && Array.isArray(doc.entries) ? doc.entries : [];
  return entries.filter(isObject).map((e) => [String(e.sha256), String(e[field])]);
}

export async function loadServiceContext(
  files: PublicFiles,
  crypto: VerifyCrypto,
  anchoring?: { keysAt: KeysAt; hint: string },
): Promise<ServiceContext> {
  const checks: ContextCheck[] = [];
  const add = (check: string, ok: boolean | null, detail: string) => {
    checks.push({ check, ok, detail });
    return ok === true;
  };

  const [didBytes, rootBytes, withdrawals, supersessions, entriesBytes, noteBytes] = await Promise.all([
    files.get('/.well-known/did.json'),
    files.get('/root.json'),
    files.get('/ledgers/withdrawals.json'),
    files.get('/ledgers/supersessions.json'),
    files.get('/log/entries.json'),
    files.get('/log/checkpoint'),
  ]);
  const entriesDoc = parse(entriesBytes);
  const entries = isObject(entriesDoc) && Array.isArray(entriesDoc.entries) ? entriesDoc.entries.filter(isHex64) : [];
  // The keys of every check: the DID's host's (issue 36), or the view's own when not anchored here.
  const { didDocument, did, keys, anchor } = await keysOfView(files, crypto, parse(didBytes), entries, anchoring, add);

  const rootRecord = parse(rootBytes);
  let root: ServiceContext['root'] = null;
  let rootSignatureValid = false;
  if (!isObject(rootRecord)) add('root', false, 'no /root.json');
  else {
    const sig = await verifyRootRecord(rootRecord, keys, crypto);
    rootSignatureValid = sig.ok;
    add('root_signature', sig.ok, sig.detail);
    if (typeof rootRecord.merkle_root === 'string' && Number.isSafeInteger(rootRecord.leaf_count)) {
      root = {
        merkle_root: rootRecord.merkle_root,
        leaf_count: rootRecord.leaf_count as number,
        as_of: String(rootRecord.as_of),
      };
    }
  }
  const withdrawn = new Map(ledgerEntries(parse(withdrawals), 'reason'));
  // In ledger order: a card superseded and later issued again is current (supersededNow).
  const superseded = supersededNow(
    ledgerEntries(parse(supersessions), 'superseded_by').map(([sha256, by]) => ({ sha256, superseded_by: by })),
  );

  const log = await loadLog(parse(entriesBytes), noteBytes, did, keys, crypto, add);
  const logged = log?.entries;
  const proofFor = async (sha: string): Promise<InclusionProof | undefined> => {
    if ((logged && !logged.has(sha)) || withdrawn.has(sha) || superseded.has(sha)) return undefined;
    const doc = parse(await files.get(`/cards/${sha.slice(0, 16)}.proof.json`));
    if (
      !isObject(doc) ||
      doc.sha256 !== sha ||
      !Number.isSafeInteger(doc.leaf_index) ||
      !Number.isSafeInteger(doc.leaf_count)
    )
      return undefined;
    if (!Array.isArray(doc.proof) || !doc.proof.every((p) => typeof p === 'string')) return undefined;
    return { leaf_index: doc.leaf_index as number, leaf_count: doc.leaf_count as number, proof: doc.proof as string[] };
  };
  return {
    did,
    didDocument,
    ...(anchor && { anchor }),
    keys,
    root,
    checks,
    context: {
      keys,
      revocations: revocationsOfDidDocument(didDocument),
      root,
      rootSignatureValid,
      withdrawn,
      superseded,
      proofFor,
      ...(log && { log: log.context }),
    },
  };
}

/** The card log: origin, checkpoint (board key), root recomputed from every entry. */
async function loadLog(
  doc: unknown,
  noteBytes: Uint8Array | undefined,
  did: string | undefined,
  keys: ReadonlyMap<string, Uint8Array>,
  crypto: VerifyCrypto,
  add: (c: string, ok: boolean | null, d: string) => boolean,
): Promise<{ entries: ReadonlySet<string>; context: NonNullable<CardVerificationContext['log']> } | undefined> {
  if (!isObject(doc) || !Array.isArray(doc.entries) || !doc.entries.every(isHex64) || did === undefined) {
    add('log', false, 'no /log/entries.json');
    return undefined;
  }
  const entries = doc.entries as string[];
  const origin = logOriginOf(did);
  if (
    !add(
      'log_origin',
      doc.origin === origin,
      doc.origin === origin
        ? `origin ${origin}`
        : `origin ${String(doc.origin)} is not ${origin} (the DID's host + /log)`,
    )
  )
    return undefined;
  const rootHex = (await logRootHex(crypto, entries))!;
  const boardKey = keys.get(`${did}#${BOARD_KEY}`);
  let note: string | undefined;
  try {
    note = noteBytes === undefined ? undefined : decoder.decode(noteBytes);
  } catch {
    note = undefined;
  }
  const checkpointValid = await checkLogCheckpoint(crypto, note, origin, boardKey, entries.length, rootHex, add);
  const set = new Set(entries);
  return {
    entries: set,
    context: {
      origin,
      tree_size: entries.length,
      root_hash: rootHex,
      checkpointValid,
      // The tree was recomputed from every entry and matched the signed checkpoint, so every
      // entry is in the log and nothing else is: no per-card log proof is needed.
      ...(checkpointValid && { knownLogged: set, indexOf: (sha: string) => entries.indexOf(sha) }),
      proofFor: () => undefined,
    },
  };
}

/**
 * The context for verifying `cards` together: when the root recomputed from their hashes equals
 * the signed root and its signed leaf_count, each is known to be under the root (no proofs
 * needed); otherwise the per-card proofs are used. The check says which.
 */
export async function contextForBundle(
  service: ServiceContext,
  cards: readonly unknown[],
  crypto: VerifyCrypto,
): Promise<{ context: CardVerificationContext; check: ContextCheck }> {
  const hashes = cards.map((c) => (isObject(c) && typeof c.sha256 === 'string' ? c.sha256 : ''));
  const root = service.root;
  if (!root)
    return {
      context: service.context,
      check: { check: 'root_recomputed', ok: false, detail: 'no public root to recompute' },
    };
  const recomputed = hashes.every(isHex64) ? await dupRootHex(crypto, hashes) : undefined;
  const matches = recomputed === root.merkle_root && hashes.length === root.leaf_count;
  if (matches) {
    // As `gspc verify`: only a root whose signature verifies makes the bundle's cards included.
    if (!service.context.rootSignatureValid)
      return {
        context: service.context,
        check: {
          check: 'root_recomputed',
          ok: true,
          detail: `merkle_root recomputed from ${hashes.length} active cards, but the root's signature does not verify`,
        },
      };
    return {
      context: { ...service.context, knownIncluded: new Set(hashes) },
      check: {
        check: 'root_recomputed',
        ok: true,
        detail: `merkle_root recomputed from ${hashes.length} active cards`,
      },
    };
  }
  // Not the whole active set (a few cards, or a bundle of another release): each card's proof is read.
  const detail =
    recomputed === undefined
      ? 'the bundle has cards without a 64-hex sha256, so the root cannot be recomputed from it; each card is checked with its own inclusion proof'
      : `recomputed ${recomputed} over ${hashes.length} cards; the root says ${root.merkle_root} over ${root.leaf_count}: the bundle is not the root's active set, so each card is checked with its own inclusion proof`;
  return {
    context: service.context,
    check: {
      check: 'root_recomputed',
      ok: hashes.length === root.leaf_count && recomputed !== undefined ? false : null,
      detail,
    },
  };
}

/** What a pasted or dropped document holds: one card, or the cards of a bundle. */
export type CardInput =
  | { kind: 'card'; cards: [unknown] }
  | { kind: 'bundle'; cards: unknown[] }
  | { kind: 'error'; reason: string };

/** A card, a cards bundle (`{"cards": [...]}`, as /cards-bundle.json and POST /api/verify take) or an array of cards. */
export function cardsOfDocument(doc: unknown): CardInput {
  if (Array.isArray(doc))
    return doc.length === 0 ? { kind: 'error', reason: 'the list holds no card' } : { kind: 'bundle', cards: doc };
  if (!isObject(doc)) return { kind: 'error', reason: 'a card or a cards bundle is a JSON object' };
  if (Array.isArray(doc.cards))
    return doc.cards.length === 0
      ? { kind: 'error', reason: 'the bundle holds no card' }
      : { kind: 'bundle', cards: doc.cards };
  if (doc.schema === 'card-v1') return { kind: 'card', cards: [doc] };
  return { kind: 'error', reason: 'not a card (schema card-v1) nor a cards bundle ({"cards": [...]})' };
}

/**
 * Verifies cards with the one card verifier, `concurrency` at a time (WebCrypto works off the
 * main thread, so several cards in flight are faster than one), results in input order.
 */
export async function verifyCards(
  cards: readonly unknown[],
  context: CardVerificationContext,
  crypto: VerifyCrypto,
  opts: { concurrency?: number; onProgress?: (done: number) => void; progressEvery?: number } = {},
): Promise<CardVerdict[]> {
  const out: CardVerdict[] = new Array(cards.length);
  const every = opts.progressEvery ?? 500;
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < cards.length) {
      const i = next++;
      out[i] = await verifyCard(cards[i], context, crypto);
      done++;
      if (opts.onProgress && done % every === 0) opts.onProgress(done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 1, cards.length)) }, worker));
  return out;
}
