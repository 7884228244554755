/**
 * `gspc verify <url> --card <sha256|card.json>` (issue 42, item 3; decisions VC1-VC7): one card
 * checked online in O(log n) requests, never the whole log. The keys are anchored as `gspc
 * verify <url>` anchors them (the DID's host, or the reader's `--trust-did-document` /
 * `--trust-key`; never the view's own documents alone), the checkpoint is opened under the
 * anchored board key (and the reader's witness policy), the card's content address and signature
 * are checked under the anchored keys, and its inclusion in the signed tree is proven from the
 * tiles that proof needs. The index comes from the served tlog-proof, which is not trusted: a
 * wrong index makes the proof from the tiles fail, and the served proof must agree with the tiles'.
 */
import { logOrigin } from '../core/evidence/card-log.js';
import { GspcError } from '../core/errors.js';
import { leafHash } from '../core/evidence/merkle/hash.js';
import { verifyInclusion } from '../core/evidence/merkle/rfc6962-verify.js';
import type { WitnessPolicy } from '../core/evidence/note/witness-policy.js';
import { BOARD_KEY } from '../core/evidence/signer.js';
import { keysOfDidDocument, revocationsOfDidDocument, verifyCard } from '../core/verify/card-verifier.js';
import {
  anchorKeys,
  didHostBase,
  didOf,
  type AnchoredKeys,
  type KeyDocuments,
  type ReaderAnchor,
} from '../core/verify/key-source.js';
import { verifyCheckpointNote } from '../core/verify/log-proof.js';
import { parseTlogProof } from '../core/verify/tlog-proof-parse.js';
import { ANCHOR_HINT, readHost } from './key-anchor-source.js';
import { LogTileReader } from './log-tile-reader.js';
import { nodeVerifyCrypto } from './node-crypto.js';
import { parseDocument } from './release-source.js';
import { judgeWitnessPolicy } from './witness-policy-check.js';

/** The most bytes one document of this check may have (a card, the checkpoint, a tlog-proof, the DID document). */
const MAX_DOCUMENT_BYTES = 1 << 20;

export interface OnlineCardCheck {
  check: string;
  ok: boolean;
  detail: string;
  /** The stable code of a failed check (docs/formats.md, "One card online"). */
  code?: string;
}

export interface OnlineCardReport {
  schema: 'svc.card-online-verification/1';
  source: string;
  card: string;
  result: 'VALID' | 'INVALID' | 'UNVERIFIABLE_KEY';
  /** The first failed check's code; null when VALID. */
  code: string | null;
  keys: string | null;
  checks: OnlineCardCheck[];
  /** Where the card is in the signed log, once proven from the tiles. */
  log?: { origin: string; tree_size: number; root_hash: string; index: number };
  /** What was asked of the view: every request, and the hash tiles among them. */
  requests: { total: number; tiles: number; tile_bytes: number; paths: string[] };
}

export interface OnlineCardOptions {
  anchor?: ReaderAnchor;
  witnessPolicy?: { policy: WitnessPolicy; now: () => Date };
  /** The card as the reader holds it (a card file); otherwise it is fetched from the view. */
  cardDocument?: unknown;
}

const sameOrigin = (a: string, b: string): boolean => {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
};

/** GETs of the view, counted; a body over `max` bytes is refused (undefined with `tooLarge`). */
function viewReader(base: string) {
  const paths: string[] = [];
  const get = async (path: string, max = MAX_DOCUMENT_BYTES): Promise<Buffer | undefined> => {
    paths.push(path);
    let r: Response;
    try {
      r = await fetch(`${base}${path}`, { redirect: 'error', signal: AbortSignal.timeout(30_000) });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new GspcError(
        'release_not_found',
        `${base}${path} could not be fetched: ${cause?.code ?? cause?.message ?? (e as Error).message}`,
      );
    }
    if (r.status === 404) return undefined;
    if (!r.ok) throw new GspcError('release_not_found', `${base}${path} answered HTTP ${r.status}`);
    const bytes = Buffer.from(await r.arrayBuffer());
    // One byte over the cap is enough for the caller to see it is too long.
    return bytes.length > max ? bytes.subarray(0, max + 1) : bytes;
  };
  return { get, paths };
}

/** The keys the card and checkpoint are checked under, anchored as `gspc verify <url>` anchors them. */
async function anchoredKeys(
  base: string,
  get: (path: string) => Promise<Buffer | undefined>,
  anchor: ReaderAnchor | undefined,
): Promise<AnchoredKeys> {
  const view: KeyDocuments = {
    didDocument: parseDocument(await get('/.well-known/did.json')),
    transitions: parseDocument(await get('/keys/transitions.json')),
  };
  // No log entries: a board whose keys changed is refused before they matter (VC4).
  if (anchor !== undefined) return anchorKeys(nodeVerifyCrypto, view, [], { kind: 'reader', anchor }, ANCHOR_HINT);
  const did = didOf(view.didDocument);
  const hostBase = didHostBase(did);
  const answer =
    hostBase === undefined
      ? { ok: false as const, url: String(did), reason: `${String(did)} is not a did:web DID of a host` }
      : sameOrigin(base, hostBase)
        ? { self: `${hostBase}/.well-known/did.json` }
        : await readHost(hostBase, false);
  return anchorKeys(nodeVerifyCrypto, view, [], { kind: 'host', answer }, ANCHOR_HINT);
}

const transitionsOf = (docs: KeyDocuments): number => {
  const list = (docs.transitions as { transitions?: unknown } | undefined)?.transitions;
  return Array.isArray(list) ? list.length : 0;
};

export async function verifyCardOnline(
  baseUrl: string,
  sha256: string,
  opts: OnlineCardOptions = {},
): Promise<OnlineCardReport> {
  const base = baseUrl.replace(/\/$/, '');
  const { get, paths } = viewReader(base);
  const reader = new LogTileReader(get);
  const checks: OnlineCardCheck[] = [];
  let keysFrom: string | null = null;
  let log: OnlineCardReport['log'];
  const add = (check: string, ok: boolean, detail: string, code: string) => {
    checks.push({ check, ok, detail, ...(!ok && { code }) });
    return ok;
  };
  const report = (): OnlineCardReport => {
    const failed = checks.find((c) => !c.ok);
    const unanchored = failed?.code === 'key_anchor' && checks.filter((c) => !c.ok).length === 1;
    return {
      schema: 'svc.card-online-verification/1',
      source: base,
      card: sha256,
      result:
        failed === undefined
          ? 'VALID'
          : unanchored && failed.detail.startsWith('UNVERIFIABLE_KEY')
            ? 'UNVERIFIABLE_KEY'
            : 'INVALID',
      code: failed?.code ?? null,
      keys: keysFrom,
      checks,
      ...(log && { log }),
      requests: {
        total: paths.length,
        tiles: reader.reads.requests,
        tile_bytes: reader.reads.bytes,
        paths: [...paths],
      },
    };
  };

  // 1. The keys, from the DID's host or the reader's anchor (VC2).
  const anchored = await anchoredKeys(base, get, opts.anchor);
  keysFrom = anchored.from;
  const did = didOf(anchored.docs.didDocument);
  const keys = keysOfDidDocument(anchored.docs.didDocument);
  add('key_anchor', anchored.anchor.ok, anchored.anchor.detail, 'key_anchor');
  if (did === undefined || keys.size === 0) {
    add('did_document', false, `no DID document with Ed25519 keys (${anchored.from})`, 'key_anchor');
    return report();
  }
  if (!anchored.anchor.ok && anchored.anchor.state === 'INVALID') return report();
  const transitions = transitionsOf(anchored.docs);
  if (
    !add(
      'key_transitions',
      transitions === 0,
      transitions === 0
        ? "the board's keys never changed"
        : `the board's keys changed ${transitions} times: which key signed this card's checkpoint depends on where each change sits in the log, which one card from tiles does not read; run gspc verify ${base} (the whole release)`,
      'card_key_transitions',
    )
  )
    return report();
  const boardKey = keys.get(`${did}#${BOARD_KEY}`);

  // 2. The checkpoint, under the anchored board key, and the reader's witness quorum.
  const origin = logOrigin(did);
  const note = (await get('/log/checkpoint'))?.toString('utf8');
  const opened =
    note === undefined || boardKey === undefined
      ? {
          ok: false as const,
          detail: note === undefined ? 'no /log/checkpoint' : `the DID document lists no #${BOARD_KEY}`,
        }
      : await verifyCheckpointNote(nodeVerifyCrypto, note, origin, boardKey);
  if (
    !add(
      'log_checkpoint',
      opened.ok,
      opened.ok
        ? `${origin} at size ${opened.size}, signed by ${did}#${BOARD_KEY}`
        : `the checkpoint is not signed by the anchored board key: ${opened.detail}`,
      'card_checkpoint',
    ) ||
    !opened.ok
  )
    return report();
  if (opts.witnessPolicy) {
    const w = judgeWitnessPolicy(note, opts.witnessPolicy.policy, opts.witnessPolicy.now());
    add('witness_policy', w.ok, w.detail, 'card_witness_policy');
  }

  // 3. The card: its own bytes (a file the reader gave) or the view's.
  const id = sha256.slice(0, 16);
  const served = opts.cardDocument === undefined ? await get(`/cards/${id}.json`) : undefined;
  const cardDoc = opts.cardDocument ?? parseDocument<unknown>(served);
  if (cardDoc === undefined) {
    add('card', false, `the view serves no /cards/${id}.json`, 'card_not_served');
    return report();
  }
  const claimed = (cardDoc as { sha256?: unknown }).sha256;
  if (!add('card', claimed === sha256, `the card's sha256 is ${String(claimed)}`, 'card_content_address'))
    return report();

  // 4. Its index, from the served tlog-proof (untrusted), and its inclusion from the tiles.
  const proofBytes = await get(`/cards/${id}.tlog-proof`);
  const parsed = proofBytes === undefined ? undefined : parseTlogProof(proofBytes);
  if (parsed === undefined || !parsed.ok) {
    add(
      'log_inclusion',
      false,
      parsed === undefined
        ? `the view serves no /cards/${id}.tlog-proof, so the card's index in the log is not known: the log does not hold it, or run gspc verify ${base} (the whole log)`
        : `/cards/${id}.tlog-proof is not a C2SP tlog-proof (${parsed.reason}), so the card's index is not known`,
      'card_not_included',
    );
    return report();
  }
  const index = parsed.proof.index;
  const entry = Buffer.from(sha256, 'hex');
  const root = Buffer.from(opened.rootHex, 'hex');
  const included = await reader.inclusion(index, entry, opened.size, root);
  if (!included.ok && reader.reads.bytes === 0 && /^\/log\/tile\/\S+ is not served$/.test(included.detail)) {
    add(
      'log_inclusion',
      false,
      `the view serves no tiles (${included.detail}): one card online is proven from the log's tiles; run gspc verify ${base} (it reads /log/entries.json)`,
      'card_no_tiles',
    );
    return report();
  }
  if (
    !add(
      'log_inclusion',
      included.ok,
      included.ok
        ? `entry ${index} of the signed tree of ${opened.size}, proven from ${reader.reads.requests} tiles`
        : `not entry ${index} of the signed tree of ${opened.size}: ${included.detail}`,
      'card_not_included',
    )
  )
    return report();
  log = { origin, tree_size: opened.size, root_hash: opened.rootHex, index };
  // The served proof must be this checkpoint's and lead to its root (the same path as the tiles': RFC 6962 paths are unique).
  const p = parsed.proof;
  const agrees = p.checkpoint === note && verifyInclusion(leafHash(entry), p.index, p.size, p.path, root).ok;
  add(
    'tlog_proof',
    agrees,
    agrees
      ? `/cards/${id}.tlog-proof carries this checkpoint and the path the tiles give`
      : `/cards/${id}.tlog-proof ${p.checkpoint !== note ? 'carries another checkpoint than /log/checkpoint' : 'has a path that does not lead to the signed root'}`,
    'card_tlog_proof_differs',
  );

  // 5. The card's content address and signature under the anchored keys (a retired key's
  // signature judged by the card's place in the log, proven above).
  const verdict = await verifyCard(
    cardDoc,
    {
      keys,
      revocations: [...revocationsOfDidDocument(anchored.docs.didDocument), ...anchored.revocations],
      root: null,
      rootSignatureValid: false,
      withdrawn: new Map(),
      superseded: new Map(),
      proofFor: () => undefined,
      log: {
        origin,
        tree_size: opened.size,
        root_hash: opened.rootHex,
        checkpointValid: true,
        proofFor: () => undefined,
        knownLogged: new Set([sha256]),
        indexOf: (h) => (h === sha256 ? index : undefined),
      },
    },
    nodeVerifyCrypto,
  );
  for (const c of verdict.checks)
    if (c.check === 'content_address' || c.check === 'signature' || c.check === 'shape')
      add(`card_${c.check}`, c.ok, c.detail, c.check === 'signature' ? 'card_signature' : 'card_content_address');
  return report();
}
