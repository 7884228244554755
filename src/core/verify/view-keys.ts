/**
 * The key step of the browser-safe service context (service-context.ts), as `gspc verify` takes
 * it (src/verify/release-verifier.ts): the keys of a view's public files, anchored at its DID's
 * host when the caller says where that is (issue 36, key-source.ts), each fragment at the key in
 * force at the view's log size (issue 30), with the checks `did_document`, `key_anchor` and, when
 * a transition fails, `key_transitions`.
 */
import { bytesToBase64url, type VerifyCrypto } from '../crypto/verify-crypto.js';
import { doubledMethodDetail, keysOfDidDocument } from './card-verifier.js';
import {
  anchorKeys,
  didOf,
  ROOT_FRAGMENT,
  type AnchoredKeys,
  type HostAnswer,
  type KeyAnchorCheck,
  type KeyDocuments,
} from './key-source.js';
import { checkTransitions, keysAtSize } from './key-transitions.js';
import { isObject, parseJsonBytes } from './json-bytes.js';

/** The service's public files, by path ('/root.json'); undefined when it publishes none there. */
export interface PublicFiles {
  get(path: string): Promise<Uint8Array | undefined>;
}

/**
 * Where the keys are read from: the DID's host's documents, or `self` when the files are the
 * host's own. Without it the files' own keys are used unanchored (a caller that anchored them
 * otherwise).
 */
export type KeysAt = (did: string | undefined) => Promise<HostAnswer | { self: string }>;

type Add = (check: string, ok: boolean | null, detail: string) => boolean;

const parse = parseJsonBytes;

/** Whether a DID document lists retired keys: only then are there transitions to read (a 404 is an error in a browser's console). */
export const listsRetiredKeys = (doc: unknown): boolean =>
  isObject(doc) &&
  Array.isArray(doc.verificationMethod) &&
  doc.verificationMethod.some((m) => isObject(m) && m.retired !== undefined);

/** What a view serves about its keys: its DID document, and its transitions when it retired a key. */
async function viewDocuments(files: PublicFiles, didDocument: unknown): Promise<KeyDocuments> {
  return {
    didDocument,
    ...(listsRetiredKeys(didDocument) && { transitions: parse(await files.get('/keys/transitions.json')) }),
  };
}

/**
 * The keys a view is checked under, anchored at its DID's host (`keysAt`), with the
 * `key_anchor` check; `entries`: the view's log (transitions it does not hold came after it).
 */
export async function anchoredKeysOf(
  files: PublicFiles,
  crypto: VerifyCrypto,
  keysAt: KeysAt,
  entries: readonly string[],
  hint: string,
): Promise<AnchoredKeys> {
  const view = await viewDocuments(files, parse(await files.get('/.well-known/did.json')));
  return anchorKeys(crypto, view, entries, { kind: 'host', answer: await keysAt(didOf(view.didDocument)) }, hint);
}

/** The keys of every check of a view's files, and the checks that say where they came from. */
export async function keysOfView(
  files: PublicFiles,
  crypto: VerifyCrypto,
  own: unknown,
  entries: readonly string[],
  anchoring: { keysAt: KeysAt; hint: string } | undefined,
  add: Add,
): Promise<{
  didDocument: unknown;
  did: string | undefined;
  keys: Map<string, Uint8Array>;
  anchor: KeyAnchorCheck | undefined;
}> {
  const view = await viewDocuments(files, own);
  const anchored =
    anchoring &&
    (await anchorKeys(
      crypto,
      view,
      entries,
      { kind: 'host', answer: await anchoring.keysAt(didOf(own)) },
      anchoring.hint,
    ));
  const docs = anchored?.docs ?? view;
  const didDocument = docs.didDocument;
  const did = didOf(didDocument);
  const signed: { keys: Map<string, Uint8Array>; problem?: string } =
    docs.transitions !== undefined
      ? await keysAsSigned(docs.transitions, keysOfDidDocument(didDocument), did, entries, crypto)
      : { keys: keysOfDidDocument(didDocument) };
  const keys = signed.keys;
  if (signed.problem !== undefined) add('key_transitions', false, signed.problem);
  add(
    'did_document',
    keys.size > 0,
    keys.size > 0
      ? `${keys.size} Ed25519 verification methods${anchored ? `, from ${anchored.from}` : ''}`
      : (doubledMethodDetail(didDocument) ?? 'no DID document with Ed25519 keys'),
  );
  if (anchored) add('key_anchor', anchored.anchor.ok, anchored.anchor.detail);
  // Keys reached by transitions that do not verify are no one's: no card is VALID under them,
  // though a retired key the DID document lists would still verify one.
  const refused: KeyAnchorCheck | undefined =
    signed.problem !== undefined
      ? { ok: false, state: 'INVALID', detail: `the key transitions do not verify: ${signed.problem}` }
      : undefined;
  return { didDocument, did, keys, anchor: refused ?? anchored?.anchor };
}

/**
 * The DID document's keys as the served release was signed (issue 30, as `gspc verify`): when
 * /keys/transitions.json lists transitions, each fragment's key is the one in force at the log's
 * size, so a release signed before a rotation is checked under the keys of its time.
 */
async function keysAsSigned(
  doc: unknown,
  didKeys: Map<string, Uint8Array>,
  did: string | undefined,
  entries: readonly string[],
  crypto: VerifyCrypto,
): Promise<{ keys: Map<string, Uint8Array>; problem?: string }> {
  if (did === undefined) return { keys: didKeys };
  const list = isObject(doc) && Array.isArray(doc.transitions) ? (doc.transitions as unknown[]) : undefined;
  const current = new Map<string, string>();
  for (const f of new Set([...(list ?? []).map((t) => (isObject(t) ? t.fragment : undefined)), ROOT_FRAGMENT])) {
    const key = typeof f === 'string' ? didKeys.get(`${did}#${f}`) : undefined;
    if (typeof f === 'string' && key !== undefined) current.set(f, bytesToBase64url(key));
  }
  const verdict = list
    ? await checkTransitions(crypto, list, did, current, entries, current.get(ROOT_FRAGMENT))
    : undefined;
  if (!verdict?.ok)
    return {
      keys: didKeys,
      problem: verdict?.detail ?? '/keys/transitions.json is not a svc.key-transitions/1 document',
    };
  return { keys: keysAtSize(didKeys, did, verdict.epochs, entries.length) };
}
