/**
 * `gspc verify`, the files a reader fetches: each one against the release's signed content, byte
 * for byte, with the first differing byte reported. A mirror or a CDN serves exactly these files,
 * so checking the card bundle alone is not enough: an edited card file (a `correct` count raised
 * by one) was reported VALID while its bundle copy was intact (issue 17).
 *
 * Expected bytes come from what was already verified: every active card's file must be the
 * verified bundle card serialised as publish writes it; the bundle, the card index, the card
 * matrix, the root pointer, every inclusion proof and the log's documents are rebuilt from the
 * signed root, the verified cards and the log's entries (whose root the signed checkpoint
 * covers); the ledgers must be in the form publish writes (their entries carry history from
 * earlier releases, possibly of another origin, so they are not checked against this log); a card
 * file the release serves beyond the active ones (a withdrawn card) must carry a valid content
 * address and signature; the per-item files must be the ones the signed cards name.
 */
import { transitionId, type KeyTransition } from '../core/evidence/key-transition.js';
import {
  logEntriesDocument,
  logHistoryDocument,
  logLeaves,
  logOrigin,
  logVerifierKey,
} from '../core/evidence/card-log.js';
import type { CardFile } from '../core/evidence/card.js';
import { cardIndex, cardMatrix, type IssuedCard } from '../core/evidence/card-matrix.js';
import { cardInclusionProof, logInclusion } from '../core/evidence/inclusion-proofs.js';
import { formatTlogProof } from '../core/evidence/tlog-proof.js';
import { dupInclusionProof } from '../core/evidence/merkle/dup-root.js';
import { DupTree } from '../core/evidence/merkle/dup-tree.js';
import { MerkleTree } from '../core/evidence/merkle/merkle-tree.js';
import { rootLeaves } from '../core/evidence/public-root.js';
import { BOARD_KEY } from '../core/evidence/signer.js';
import { verifyCard } from '../core/verify/card-verifier.js';
import { evidenceJson, rootPointer } from '../release/evidence.js';
import { firstDifference } from './first-difference.js';
import { nodeVerifyCrypto } from './node-crypto.js';
import type { AddCheck, ReleaseCards } from './release-check.js';
import type { ReleaseSource } from './release-source.js';

type Add = AddCheck;

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const parse = <T>(b: Buffer | undefined): T | undefined => {
  if (b === undefined) return undefined;
  try {
    return JSON.parse(b.toString('utf8')) as T;
  } catch {
    return undefined;
  }
};

/** The fields of a ledger entry, in the order publish writes them. */
const WITHDRAWAL_FIELDS = ['sha256', 'url', 'subject', 'axis', 'reason', 'withdrawn_as_of'] as const;
const SUPERSESSION_FIELDS = ['sha256', 'superseded_by', 'subject', 'axis', 'superseded_as_of'] as const;

const pick = (o: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

/** The issued-card metadata the index and matrix are built from, as publish had it for active cards. */
const issuedOf = (cards: readonly CardFile[]): IssuedCard[] =>
  cards.map((card) => ({ card, model: card.surface === 'board.measurement' ? card.subject : null, axis: card.axis }));

export async function verifyServedFiles(src: ReleaseSource, rc: ReleaseCards, add: Add): Promise<void> {
  const { root, rootBytes, bundle, bundleBytes, did } = rc;
  const problems: string[] = [];
  /** Compares fetched bytes with the expected ones; false (and a problem) when they differ or are missing. */
  const same = (path: string, expected: Buffer, actual: Buffer | undefined): boolean => {
    if (actual === undefined) {
      problems.push(`${path}: not served`);
      return false;
    }
    const diff = firstDifference(expected, actual);
    if (diff !== undefined) problems.push(`${path}: ${diff}`);
    return diff === undefined;
  };

  // 1. Documents rebuilt from the signed root and the verified bundle cards.
  const issued = issuedOf(bundle.cards);
  same(
    '/cards-bundle.json',
    evidenceJson({ schema: 'svc.cards-bundle/1', as_of: root.as_of, cards: bundle.cards }),
    bundleBytes,
  );
  same('/cards/index.json', evidenceJson(cardIndex(root.as_of, issued)), await src.get('/cards/index.json'));
  same(
    '/signed/card-matrix.json',
    evidenceJson(cardMatrix(root.as_of, issued)),
    await src.get('/signed/card-matrix.json'),
  );
  same(
    '/interop/card-root-latest.json',
    evidenceJson(rootPointer(rootBytes)),
    await src.get('/interop/card-root-latest.json'),
  );
  const documentsOk = problems.length === 0;
  add(
    'served_documents',
    documentsOk,
    documentsOk
      ? 'the bundle, card index, card matrix and root pointer are byte for byte the ones the signed root and cards give'
      : problems.join('; '),
  );

  // 2. Card files: every active card's, and every other the release serves.
  problems.length = 0;
  const active = new Set(bundle.cards.map((c) => c.sha256));
  for (const card of bundle.cards) same(card.url, evidenceJson(card), await src.get(card.url));
  const withdrawals = parse<{ entries?: Record<string, unknown>[] }>(await src.get('/ledgers/withdrawals.json'));
  const supersessions = parse<{ entries?: Record<string, unknown>[] }>(await src.get('/ledgers/supersessions.json'));
  const others = new Set<string>();
  // By 16-hex id (a file's name): ledgers give full hashes, a directory's listing file names.
  const activeIds = new Set(bundle.cards.map((c) => c.sha256.slice(0, 16)));
  for (const e of [...(withdrawals?.entries ?? []), ...(supersessions?.entries ?? [])])
    if (typeof e.sha256 === 'string' && !activeIds.has(e.sha256.slice(0, 16))) others.add(e.sha256.slice(0, 16));
  for (const listed of (await src.listing?.()) ?? []) {
    const m = /^\/cards\/([0-9a-f]{16})\.json$/.exec(listed.url ?? '');
    if (m && !activeIds.has(m[1]!)) others.add(m[1]!);
  }
  let otherFiles = 0;
  for (const id of others) {
    const url = `/cards/${id}.json`;
    const bytes = await src.get(url);
    if (bytes === undefined) continue; // a card of an earlier release: listed in a ledger, not served here
    otherFiles++;
    const card = parse<Record<string, unknown>>(bytes);
    const v = await verifyCard(
      card,
      {
        keys: rc.keys,
        root: null,
        rootSignatureValid: false,
        withdrawn: new Map(),
        superseded: new Map(),
        proofFor: () => undefined,
      },
      nodeVerifyCrypto,
    );
    const authentic = v.checks.filter(
      (c) => c.check === 'shape' || c.check === 'content_address' || c.check === 'signature',
    );
    const failed = authentic.find((c) => !c.ok);
    if (card === undefined || failed !== undefined || authentic.length < 3 || !v.sha256?.startsWith(id))
      problems.push(`${url}: ${failed ? `${failed.check}: ${failed.detail}` : 'not the card its id names'}`);
    else same(url, evidenceJson(card), bytes);
  }
  add(
    'card_files',
    problems.length === 0,
    problems.length === 0
      ? `${bundle.cards.length} active card files are the signed cards byte for byte; ${otherFiles} other card file(s) carry a valid content address and signature`
      : problems.join('; '),
  );

  // 3. The log's documents and the ledgers, rebuilt; the ledgers name only cards in the log.
  problems.length = 0;
  const origin = logOrigin(did);
  const entriesDoc = parse<{ entries: string[]; kid: string; unsigned_reason?: string }>(
    await src.get('/log/entries.json'),
  );
  const entries = Array.isArray(entriesDoc?.entries) ? entriesDoc.entries : [];
  const logTree = new MerkleTree(logLeaves(entries));
  // A log holding key transitions states the leaf rule that says so (card-log.ts); a release
  // signed before a rotation is served beside transitions its log does not hold.
  const served = parse<{ transitions?: KeyTransition[] }>(await src.get('/keys/transitions.json'));
  const logged = new Set(entries);
  const keyTransitions =
    Array.isArray(served?.transitions) &&
    served.transitions.some((t) => {
      try {
        return logged.has(transitionId(t));
      } catch {
        return false;
      }
    });
  const log = { origin, entries, tree: logTree, history: [], ...(keyTransitions && { keyTransitions }) };
  if (entriesDoc) {
    const unsigned = entriesDoc.unsigned_reason !== undefined ? { unsigned_reason: entriesDoc.unsigned_reason } : {};
    same(
      '/log/entries.json',
      evidenceJson(logEntriesDocument({ ...log, ...unsigned }, entriesDoc.kid)),
      await src.get('/log/entries.json'),
    );
  }
  const history = parse<{ checkpoints: never[] }>(await src.get('/log/history.json'));
  if (history)
    same(
      '/log/history.json',
      evidenceJson(logHistoryDocument({ ...log, history: history.checkpoints })),
      await src.get('/log/history.json'),
    );
  const boardKey = rc.keys.get(`${did}#${BOARD_KEY}`);
  const vkey = await src.get('/log/vkey');
  if (vkey !== undefined && boardKey !== undefined)
    same('/log/vkey', Buffer.from(`${logVerifierKey(origin, boardKey)}\n`, 'utf8'), vkey);
  for (const [path, doc, schema, fields] of [
    ['/ledgers/withdrawals.json', withdrawals, 'svc.withdrawal-ledger/1', WITHDRAWAL_FIELDS],
    ['/ledgers/supersessions.json', supersessions, 'svc.supersession-ledger/1', SUPERSESSION_FIELDS],
  ] as const) {
    if (doc === undefined) continue;
    const list = doc.entries ?? [];
    same(
      path,
      evidenceJson({ schema, as_of: root.as_of, entries: list.map((e) => pick(e, fields)) }),
      await src.get(path),
    );
    for (const e of list) {
      const hashes = schema === 'svc.withdrawal-ledger/1' ? [e.sha256] : [e.sha256, e.superseded_by];
      if (hashes.some((h) => typeof h !== 'string' || !/^[0-9a-f]{64}$/.test(h)))
        problems.push(`${path}: an entry names no card by its SHA-256`);
      if (schema === 'svc.withdrawal-ledger/1' && e.url !== `/cards/${String(e.sha256).slice(0, 16)}.json`)
        problems.push(`${path}: entry ${String(e.sha256)} has url ${String(e.url)}`);
    }
  }
  add(
    'log_documents',
    problems.length === 0,
    problems.length === 0
      ? `the log's entries, history${vkey ? ' and verifier key' : ''} and both ledgers are the documents the log and cards give`
      : problems.join('; '),
  );

  // 4. Inclusion proofs (a service or a mirror serves them; a release directory has none).
  if (src.live) {
    problems.length = 0;
    const sorted = [...active].sort();
    const tree = new DupTree(rootLeaves(sorted));
    const logIndex = new Map(entries.map((h, i) => [h, i]));
    const logRoot = hex(logTree.root());
    // A card's tlog-proof embeds /log/checkpoint as served (its signature is the log_checkpoint
    // check's); one a server does not serve (an older release or mirror) is not asked for (TP9).
    const checkpoint = (await src.get('/log/checkpoint'))?.toString('utf8');
    let tlogProofs = 0;
    for (const [i, sha] of sorted.entries()) {
      const j = logIndex.get(sha);
      const expected = cardInclusionProof(
        sha,
        i,
        root,
        dupInclusionProof(tree, i).map(hex),
        j === undefined ? null : logInclusion(origin, entries.length, logRoot, j, logTree.inclusionProof(j).map(hex)),
      );
      const path = `/cards/${sha.slice(0, 16)}.proof.json`;
      same(path, evidenceJson(expected), await src.get(path));
      const tlogPath = `/cards/${sha.slice(0, 16)}.tlog-proof`;
      const tlog = j === undefined || checkpoint === undefined ? undefined : await src.get(tlogPath);
      if (tlog !== undefined) {
        tlogProofs++;
        same(tlogPath, Buffer.from(formatTlogProof(j!, logTree.inclusionProof(j!), checkpoint!), 'utf8'), tlog);
      }
    }
    add(
      'card_proofs',
      problems.length === 0,
      problems.length === 0
        ? `${sorted.length} inclusion proofs${tlogProofs > 0 ? ` and ${tlogProofs} C2SP tlog-proofs` : ''} are the ones the signed root and the log give`
        : problems.slice(0, 5).join('; ') + (problems.length > 5 ? `; … ${problems.length - 5} more` : ''),
    );
  }
}

/**
 * The per-item files the signed cards name: each card's `computed_from` (url and SHA-256) must be
 * the manifest's entry for that url, so the rows are bound by signatures even where no signed
 * board is served (a release directory, a static mirror).
 */
export function checkRowsBound(
  cards: readonly CardFile[],
  manifest: { files: { url: string; sha256: string }[] },
  add: Add,
): void {
  const byUrl = new Map(manifest.files.map((f) => [f.url, f.sha256]));
  const unbound = cards.filter((c) => byUrl.get(c.computed_from.url) !== c.computed_from.sha256);
  add(
    'peritem_bound',
    unbound.length === 0,
    unbound.length === 0
      ? `every card's computed_from names a manifest file with its SHA-256`
      : `cards naming other bytes than the manifest: ${unbound
          .slice(0, 5)
          .map((c) => `${c.url} (${c.computed_from.url})`)
          .join(', ')}`,
  );
}
