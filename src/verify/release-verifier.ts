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
import type { CardVerdict } from '../core/verify/card-verifier.js';
import { readCorpus } from '../corpus/read-corpus.js';
import { deriveRelease } from '../release/derive.js';
import { checkWitnessPolicy } from './witness-policy-check.js';
import { verifyReleaseCards } from './release-cards.js';

/** The benchmark of the in-browser verifier (bench/browser-verify.ts) times steps 1, 2 and 4. */
export { verifyReleaseCards };
import type { KeyAnchorState, ReaderAnchor } from '../core/verify/key-source.js';
import type { WitnessPolicy } from '../core/evidence/note/witness-policy.js';
import { type ListedFile, type ReleaseSource, parseDocument } from './release-source.js';
import type { AddCheck, ReleaseCheck } from './release-check.js';

import { checkRowsBound, verifyServedFiles } from './served-files.js';
import { cardsAgainstRows, checkBoard } from './rederivation.js';

export interface ReleaseReport {
  source: string;
  ok: boolean;
  /**
   * VALID (every check passes), UNVERIFIABLE_KEY (every check passes under keys that could not be
   * anchored: the DID's host could not be read and the reader gave no anchor) or INVALID.
   */
  verdict: KeyAnchorState;
  /** Where the keys of every check came from (the DID's host, the reader's anchor, a directory's own). */
  keys: string | null;
  checks: ReleaseCheck[];
  cards: { checked: number; valid: number; invalid: CardVerdict[] };
}

/** The verdict of a report's checks and cards: UNVERIFIABLE_KEY only when the anchor is all that failed. */
export function verdictOf(checks: readonly ReleaseCheck[], invalidCards: number): KeyAnchorState {
  const failed = checks.filter((c) => !c.ok);
  if (failed.length === 0 && invalidCards === 0) return 'VALID';
  const unanchored =
    failed.length === 1 && failed[0]!.check === 'key_anchor' && failed[0]!.detail.startsWith('UNVERIFIABLE_KEY:');
  return unanchored && invalidCards === 0 ? 'UNVERIFIABLE_KEY' : 'INVALID';
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
type Add = AddCheck;

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
  /** Keys the reader trusted before (`--trust-did-document`, `--trust-key`): the DID's host is then not asked. */
  anchor?: ReaderAnchor;
}

export async function verifyRelease(source: ReleaseSource, opts: VerifyOptions = {}): Promise<ReleaseReport> {
  const { src, read } = readOnce(source);
  const checks: ReleaseCheck[] = [];
  const add = (check: string, ok: boolean, detail: string) => {
    checks.push({ check, ok, detail });
    return ok;
  };
  let keys: string | null = null;
  const report = (invalid: CardVerdict[] = [], checked = 0): ReleaseReport => ({
    source: src.describe,
    ok: checks.every((c) => c.ok) && invalid.length === 0,
    verdict: verdictOf(checks, invalid.length),
    keys,
    checks,
    cards: { checked, valid: checked - invalid.length, invalid },
  });

  const cards = await verifyReleaseCards(src, add, opts.anchor, (from) => {
    keys = from;
  });
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
