/**
 * `gspc verify`, step 1: where the keys come from (issue 36). A URL's keys are the DID's host's:
 * the did:web document and key transitions at `https://<host>/.well-known/did.json` (http only
 * for localhost), read with a size cap, a deadline and no redirect, whatever URL was given; the
 * view's own documents must be a prefix of that history (`key_anchor`). A reader's own anchor
 * (`--trust-did-document`, `--trust-key`) replaces the host: nothing is fetched from it. A
 * release directory keeps its own keys, and the check says so.
 */
import { readFileSync } from 'node:fs';
import { didDocument } from '../core/evidence/did.js';
import type { KeyTransition } from '../core/evidence/key-transition.js';
import { GspcError } from '../core/errors.js';
import {
  anchorKeys,
  anchorOfDidDocument,
  didHostBase,
  didOf,
  HOST_DEADLINE_MS,
  MAX_HOST_DID_DOCUMENT_BYTES,
  MAX_HOST_TRANSITIONS_BYTES,
  type AnchoredKeys,
  type HostAnswer,
  type KeyDocuments,
  type ReaderAnchor,
} from '../core/verify/key-source.js';
import { nodeVerifyCrypto } from './node-crypto.js';
import { parseDocument, type ReleaseSource } from './release-source.js';

/** How a reader supplies an anchor on the command line (said when the host cannot be read). */
export const ANCHOR_HINT =
  "pass --trust-did-document <a DID document you saved from the DID's host> or --trust-key <a key or its RFC 7638 thumbprint>";

/** What a source serves about its keys: a service's DID document, or a release directory's recorded keys. */
async function viewDocuments(src: ReleaseSource): Promise<KeyDocuments> {
  const transitions = parseDocument<unknown>(await src.get('/keys/transitions.json'));
  if (src.live) return { didDocument: parseDocument(await src.get('/.well-known/did.json')), transitions };
  const pk = parseDocument<{ did: string; keys: { fragment: never; x: string }[] }>(
    await src.get('/release/public-keys.json'),
  );
  if (!pk) return { didDocument: undefined, transitions };
  // The retired keys too, as the served DID document lists them (did.ts).
  const keys = pk.keys.map((k) => ({ fragment: k.fragment, publicKey: Buffer.from(k.x, 'base64url') }));
  const list = (transitions as { transitions?: unknown } | undefined)?.transitions;
  try {
    return {
      didDocument: didDocument(pk.did, keys, Array.isArray(list) ? (list as KeyTransition[]) : []),
      transitions,
    };
  } catch {
    // A malformed transitions file fails the key_transitions check (log-verifier.ts); the keys stand.
    return { didDocument: didDocument(pk.did, keys), transitions };
  }
}

/** A body read up to `max` bytes; undefined when it is longer. */
async function readCapped(res: Response, max: number): Promise<Buffer | undefined> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > max) return undefined;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of (res.body ?? []) as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > max) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** One document of the DID's host: its JSON, undefined for a 404 when `optional`, or why not. */
async function hostDocument(
  url: string,
  max: number,
  optional: boolean,
): Promise<{ ok: true; doc: unknown } | { ok: false; reason: string }> {
  try {
    const res = await fetch(url, {
      redirect: 'error',
      signal: AbortSignal.timeout(HOST_DEADLINE_MS),
      headers: { accept: 'application/did+json, application/json' },
    });
    if (optional && res.status === 404) return { ok: true, doc: undefined };
    if (!res.ok) return { ok: false, reason: `${url} answered HTTP ${res.status}` };
    const bytes = await readCapped(res, max);
    if (bytes === undefined) return { ok: false, reason: `${url} is larger than ${max} bytes` };
    return { ok: true, doc: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return {
      ok: false,
      reason: `${url} could not be read: ${cause?.code ?? cause?.message ?? (e as Error).message}`,
    };
  }
}

/** The most of the DID's host's `/log/entries.json` gspc verify reads (about 400,000 entries). */
const MAX_HOST_LOG_BYTES = 32 * 1024 * 1024;

/** The entries of a `/log/entries.json`, when it is one. */
const entriesOf = (doc: unknown): string[] | undefined => {
  const e = (doc as { entries?: unknown } | null | undefined)?.entries;
  return Array.isArray(e) && e.every((h) => typeof h === 'string') ? (e as string[]) : undefined;
};

/**
 * The DID's host's DID document and key transitions (`base`: its base URL), and its log's
 * entries when they can be read (a view's log is then checked against them: `log_matches_host`).
 */
export async function readHost(base: string, withLog = true): Promise<HostAnswer> {
  const url = `${base}/.well-known/did.json`;
  // `withLog` false: one card checked from tiles (VC3) reads no whole log, the host's neither.
  const [doc, transitions, log] = await Promise.all([
    hostDocument(url, MAX_HOST_DID_DOCUMENT_BYTES, false),
    hostDocument(`${base}/keys/transitions.json`, MAX_HOST_TRANSITIONS_BYTES, true),
    withLog
      ? hostDocument(`${base}/log/entries.json`, MAX_HOST_LOG_BYTES, true)
      : Promise.resolve({ ok: true as const, doc: undefined }),
  ]);
  if (!doc.ok) return { ok: false, url, reason: doc.reason };
  if (!transitions.ok) return { ok: false, url, reason: transitions.reason };
  const logEntries = log.ok ? entriesOf(log.doc) : undefined;
  return {
    ok: true,
    url,
    docs: { didDocument: doc.doc, transitions: transitions.doc, ...(logEntries && { logEntries }) },
  };
}

/** The keys of a release source, anchored as the reader chose, with the `key_anchor` check's outcome. */
export async function keysOfSource(
  src: ReleaseSource,
  entries: readonly string[],
  anchor: ReaderAnchor | undefined,
): Promise<AnchoredKeys> {
  const view = await viewDocuments(src);
  if (anchor !== undefined) return anchorKeys(nodeVerifyCrypto, view, entries, { kind: 'reader', anchor }, ANCHOR_HINT);
  const did = didOf(view.didDocument);
  if (!src.live) {
    const from = "the release directory's own evidence/public-keys.json";
    return {
      docs: view,
      live: view,
      from,
      revocations: [],
      anchor: {
        ok: true,
        state: 'VALID',
        detail: `the keys are ${from}, not checked against ${did ?? 'its DID'}'s host: ${ANCHOR_HINT}, or verify the served URL`,
      },
    };
  }
  const base = didHostBase(did);
  if (base === undefined)
    return anchorKeys(
      nodeVerifyCrypto,
      view,
      entries,
      {
        kind: 'host',
        answer: { ok: false, url: String(did), reason: `${String(did)} is not a did:web DID of a host` },
      },
      ANCHOR_HINT,
    );
  // The view is the DID's host itself: its own documents are the host's.
  const answer = sameOrigin(src.describe, base) ? { self: `${base}/.well-known/did.json` } : await readHost(base);
  return anchorKeys(nodeVerifyCrypto, view, entries, { kind: 'host', answer }, ANCHOR_HINT);
}

const sameOrigin = (a: string, b: string): boolean => {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
};

/**
 * The reader's anchor from the command line: `--trust-did-document <file>` (a DID document they
 * saved) and `--trust-key <x or thumbprint>` (repeatable). Undefined when neither was given; a
 * file that is not a DID document is refused before anything is fetched.
 */
export function readerAnchor(documentFile: string | undefined, keys: readonly string[]): ReaderAnchor | undefined {
  if (documentFile === undefined && keys.length === 0) return undefined;
  const bad = keys.find((k) => !/^(?:identity-root=)?[A-Za-z0-9_-]{43}$/.test(k));
  if (bad !== undefined)
    throw new GspcError(
      'config_invalid',
      `--trust-key ${bad}: a key is its JWK x or its RFC 7638 thumbprint, 43 base64url characters, and the identity root is named as identity-root=<key>`,
    );
  // A bare key anchors a signing key of whichever fragment has it, never the identity root: that
  // is named (review finding 3), or a stolen online key could pose as the root.
  const rootKeys = keys.filter((k) => k.startsWith('identity-root=')).map((k) => k.slice('identity-root='.length));
  const bare = keys.filter((k) => !k.startsWith('identity-root='));
  const described = [
    ...(documentFile === undefined ? [] : [`the DID document in ${documentFile}`]),
    ...(keys.length === 0 ? [] : [`--trust-key ${keys.join(', ')}`]),
  ].join(' and ');
  if (documentFile === undefined) return { describe: described, byFragment: new Map(), anyFragment: bare, rootKeys };
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(documentFile, 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new GspcError('config_invalid', `--trust-did-document ${documentFile}: ${code ?? 'not JSON'}`);
  }
  const anchor = anchorOfDidDocument(doc, described);
  if ('problem' in anchor)
    throw new GspcError('config_invalid', `--trust-did-document ${documentFile}: ${anchor.problem}`);
  return { ...anchor, anyFragment: bare, rootKeys };
}
