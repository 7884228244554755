/**
 * `gspc verify`, steps 1, 2 and 4: the keys (where they come from: key-anchor-source.ts), the
 * key transitions, the root (signature and recomputation), the card log, and every card against
 * them.
 */
import type { CardFile } from '../core/evidence/card.js';
import { supersededNow } from '../core/evidence/card-matrix.js';
import { dupInclusionProof } from '../core/evidence/merkle/dup-root.js';
import { DupTree } from '../core/evidence/merkle/dup-tree.js';
import { rootLeaves } from '../core/evidence/public-root.js';
import { BOARD_KEY } from '../core/evidence/signer.js';
import {
  doubledMethodDetail,
  keysOfDidDocument,
  revocationsOfDidDocument,
  verifyCard,
  type CardVerdict,
} from '../core/verify/card-verifier.js';
import type { ReaderAnchor } from '../core/verify/key-source.js';
import { keysAtSize } from '../core/verify/key-transitions.js';
import { revocationOf, revokedReason, type Revocation } from '../core/verify/revocation.js';
import { onePrefixOfOther } from '../core/verify/trusted-log.js';
import { verifyRootRecord } from '../core/verify/root-verifier.js';
import { keysOfSource } from './key-anchor-source.js';
import { type CheckedTransitions, verifyLog, verifyTransitions } from './log-verifier.js';
import { nodeVerifyCrypto } from './node-crypto.js';
import type { AddCheck, ReleaseCards } from './release-check.js';
import { parseDocument, type ReleaseSource } from './release-source.js';

type Add = AddCheck;

/**
 * Steps 1, 2 and 4 of `gspc verify`: the DID document's keys, the root (signature and
 * recomputation), the card log, and every card against them. Undefined when a missing document
 * stops the checks (each failure is added). The benchmark of the in-browser verifier times this.
 */
export async function verifyReleaseCards(
  src: ReleaseSource,
  add: Add,
  anchor?: ReaderAnchor,
  /** Told where the keys came from, as soon as that is known. */
  keysFrom?: (from: string) => void,
): Promise<ReleaseCards | undefined> {
  // 1. Keys: the DID's host's DID document and transitions (for a URL), the reader's anchor, or
  // a release directory's own keys (key-anchor-source.ts); the view must agree with them.
  // The view's DID document first: a URL that answers nothing is refused naming it (readOnce keeps it).
  if (src.live) await src.get('/.well-known/did.json');
  const entries = parseDocument<{ entries?: unknown }>(await src.get('/log/entries.json'))?.entries;
  const logEntries = Array.isArray(entries) ? (entries as string[]) : [];
  const anchored = await keysOfSource(src, logEntries, anchor);
  keysFrom?.(anchored.from);
  const doc = anchored.docs.didDocument;
  const didKeys = keysOfDidDocument(doc);
  const did = (doc as { id?: unknown } | undefined)?.id;
  if (
    !add(
      'did_document',
      didKeys.size > 0,
      didKeys.size > 0
        ? `${didKeys.size} Ed25519 verification methods, from ${anchored.from}`
        : `${doubledMethodDetail(doc) ?? 'no DID document with Ed25519 keys'} (${anchored.from})`,
    )
  ) {
    add('key_anchor', anchored.anchor.ok, anchored.anchor.detail);
    return undefined;
  }
  add('key_anchor', anchored.anchor.ok, anchored.anchor.detail);
  const hostLog = anchored.docs.logEntries;
  if (src.live && hostLog !== undefined) {
    // The view's log against the DID's host's (review finding 1): one is a prefix of the other.
    const at = onePrefixOfOther(logEntries, hostLog);
    add(
      'log_matches_host',
      at === undefined,
      at === undefined
        ? `the view's ${logEntries.length} log entries and the DID's host's ${hostLog.length}: one is a prefix of the other`
        : `the view's log entry ${at} is not the DID's host's (${anchored.from}): a fork of the log`,
    );
  }
  // 1b. The key transitions, and the keys as this release was signed (issue 30): a release
  // signed before a rotation is checked under the keys of its time, never the keys of now.
  const transitions =
    typeof did === 'string'
      ? await verifyTransitions(
          anchored.docs.transitions,
          did,
          (fragment) => didKeys.get(`${did}#${fragment}`),
          logEntries,
          add,
        )
      : undefined;
  const logSize = logEntries.length;
  const keys = transitions && typeof did === 'string' ? keysAtSize(didKeys, did, transitions.epochs, logSize) : didKeys;
  // The revocations a reader's saved DID document records apply with the view's own (review finding 2).
  const withAnchor = (own: readonly Revocation[]): Revocation[] => [
    ...own,
    ...anchored.revocations.filter((r) => !own.some((o) => o.revocation === r.revocation)),
  ];
  const signedRevoked =
    typeof did === 'string' && (transitions || anchored.revocations.length > 0)
      ? checkSignedUnrevoked(
          keys,
          did,
          { epochs: transitions?.epochs ?? new Map(), revocations: withAnchor(transitions?.revocations ?? []) },
          logSize,
          add,
        )
      : undefined;

  // 2. The root: its signature, then its recomputation from the active cards.
  const rootBytes = await src.get('/root.json');
  const root = parseDocument<{ merkle_root: string; leaf_count: number; as_of: string; bound_digest: string }>(
    rootBytes,
  );
  if (!rootBytes || !root) {
    add('root', false, 'no /root.json');
    return undefined;
  }
  const rootSig = await verifyRootRecord(root, keys, nodeVerifyCrypto);
  add('root_signature', rootSig.ok, rootSig.detail);
  const bundleBytes = await src.get('/cards-bundle.json');
  const bundle = parseDocument<{ cards: CardFile[] }>(bundleBytes);
  if (!bundle || !bundleBytes) {
    add('cards_bundle', false, 'no /cards-bundle.json');
    return undefined;
  }
  const active = bundle.cards.map((c) => c.sha256).sort();
  const tree = new DupTree(rootLeaves(active));
  const recomputed = Buffer.from(tree.root()).toString('hex');
  const rootMatches = recomputed === root.merkle_root && active.length === root.leaf_count;
  add(
    'root_recomputed',
    rootMatches,
    recomputed === root.merkle_root && active.length === root.leaf_count
      ? `merkle_root recomputed from ${active.length} active cards`
      : `recomputed ${recomputed} over ${active.length} cards; the root says ${root.merkle_root} over ${root.leaf_count}`,
  );

  // 2b. The card log: checkpoint, recomputation, the root's cards among its entries, history.
  const log =
    typeof did === 'string'
      ? await verifyLog(src, did, keys.get(`${did}#${BOARD_KEY}`), transitions, active, add)
      : undefined;

  // 4. Every card.
  const ledger = async (path: string, field: string) =>
    new Map(
      (parseDocument<{ entries: Record<string, string>[] }>(await src.get(path))?.entries ?? []).map((e) => [
        e.sha256!,
        e[field]!,
      ]),
    );
  const index = new Map(active.map((h, i) => [h, i]));
  const ctx = {
    keys,
    revocations: withAnchor(revocationsOfDidDocument(doc)),
    root,
    rootSignatureValid: rootSig.ok,
    withdrawn: await ledger('/ledgers/withdrawals.json', 'reason'),
    // In ledger order: a card superseded and later issued again is current (supersededNow).
    superseded: supersededNow(
      parseDocument<{ entries: { sha256: string; superseded_by: string }[] }>(
        await src.get('/ledgers/supersessions.json'),
      )?.entries ?? [],
    ),
    // With the root recomputed from every active card, each of them is under the signed root.
    ...(rootMatches && rootSig.ok && { knownIncluded: new Set(active) }),
    ...(log && { log }),
    proofFor: (h: string) => {
      const i = index.get(h);
      return i === undefined
        ? undefined
        : {
            leaf_index: i,
            leaf_count: tree.size,
            proof: dupInclusionProof(tree, i).map((p) => Buffer.from(p).toString('hex')),
          };
    },
  };
  const invalid: CardVerdict[] = [];
  for (const card of bundle.cards) {
    const checked = await verifyCard(card, ctx, nodeVerifyCrypto);
    // A release whose own signatures a revocation took back vouches for none of its cards
    // (review finding 4e): they are not counted VALID beside an INVALID signed_unrevoked.
    const v: CardVerdict =
      signedRevoked !== undefined && checked.result === 'VALID'
        ? { ...checked, result: 'INVALID', reasons: [`signed_unrevoked: ${signedRevoked}`] }
        : checked;
    if (v.result !== 'VALID') invalid.push(v);
  }
  add('cards', invalid.length === 0, `${bundle.cards.length - invalid.length} of ${bundle.cards.length} cards VALID`);
  return {
    keys,
    // The board attestation is signed live by the current board key, once anchored: no other
    // method of the document (a retired `~n`, one the host never had) may sign it (issue 36,
    // second review: a proxy added `#board-attestation-1~9` and re-signed the board under it).
    didKeys: new Map(
      [...keysOfDidDocument(anchored.live.didDocument)].filter(([kid]) => kid === `${String(did)}#${BOARD_KEY}`),
    ),
    did: typeof did === 'string' ? did : '',
    rootBytes,
    root,
    bundle,
    bundleBytes,
    invalid,
    anchor: anchored.anchor,
    keysFrom: anchored.from,
  };
}

/**
 * A release whose own signatures are a revoked key's, made after its compromise beyond what the
 * revocation trusts, is not verified (src/core/verify/revocation.ts): its cards, root and
 * checkpoint prove nothing. A release published after the revocation is signed by the new key.
 */
function checkSignedUnrevoked(
  keys: ReadonlyMap<string, Uint8Array>,
  did: string,
  transitions: Pick<CheckedTransitions, 'epochs' | 'revocations'>,
  size: number,
  add: Add,
): string | undefined {
  // Only the board key signs what a release holds (cards, root, checkpoints): a revoked agent-card
  // key takes nothing back from it (issue 36, defect 4).
  for (const fragment of [BOARD_KEY]) {
    const key = keys.get(`${did}#${fragment}`);
    const r = key && revocationOf(transitions.revocations, Buffer.from(key).toString('base64url'));
    if (r && size > r.trusted_size) {
      const detail = revokedReason(
        r,
        `${did}#${fragment}`,
        `this release's log has ${size} entries, beyond the ${r.trusted_size} made before then: publish again`,
      );
      add('signed_unrevoked', false, detail);
      return detail;
    }
  }
  return undefined;
}
