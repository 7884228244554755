/**
 * `gspc verify`: checks a whole release without trusting the server. The DID document's keys,
 * the root signature and its recomputation from the card bundle, the card log (checkpoint,
 * recomputation, history consistency), every card (content address,
 * signature, ledgers, inclusion under the signed root), the witness or pointer binding to the
 * exact root bytes, the per-item manifest hashes, the board attestation, and a re-derivation of
 * every card figure (and, from a running service, every board row and total) from the rows.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { didDocument } from '../core/evidence/did.js';
import type { CardFile } from '../core/evidence/card.js';
import { dupInclusionProof } from '../core/evidence/merkle/dup-root.js';
import { DupTree } from '../core/evidence/merkle/dup-tree.js';
import { rootLeaves } from '../core/evidence/public-root.js';
import type { KeyTransition } from '../core/evidence/key-transition.js';
import {
  keysOfDidDocument,
  revocationsOfDidDocument,
  verifyCard,
  type CardVerdict,
} from '../core/verify/card-verifier.js';
import { verifyRootRecord } from '../core/verify/root-verifier.js';
import { readCorpus } from '../corpus/read-corpus.js';
import { deriveRelease } from '../release/derive.js';
import { nodeVerifyCrypto } from './node-crypto.js';
import { type CheckedTransitions, verifyLog, verifyTransitions } from './log-verifier.js';
import { checkWitnessPolicy } from './witness-policy-check.js';
import type { WitnessPolicy } from '../core/evidence/note/witness-policy.js';
import { BOARD_KEY } from '../core/evidence/signer.js';
import { keysAtSize } from '../core/verify/key-transitions.js';
import { revocationOf, revokedReason } from '../core/verify/revocation.js';
import { supersededNow } from '../core/evidence/card-matrix.js';
import { type ListedFile, type ReleaseSource, parseDocument } from './release-source.js';
import type { AddCheck, ReleaseCards, ReleaseCheck } from './release-check.js';

import { checkRowsBound, verifyServedFiles } from './served-files.js';
import { cardsAgainstRows, checkBoard } from './rederivation.js';

export interface ReleaseReport {
  source: string;
  ok: boolean;
  checks: ReleaseCheck[];
  cards: { checked: number; valid: number; invalid: CardVerdict[] };
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
type Add = AddCheck;

/**
 * Steps 1, 2 and 4 of `gspc verify`: the DID document's keys, the root (signature and
 * recomputation), the card log, and every card against them. Undefined when a missing document
 * stops the checks (each failure is added). The benchmark of the in-browser verifier times this.
 */
export async function verifyReleaseCards(src: ReleaseSource, add: Add): Promise<ReleaseCards | undefined> {
  // 1. Keys: the service's DID document (or, for a release directory, the keys it was signed with).
  let doc: unknown;
  if (src.live) doc = parseDocument(await src.get('/.well-known/did.json'));
  else {
    const pk = parseDocument<{ did: string; keys: { fragment: never; x: string }[] }>(
      await src.get('/release/public-keys.json'),
    );
    // The retired keys too, as the served DID document lists them (did.ts).
    const kt = parseDocument<{ transitions?: KeyTransition[] }>(await src.get('/keys/transitions.json'));
    const keysOf = (p: NonNullable<typeof pk>) =>
      p.keys.map((k) => ({ fragment: k.fragment, publicKey: Buffer.from(k.x, 'base64url') }));
    try {
      doc = pk && didDocument(pk.did, keysOf(pk), Array.isArray(kt?.transitions) ? kt.transitions : []);
    } catch {
      // A malformed transitions file fails the key_transitions check (log-verifier.ts); the keys stand.
      doc = pk && didDocument(pk.did, keysOf(pk));
    }
  }
  const didKeys = keysOfDidDocument(doc);
  const did = (doc as { id?: unknown } | undefined)?.id;
  if (
    !add(
      'did_document',
      didKeys.size > 0,
      didKeys.size > 0 ? `${didKeys.size} Ed25519 verification methods` : 'no DID document with Ed25519 keys',
    )
  )
    return undefined;
  // 1b. The key transitions, and the keys as this release was signed (issue 30): a release
  // signed before a rotation is checked under the keys of its time, never the keys of now.
  const entries = parseDocument<{ entries?: unknown }>(await src.get('/log/entries.json'))?.entries;
  const logEntries = Array.isArray(entries) ? (entries as string[]) : [];
  const transitions =
    typeof did === 'string'
      ? await verifyTransitions(src, did, (fragment) => didKeys.get(`${did}#${fragment}`), logEntries, add)
      : undefined;
  const logSize = logEntries.length;
  const keys = transitions && typeof did === 'string' ? keysAtSize(didKeys, did, transitions.epochs, logSize) : didKeys;
  if (transitions && typeof did === 'string') checkSignedUnrevoked(keys, did, transitions, logSize, add);

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
    revocations: revocationsOfDidDocument(doc),
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
    const v = await verifyCard(card, ctx, nodeVerifyCrypto);
    if (v.result !== 'VALID') invalid.push(v);
  }
  add('cards', invalid.length === 0, `${bundle.cards.length - invalid.length} of ${bundle.cards.length} cards VALID`);
  return { keys, didKeys, did: typeof did === 'string' ? did : '', rootBytes, root, bundle, bundleBytes, invalid };
}

/**
 * A release whose own signatures are a revoked key's, made after its compromise beyond what the
 * revocation trusts, is not verified (src/core/verify/revocation.ts): its cards, root and
 * checkpoint prove nothing. A release published after the revocation is signed by the new key.
 */
function checkSignedUnrevoked(
  keys: ReadonlyMap<string, Uint8Array>,
  did: string,
  transitions: CheckedTransitions,
  size: number,
  add: Add,
): void {
  for (const fragment of transitions.epochs.keys()) {
    const key = keys.get(`${did}#${fragment}`);
    const r = key && revocationOf(transitions.revocations, Buffer.from(key).toString('base64url'));
    if (r && size > r.trusted_size)
      add(
        'signed_unrevoked',
        false,
        revokedReason(
          r,
          `${did}#${fragment}`,
          `this release's log has ${size} entries, beyond the ${r.trusted_size} made before then: publish again`,
        ),
      );
  }
}

/** Documents below this size are kept once read: several checks read the same ledgers and log. */
const KEEP_BYTES = 4 * 1024 * 1024;

/**
 * The source, each path fetched once: small documents are kept for the checks that read them
 * again, and every fetched path's SHA-256 and length are recorded, so a release directory's own
 * hashes are checked against the bytes already read instead of reading every file a second time.
 */
function readOnce(source: ReleaseSource): {
  src: ReleaseSource;
  read: Map<string, { sha256: string; bytes: number } | null>;
} {
  const read = new Map<string, { sha256: string; bytes: number } | null>();
  const kept = new Map<string, Promise<Buffer | undefined>>();
  const get = (path: string) => {
    const known = kept.get(path);
    if (known) return known;
    const p = source.get(path).then((b) => {
      read.set(path, b === undefined ? null : { sha256: sha(b), bytes: b.length });
      if (b === undefined || b.length > KEEP_BYTES) kept.delete(path);
      return b;
    });
    kept.set(path, p);
    return p;
  };
  return { src: { ...source, get }, read };
}

export interface VerifyOptions {
  /**
   * The reader's C2SP tlog-policy: the checkpoint must carry its quorum of cosignatures, none dated
   * more than COSIGNATURE_MAX_FUTURE_SECONDS after `now` (the reader's clock, passed in).
   */
  witnessPolicy?: { policy: WitnessPolicy; now: () => Date };
}

export async function verifyRelease(source: ReleaseSource, opts: VerifyOptions = {}): Promise<ReleaseReport> {
  const { src, read } = readOnce(source);
  const checks: ReleaseCheck[] = [];
  const add = (check: string, ok: boolean, detail: string) => {
    checks.push({ check, ok, detail });
    return ok;
  };
  const report = (invalid: CardVerdict[] = [], checked = 0): ReleaseReport => ({
    source: src.describe,
    ok: checks.every((c) => c.ok) && invalid.length === 0,
    checks,
    cards: { checked, valid: checked - invalid.length, invalid },
  });

  const cards = await verifyReleaseCards(src, add);
  if (cards === undefined) return report();
  const { rootBytes, root, bundle, invalid } = cards;
  if (opts.witnessPolicy) await checkWitnessPolicy(src, opts.witnessPolicy.policy, opts.witnessPolicy.now, add);

  // 3. Witness record (from a service) or root pointer (in a release): bound to the exact root bytes.
  for (const path of src.live
    ? ['/interop/root-witness-latest.json', '/interop/card-root-latest.json']
    : ['/interop/card-root-latest.json']) {
    const w = parseDocument<{
      root_sha256: string;
      root_bytes: number;
      merkle_root: string;
      leaf_count: number;
      as_of: string;
    }>(await src.get(path));
    const ok =
      w !== undefined &&
      w.root_sha256 === sha(rootBytes) &&
      w.root_bytes === rootBytes.length &&
      w.merkle_root === root.merkle_root &&
      w.leaf_count === root.leaf_count &&
      w.as_of === root.as_of;
    add(
      `binding ${path}`,
      ok,
      ok
        ? 'binds the exact root bytes, length, merkle_root, count and as-of'
        : 'does not bind the published root bytes',
    );
  }

  // 4b. Every file a reader fetches, against the signed content (served-files.ts).
  await verifyServedFiles(src, cards, add);

  // 5. Per-item manifest, then re-derivation from the rows it lists.
  const manifestBytes = await src.get('/peritem/manifest.json');
  const manifest = parseDocument<{ files: { url: string; role: string; axis?: string; sha256: string }[] }>(
    manifestBytes,
  );
  if (!manifest || !manifestBytes) {
    add('peritem_manifest', false, 'no /peritem/manifest.json');
    return report(invalid, bundle.cards.length);
  }
  const tmp = mkdtempSync(join(tmpdir(), 'gspc-verify-'));
  try {
    const bad: string[] = [];
    for (const f of manifest.files) {
      const bytes = await src.get(f.url);
      if (!bytes || sha(bytes) !== f.sha256) {
        bad.push(f.url);
        continue;
      }
      const path = corpusPath(f);
      mkdirSync(dirname(join(tmp, path)), { recursive: true });
      writeFileSync(join(tmp, path), bytes);
    }
    add(
      'peritem_manifest',
      bad.length === 0,
      bad.length === 0
        ? `${manifest.files.length} files match their SHA-256`
        : `files that do not match: ${bad.join(', ')}`,
    );
    checkRowsBound(bundle.cards, manifest, add);
    if (bad.length > 0) return report(invalid, bundle.cards.length);
    const derived = deriveRelease(readCorpus(tmp));
    add(
      'peritem_sha256',
      derived.source.peritem.sha256 === sha(manifestBytes),
      'the manifest re-serialises to the same bytes',
    );
    const mismatched = cardsAgainstRows(bundle.cards, derived.source.axes);
    add(
      'cards_rederived',
      mismatched.length === 0,
      mismatched.length === 0
        ? 'every card figure re-derives from the per-item rows'
        : `cards whose figures do not re-derive: ${mismatched.slice(0, 5).join(', ')}`,
    );
    if (src.live) await checkBoard(src, derived, bundle.cards, cards.didKeys, sha(manifestBytes), add);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  if (source.listing) await checkListing(await source.listing(), read, add);
  return report(invalid, bundle.cards.length);
}

/**
 * A release directory: every file release.json lists has its stated bytes (what `gspc serve`
 * checks before serving it), and every one a reader can fetch was read by a check above.
 */
async function checkListing(
  listed: ListedFile[],
  read: ReadonlyMap<string, { sha256: string; bytes: number } | null>,
  add: Add,
): Promise<void> {
  const changed = listed
    .filter((f) => {
      const got = (f.url !== null && read.get(f.url)) || f.digest();
      return got === null || got.sha256 !== f.sha256 || got.bytes !== f.bytes;
    })
    .map((f) => f.path);
  add(
    'release_files',
    changed.length === 0,
    changed.length === 0
      ? `${listed.length} files have the SHA-256 and length release.json states`
      : `files that differ from release.json: ${changed.slice(0, 10).join(', ')}`,
  );
  const unread = listed.filter((f) => f.url !== null && !read.has(f.url)).map((f) => f.url);
  add(
    'release_files_checked',
    unread.length === 0,
    unread.length === 0
      ? `every one of the ${listed.filter((f) => f.url !== null).length} files a reader can fetch was checked`
      : `served but not checked by gspc verify: ${unread.slice(0, 10).join(', ')}`,
  );
}

function corpusPath(f: { url: string; role: string }): string {
  if (f.role === 'per-item-rows') return `peritem/${f.url.slice('/peritem/'.length)}`;
  if (f.role === 'axis-definition') return `axes/${f.url.slice('/peritem/axes/'.length)}`;
  if (f.role === 'evidence') return f.url.slice(1);
  return f.url.slice('/peritem/'.length);
}
