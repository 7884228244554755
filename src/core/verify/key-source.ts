/**
 * Which keys a view is checked under (issue 36), browser-safe: one rule for `gspc verify`, the
 * served `POST /api/verify` and the /gspc-verify page. The keys a view serves prove nothing by
 * themselves (an impostor serves a DID document naming the origin's DID with keys of its own),
 * so they are anchored outside the view (key-anchor.ts):
 *
 * - at the DID's host: the did:web document and key transitions the host serves are the keys of
 *   every check; the view must serve a prefix of the same history (a lagging mirror) or the
 *   check `key_anchor` fails. A host that cannot be read leaves the view's keys unanchored:
 *   `UNVERIFIABLE_KEY`, never VALID.
 * - at a reader's own anchor (a DID document they saved, keys or thumbprints they were given):
 *   the view's keys must be reached from those keys by changes the anchor can vouch for.
 *
 * The I/O is the caller's: it reads the documents and passes them in.
 */
import { base64urlToBytes, bytesToBase64url, utf8, type VerifyCrypto } from '../crypto/verify-crypto.js';
import type { CardVerdict } from './card-verifier.js';
import { agreesWithHost, anchoredSince, thumbprintInput, type KeyHistory } from './key-anchor.js';
import { checkTransitions, keyAtSize, type KeyEpoch, type TransitionsVerdict } from './key-transitions.js';
import { revocationOfMethod, type Revocation } from './revocation.js';
import { checkTrustedLog, revokedLiveKey } from './trusted-log.js';
import { isObject } from './json-bytes.js';

export const ROOT_FRAGMENT = 'identity-root';
/** What a verifier reads from a DID's host, at most (the DID document as the receipt resolver caps it). */
export const MAX_HOST_DID_DOCUMENT_BYTES = 64 * 1024;
export const MAX_HOST_TRANSITIONS_BYTES = 1024 * 1024;
/** How long a reader waits for the DID's host, per document. */
export const HOST_DEADLINE_MS = 10_000;
/** The keys a view signs with: what a reader's anchor must reach (the root is checked where a revocation needs it). */
export const SIGNING_FRAGMENTS = ['board-attestation-1', 'card-attestation-1', 'card-attestation-2'] as const;

/**
 * The base URL of a did:web DID's host: https, or http for localhost (the rule of
 * src/core/evidence/did.ts `didDocumentUrl`, restated here without its Node imports; a test
 * checks they agree). Undefined for anything that is not a did:web host with an optional port.
 */
export function didHostBase(did: unknown): string | undefined {
  if (typeof did !== 'string' || !did.startsWith('did:web:')) return undefined;
  const host = did.slice('did:web:'.length).replace('%3A', ':');
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?(?::[0-9]{1,5})?$/.test(host)) return undefined;
  return `${/^localhost(:|$)/.test(host) ? 'http' : 'https'}://${host}`;
}

/** What one place serves about its keys: its DID document and its `/keys/transitions.json` (undefined: none). */
export interface KeyDocuments {
  didDocument: unknown;
  transitions?: unknown;
  /** The DID's host's log entries (`/log/entries.json`), when the reader read them: a view's log is checked against them. */
  logEntries?: readonly string[];
}

/** The DID document's id, when it is a string. */
export const didOf = (doc: unknown): string | undefined =>
  isObject(doc) && typeof doc.id === 'string' ? doc.id : undefined;

/**
 * fragment → JWK `x` of the document's current methods (`<did>#<fragment>`, not the retired
 * `~<n>` ones), or a problem: a method listed twice with different keys, whose key a verifier
 * would take depends on which one it reads.
 */
export function currentKeysOf(doc: unknown): { keys: Map<string, string> } | { problem: string } {
  const did = didOf(doc);
  const keys = new Map<string, string>();
  const methods = isObject(doc) && Array.isArray(doc.verificationMethod) ? doc.verificationMethod : [];
  for (const m of methods) {
    if (!isObject(m) || typeof m.id !== 'string' || did === undefined || !m.id.startsWith(`${did}#`)) continue;
    const fragment = m.id.slice(did.length + 1);
    const jwk = m.publicKeyJwk;
    if (fragment.includes('~') || !isObject(jwk) || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') continue;
    if (typeof jwk.x !== 'string' || base64urlToBytes(jwk.x)?.length !== 32) continue;
    const seen = keys.get(fragment);
    if (seen !== undefined && seen !== jwk.x) return { problem: `the DID document lists #${fragment} twice` };
    keys.set(fragment, jwk.x);
  }
  return { keys };
}

type CheckedHistory =
  | { ok: true; history: KeyHistory; verdict: Extract<TransitionsVerdict, { ok: true }> }
  | { ok: false; detail: string };

/**
 * A place's key history: its transitions checked (key-transitions.ts) against its own current
 * keys and root, and against the log's `entries` (a transition the log does not hold came after
 * this release).
 */
export async function historyOf(
  crypto: VerifyCrypto,
  docs: KeyDocuments,
  entries: readonly string[],
): Promise<CheckedHistory> {
  const did = didOf(docs.didDocument);
  if (did === undefined) return { ok: false, detail: 'no DID document with an id' };
  const current = currentKeysOf(docs.didDocument);
  if ('problem' in current) return { ok: false, detail: current.problem };
  let list: unknown[] = [];
  if (docs.transitions !== undefined) {
    const t = docs.transitions;
    if (!isObject(t) || !Array.isArray(t.transitions))
      return { ok: false, detail: '/keys/transitions.json is not a svc.key-transitions/1 document' };
    list = t.transitions;
  }
  const verdict = await checkTransitions(crypto, list, did, current.keys, entries, current.keys.get(ROOT_FRAGMENT));
  if (!verdict.ok) return verdict;
  return { ok: true, history: { ids: verdict.ids, epochs: verdict.epochs, current: current.keys }, verdict };
}

/**
 * Keys a reader trusted before, given on the command line: a DID document they saved (its keys
 * by fragment, retired ones under their fragment, and the revocations it records) and keys named
 * by JWK `x` or RFC 7638 thumbprint (base64url SHA-256), which match whichever signing fragment
 * has them, never the identity root: the root is anchored only by name (`rootKeys`, from
 * `--trust-key identity-root=<key>`) or by a saved document's `#identity-root`, or a stolen
 * online key given as a bare key could pose as the root that authorises revocations.
 */
export interface ReaderAnchor {
  /** What the reader gave, for the report ("the DID document in saved-did.json"). */
  describe: string;
  /** The DID of the saved document, when one was given: the view must be that DID's. */
  did?: string;
  byFragment: ReadonlyMap<string, ReadonlySet<string>>;
  anyFragment: readonly string[];
  /** Identity roots the reader named (JWK `x` or thumbprint). */
  rootKeys?: readonly string[];
  /** The revocations the saved DID document records (`retired.revoked`): they apply to the view, with its own. */
  revocations?: readonly Revocation[];
}

/** A saved DID document as an anchor: every Ed25519 method's key under its fragment (`~<n>` dropped). */
export function anchorOfDidDocument(doc: unknown, describe: string): ReaderAnchor | { problem: string } {
  const did = didOf(doc);
  const methods = isObject(doc) && Array.isArray(doc.verificationMethod) ? doc.verificationMethod : undefined;
  if (did === undefined || methods === undefined)
    return { problem: 'not a DID document (no id, no verificationMethod)' };
  const byFragment = new Map<string, Set<string>>();
  const revocations: Revocation[] = [];
  for (const m of methods) {
    const r = revocationOfMethod(m);
    if (r !== undefined) revocations.push(r);
    if (!isObject(m) || typeof m.id !== 'string' || !m.id.startsWith(`${did}#`)) continue;
    const jwk = m.publicKeyJwk;
    if (!isObject(jwk) || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') continue;
    const fragment = m.id.slice(did.length + 1).split('~')[0]!;
    byFragment.set(fragment, (byFragment.get(fragment) ?? new Set()).add(jwk.x));
  }
  if (byFragment.size === 0) return { problem: 'the DID document lists no Ed25519 key' };
  return { describe, did, byFragment, anyFragment: [], revocations };
}

/** The RFC 7638 thumbprint of an Ed25519 key (JWK `x`): base64url of SHA-256 of its canonical JWK. */
export async function thumbprintOf(crypto: VerifyCrypto, x: string): Promise<string> {
  return bytesToBase64url(await crypto.sha256(utf8(thumbprintInput(x))));
}

/** fragment → the keys of the view's history the anchor trusts. */
async function trustedIn(
  crypto: VerifyCrypto,
  history: KeyHistory,
  anchor: ReaderAnchor,
): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  const any = new Set(anchor.anyFragment);
  const roots = new Set(anchor.rootKeys ?? []);
  const fragments = new Set([...history.current.keys(), ...history.epochs.keys()]);
  for (const f of fragments) {
    const keys = new Set([history.current.get(f), ...(history.epochs.get(f) ?? []).map((e) => e.x)]);
    const trusted = new Set<string>();
    for (const x of keys) {
      if (x === undefined) continue;
      // A bare key never anchors the identity root (review finding 3): only a named one does.
      const named = f === ROOT_FRAGMENT ? roots : any;
      if (
        anchor.byFragment.get(f)?.has(x) ||
        named.has(x) ||
        (named.size > 0 && named.has(await thumbprintOf(crypto, x)))
      )
        trusted.add(x);
    }
    out.set(f, trusted);
  }
  return out;
}

export type KeyAnchorState = 'VALID' | 'INVALID' | 'UNVERIFIABLE_KEY';

/** The `key_anchor` check: whether the keys of every other check are anchored outside the view. */
export interface KeyAnchorCheck {
  ok: boolean;
  state: KeyAnchorState;
  detail: string;
}

/** What the DID's host answered: its documents, or why they could not be read (`url`: its DID document's). */
export type HostAnswer = { ok: true; url: string; docs: KeyDocuments } | { ok: false; url: string; reason: string };

/** How the keys are anchored: at the DID's host (`self`: the view is the host), or by the reader. */
export type AnchorSource =
  | { kind: 'host'; answer: HostAnswer | { self: string } }
  | { kind: 'reader'; anchor: ReaderAnchor };

export interface AnchoredKeys {
  /** The documents whose keys every check uses: the host's when it answered, else the view's own. */
  docs: KeyDocuments;
  /** Where those keys came from, for the report. */
  from: string;
  /** The keys the view's live signatures (the board attestation) are checked under: the view's own when they are anchored. */
  live: KeyDocuments;
  anchor: KeyAnchorCheck;
  /** The revocations every check applies: the keys' source's, and a reader's saved DID document's with them. */
  revocations: readonly Revocation[];
}

const pass = (detail: string): KeyAnchorCheck => ({ ok: true, state: 'VALID', detail });
const fail = (detail: string): KeyAnchorCheck => ({ ok: false, state: 'INVALID', detail });
const unverifiable = (why: string, hint: string): KeyAnchorCheck => ({
  ok: false,
  state: 'UNVERIFIABLE_KEY',
  detail: `UNVERIFIABLE_KEY: the keys could not be anchored: ${why}; the view's own keys were used for the other checks, and nothing it serves is VALID until they are anchored (${hint})`,
});

/**
 * The keys a view is checked under, and the `key_anchor` check. `view`: what the view serves;
 * `entries`: its log's entries; `hint`: how a reader supplies an anchor, said when the host
 * cannot be read (the command line's options, or "run gspc verify" on the page).
 */
export async function anchorKeys(
  crypto: VerifyCrypto,
  view: KeyDocuments,
  entries: readonly string[],
  source: AnchorSource,
  hint: string,
): Promise<AnchoredKeys> {
  const did = didOf(view.didDocument);
  const own = (anchor: KeyAnchorCheck, from: string, revocations: readonly Revocation[] = []): AnchoredKeys => ({
    docs: view,
    live: view,
    from,
    anchor,
    revocations,
  });
  if (did === undefined) return own(fail('the view serves no DID document with an id'), "the view's own DID document");
  if (source.kind === 'reader') {
    const a = source.anchor;
    const from = `the view's own DID document, anchored to ${a.describe}`;
    if (a.did !== undefined && a.did !== did)
      return own(fail(`${a.describe} is ${a.did}'s, the view is ${did}'s`), from);
    const viewHistory = await historyOf(crypto, view, entries);
    if (!viewHistory.ok) return own(fail(`the view's key transitions: ${viewHistory.detail}`), from);
    const required = SIGNING_FRAGMENTS.filter((f) => viewHistory.history.current.has(f));
    const v = anchoredSince(viewHistory.history, await trustedIn(crypto, viewHistory.history, a), required);
    const revocations = [...viewHistory.verdict.revocations, ...(a.revocations ?? [])];
    if (!v.ok) return own(fail(`${v.detail} (${a.describe})`), from, revocations);
    const revoked = await revokedKeyProblem(crypto, view, entries, viewHistory.history.epochs, revocations, undefined);
    return own(revoked ? fail(`${revoked} (${a.describe})`) : pass(`${v.detail} (${a.describe})`), from, revocations);
  }
  const answer = source.answer;
  if ('self' in answer)
    return own(
      pass(`the view is the DID's host: ${answer.self} is ${did}'s own DID document`),
      `the DID document at ${answer.self}`,
    );
  const unanchored = "the view's own DID document (not anchored)";
  if (!answer.ok) return own(unverifiable(answer.reason, hint), unanchored);
  if (didOf(answer.docs.didDocument) !== did)
    return own(unverifiable(`the document at ${answer.url} is not the DID document of ${did}`, hint), unanchored);
  // The host's own history first (signatures and chains, whatever the view's log holds): a
  // host that serves a broken one is not an anchor.
  const alone = await historyOf(crypto, answer.docs, []);
  if (!alone.ok)
    return own(
      unverifiable(`the key transitions of the DID's host (${answer.url}) do not verify: ${alone.detail}`, hint),
      unanchored,
    );
  const from = `the DID document at ${answer.url}`;
  const hostHistory = await historyOf(crypto, answer.docs, entries);
  const host = { docs: answer.docs, from, revocations: hostHistory.ok ? hostHistory.verdict.revocations : [] };
  if (!hostHistory.ok)
    return {
      ...host,
      live: answer.docs,
      anchor: fail(`the view's log disagrees with the key transitions of ${from}: ${hostHistory.detail}`),
    };
  const viewHistory = await historyOf(crypto, view, entries);
  if (!viewHistory.ok)
    return { ...host, live: answer.docs, anchor: fail(`the view's own key transitions: ${viewHistory.detail}`) };
  const v = agreesWithHost(viewHistory.history, hostHistory.history);
  if (!v.ok)
    return { ...host, live: answer.docs, anchor: fail(`${v.detail} (${from}): the view's keys are not ${did}'s`) };
  const revoked = await revokedKeyProblem(
    crypto,
    view,
    entries,
    hostHistory.history.epochs,
    host.revocations,
    answer.docs.logEntries,
  );
  return revoked
    ? { ...host, live: answer.docs, anchor: fail(`${revoked} (${from})`) }
    : { ...host, live: view, anchor: pass(`${v.detail} (${from})`) };
}

/**
 * What a view signed by a revoked key may not do (trusted-log.ts, review finding 1): serve a
 * revoked key as one in force (its live signatures are the thief's), or serve, under the board
 * key in force at its size when that key is revoked, any log but the one the revocation trusts.
 */
async function revokedKeyProblem(
  crypto: VerifyCrypto,
  view: KeyDocuments,
  entries: readonly string[],
  epochs: ReadonlyMap<string, readonly KeyEpoch[]>,
  revocations: readonly Revocation[],
  hostEntries: readonly string[] | undefined,
): Promise<string | undefined> {
  if (revocations.length === 0) return undefined;
  const current = currentKeysOf(view.didDocument);
  if ('problem' in current) return undefined;
  const live = new Map([...current.keys].filter(([f]) => f !== ROOT_FRAGMENT));
  const liveRevoked = revokedLiveKey(live, revocations);
  if (liveRevoked !== undefined)
    return `the view serves #${liveRevoked.fragment} ${liveRevoked.x} as a key in force, revoked as compromised since ${liveRevoked.r.compromised_since}: what it signs live (the board attestation, offers, receipts, the agent card) is refused`;
  const board = 'board-attestation-1';
  const boardX = keyAtSize(epochs.get(board), entries.length, current.keys.get(board) ?? '');
  const verdict = await checkTrustedLog(
    crypto,
    revocations,
    `#${board}`,
    boardX === '' ? undefined : boardX,
    entries,
    hostEntries,
  );
  return verdict.ok ? undefined : verdict.detail;
}

/** A card's verdict under the anchor: a card VALID under keys that are not anchored is not VALID. */
export function anchoredVerdict(v: CardVerdict, anchor: KeyAnchorCheck): CardVerdict {
  if (anchor.ok || v.result !== 'VALID') return v;
  return { ...v, result: anchor.state, reasons: [`key_anchor: ${anchor.detail}`] };
}
