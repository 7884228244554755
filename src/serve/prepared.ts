/**
 * Pre-serialised responses. The board for every selection (all axes, and each axis) is built
 * and serialised once per release and live state; a request copies bytes and compares ETags.
 */
import { CACHE_CONTROL, LOG_STATE_CACHE_CONTROL, prepare, type Prepared } from './prepared-bytes.js';
import type { LiveState } from '../core/board/board.js';
import { publishedUrl } from '../core/board/peritem-manifest.js';
import type { LoadedRelease } from '../release/load.js';
import { evidenceUrl } from '../release/evidence.js';
import { signedBoard, type SigningLive } from './signed-board.js';
import { keyMismatches, releaseKeys, type KeyMismatch } from '../release/release-keys.js';
import { transitionsDocument } from '../core/evidence/key-transition.js';
import { didDocument, type DidDocument } from '../core/evidence/did.js';
import type { CardFile } from '../core/evidence/card.js';
import {
  keysOfDidDocument,
  revocationsOfDidDocument,
  type CardVerificationContext,
} from '../core/verify/card-verifier.js';
import { verifyRootRecord } from '../core/verify/root-verifier.js';
import { nodeVerifyCrypto } from '../verify/node-crypto.js';
import { dupInclusionProof } from '../core/evidence/merkle/dup-root.js';
import { DupTree } from '../core/evidence/merkle/dup-tree.js';
import { rootLeaves } from '../core/evidence/public-root.js';
import { witnessRecord, type WitnessEvidence } from '../core/evidence/witness.js';
import { BOARD_KEY } from '../core/evidence/signer.js';
import { prepareLog, type PreparedLog } from './prepared-log.js';
import { cardInclusionProof } from '../core/evidence/inclusion-proofs.js';

const JSON_TYPE = 'application/json; charset=utf-8';

export interface PreparedRelease {
  release: LoadedRelease;
  /** Board bytes by selection: '' for all axes, else the axis slug. */
  boards: Map<string, Prepared>;
  /** The board's living stamp as served (VERIFIED, UNSIGNED or FAILED, with the reason): /readyz reads it. */
  boardStamp: LiveState['livingStamp'];
  knownAxes: string[];
  /** Published corpus files, evidence files and the manifest, by URL path. */
  files: Map<string, Prepared>;
  /** The inclusion proof of an active card (by 16-hex id) under the signed root. */
  proofFor(id16: string): Prepared | undefined;
  /** The same proof as an object, by 16-hex id or full sha256 (what paid artefacts embed). */
  proofObject(id: string): Record<string, unknown> | undefined;
  didDocument: DidDocument;
  /**
   * The DID document's keys by kid, with each fragment the release was signed with (a release
   * served again after a rotation: its root, checkpoint and corrections ledger are the retired key's).
   */
  signedWith: ReadonlyMap<string, Uint8Array>;
  /** SHA-256 of the exact /root.json bytes (what witnesses and timestamp proofs cover). */
  rootSha256: string;
  /** A card of this release by sha256 or its 16-hex prefix (withdrawn ones included). */
  cardById(id: string): CardFile | undefined;
  /** What the card verifier checks against (the root signature is checked once, lazily). */
  verification(): Promise<CardVerificationContext>;
  /** The card log: checkpoint, entries, proofs. */
  log: PreparedLog;
  /** The release's keys the served DID document does not give (/readyz's `keys` check reads it). */
  keyMismatches: readonly KeyMismatch[];
}

/** The DID document's keys with each fragment the release was signed with (keyMismatches gave none). */
function keysOfRelease(
  release: LoadedRelease,
  signing: SigningLive,
  doc: unknown,
  mismatches: readonly KeyMismatch[],
): Map<string, Uint8Array> {
  const keys = keysOfDidDocument(doc);
  const mismatched = new Set(mismatches.map((m) => m.fragment));
  for (const [fragment, x] of releaseKeys(release))
    if (!mismatched.has(fragment)) keys.set(`${signing.did}#${fragment}`, Buffer.from(x, 'base64url'));
  return keys;
}

export function prepareRelease(
  release: LoadedRelease,
  live: LiveState,
  signing: SigningLive,
  witnesses: readonly WitnessEvidence[] = [],
  mismatches: readonly KeyMismatch[] = keyMismatches(release, signing.published, signing.transitions),
): PreparedRelease {
  const boards = new Map<string, Prepared>();
  const serialise = (board: Record<string, unknown>) => prepare(Buffer.from(JSON.stringify(board)), JSON_TYPE);
  const all = signedBoard(release, null, live, signing, mismatches);
  boards.set('', serialise(all));
  const knownAxes = release.source.axes.map((a) => a.row.axis);
  for (const axis of knownAxes) boards.set(axis, serialise(signedBoard(release, axis, live, signing, mismatches)));

  const files = new Map<string, Prepared>();
  files.set('/peritem/manifest.json', prepare(release.manifestBytes, JSON_TYPE, release.source.peritem.sha256));
  for (const f of release.corpus.files) {
    const type = f.path.endsWith('.jsonl')
      ? 'application/x-ndjson; charset=utf-8'
      : f.path.endsWith('.json')
        ? JSON_TYPE
        : 'application/octet-stream';
    files.set(publishedUrl(f.path).url, prepare(f.bytes, type, f.sha256));
  }
  for (const [path, bytes] of release.evidence.files) {
    const url = evidenceUrl(path);
    // The keys of a release are served from the DID document, not as a file; the checkpoint
    // is served by the log, with its witness cosignatures.
    if (url && url !== '/release/public-keys.json' && url !== '/log/checkpoint')
      files.set(
        url,
        prepare(bytes, JSON_TYPE, undefined, url.startsWith('/log/') ? LOG_STATE_CACHE_CONTROL : CACHE_CONTROL),
      );
  }
  const json = (v: unknown) => prepare(Buffer.from(`${JSON.stringify(v, null, 2)}\n`), JSON_TYPE);
  const doc = didDocument(signing.did, signing.published, signing.transitions);
  // The keys this release was signed with, where the DID document gives them (current, or
  // retired after it: issue 30); the log's checkpoint and vkey are the release's board key's.
  const signedWith = keysOfRelease(release, signing, doc, mismatches);
  const log = prepareLog(release, signedWith.get(`${signing.did}#${BOARD_KEY}`), witnesses);
  // A release signed before a rotation is served beside every transition since (its own file,
  // if any, is a prefix of them), as the DID document lists their retired keys.
  const own = release.evidence.files.get('evidence/key-transitions.json');
  const ownCount =
    own === undefined ? 0 : (JSON.parse(own.toString('utf8')) as { transitions: unknown[] }).transitions.length;
  if ((signing.transitions?.length ?? 0) > ownCount && mismatches.length === 0)
    files.set('/keys/transitions.json', json(transitionsDocument(signing.did, signing.transitions!)));
  for (const [url, p] of log.files) files.set(url, p);
  files.set('/.well-known/did.json', prepare(Buffer.from(`${JSON.stringify(doc, null, 2)}\n`), 'application/did+json'));
  const { rootBytes, root } = release.evidence;
  files.set('/interop/root-witness-latest.json', json(witnessRecord(rootBytes, root, witnesses)));
  const { proofFor, proofObject } = proofs(release, json, log);
  // Built once per release: a request naming 1,000 ids must not scan every card for each.
  const byPrefix = new Map([...release.evidence.cards.values()].map((c) => [c.sha256.slice(0, 16), c]));
  const cardById = (id: string) => (id.length === 64 ? release.evidence.cards.get(id) : byPrefix.get(id));
  let context: Promise<CardVerificationContext> | undefined;
  const verification = () =>
    (context ??= (async () => {
      const keys = signedWith;
      const rootCheck = await verifyRootRecord(root, keys, nodeVerifyCrypto);
      return {
        keys,
        revocations: revocationsOfDidDocument(doc),
        root: { merkle_root: root.merkle_root, leaf_count: root.leaf_count, as_of: root.as_of },
        rootSignatureValid: rootCheck.ok,
        withdrawn: release.evidence.withdrawn,
        superseded: release.evidence.superseded,
        proofFor: (sha: string) => proofObject(sha),
        log: await log.verification(),
      };
    })());
  return {
    release,
    boards,
    boardStamp: (all.measured_on as { living_stamp: LiveState['livingStamp'] }).living_stamp,
    knownAxes,
    files,
    proofFor,
    proofObject,
    didDocument: doc,
    signedWith,
    rootSha256: release.evidence.rootSha256,
    cardById,
    verification,
    log,
    keyMismatches: mismatches,
  };
}

/** How many bytes of card inclusion proofs one release keeps (docs/operations.md, "Limits"). */
export const PROOF_CACHE_BYTES = 16 * 1024 * 1024;

/** Proofs are computed on first request and kept as bytes, up to PROOF_CACHE_BYTES. */
function proofs(release: LoadedRelease, json: (v: unknown) => Prepared, log: PreparedLog) {
  const { root, superseded, withdrawn } = release.evidence;
  const active = [...release.evidence.cards.keys()].filter((h) => !withdrawn.has(h) && !superseded.has(h)).sort();
  const byPrefix = new Map(active.map((h, i) => [h.slice(0, 16), i]));
  // Built once per release: every proof is then O(log n).
  const tree = new DupTree(rootLeaves(active));
  const cache = new Map<string, Prepared>();
  let cachedBytes = 0;
  /** By 16-hex id or full sha256; a full sha256 must match the active card exactly. */
  const proofObject = (id: string) => {
    const index = byPrefix.get(id.slice(0, 16));
    if (index === undefined || (id.length === 64 && active[index] !== id)) return undefined;
    return cardInclusionProof(
      active[index]!,
      index,
      root,
      dupInclusionProof(tree, index).map((h: Uint8Array) => Buffer.from(h).toString('hex')),
      log.inclusion(active[index]!) ?? null,
    );
  };
  const proofFor = (id16: string): Prepared | undefined => {
    let p = cache.get(id16);
    if (!p) {
      const o = proofObject(id16);
      if (!o) return undefined;
      p = json(o);
      // Bounded in bytes (issue 38): a release of many cards cannot make the proofs outgrow it;
      // past the bound a proof is computed per request (O(log n)) instead of kept.
      if (cachedBytes + p.body.length <= PROOF_CACHE_BYTES) {
        cache.set(id16, p);
        cachedBytes += p.body.length;
      }
    }
    return p;
  };
  return { proofFor, proofObject };
}
