/**
 * Resolves a receipt's `kid` to a key: from this service's own DID document, or from the DID
 * document of a did:web host the operator trusts (`GSPC_TRUSTED_DID_HOSTS`). A request chooses
 * at most which of those operator-named hosts is asked; it can never make the service fetch any
 * other URL (the URL is built from the allow-listed host, and a kid naming another DID is
 * UNVERIFIABLE_KEY without any fetch). Fetched documents are size-capped, time-limited and cached.
 *
 * A service that is not at its own DID's host (a replica, or one whose public origin is not its
 * DID's host: issue 36) reads even its own keys at that host (`didHostDocuments`): the DID
 * document and key transitions at `didDocumentUrl(did)`, the configured DID, never a URL a
 * request names; when they cannot be read, its own kid is UNVERIFIABLE_KEY, never VALID.
 */
import type { KeyResolution } from '../core/crypto/receipt-verifier.js';
import { resolveInMethods } from '../core/crypto/jws-verifier.js';
import { didDocumentUrl, didForHost } from '../core/evidence/did.js';
import { MAX_HOST_TRANSITIONS_BYTES, type HostAnswer } from '../core/verify/key-source.js';

export interface RemoteDidOptions {
  /** did:web hosts (optionally with a port) whose DID documents may be fetched. */
  trustedHosts: readonly string[];
  /** Per fetch (default 3500 ms, the specification's probe timeout). */
  timeoutMs?: number;
  /** How long a fetched document (or a failure) is reused (default 300 s / 30 s). */
  ttlMs?: number;
  failureTtlMs?: number;
  /** Injected clock (ms). */
  now?: () => number;
}

export const MAX_DID_DOCUMENT_BYTES = 64 * 1024;

type Fetched =
  | { ok: true; doc: { verificationMethod?: { id?: unknown; publicKeyJwk?: unknown }[] } }
  | { ok: false; reason: string };

export type KeyResolver = (kid: string) => Promise<KeyResolution>;

/** A value fetched once and reused for `ttl` (a failure for `failureTtl`), per key. */
function cached<T extends { ok: boolean }>(
  opts: Omit<RemoteDidOptions, 'trustedHosts'>,
  load: (key: string) => Promise<T>,
): (key: string) => Promise<T> {
  const cache = new Map<string, { at: number; value: Promise<T> }>();
  const now = opts.now ?? Date.now;
  const ttl = opts.ttlMs ?? 300_000;
  const failureTtl = opts.failureTtlMs ?? 30_000;
  return (key) => {
    for (const [k, e] of cache) if (e.at <= now()) cache.delete(k);
    const hit = cache.get(key);
    if (hit) return hit.value;
    const value = load(key).then((f) => {
      // A failure is kept for a shorter time than a document.
      const e = cache.get(key);
      if (e) e.at = now() + (f.ok ? ttl : failureTtl);
      return f;
    });
    cache.set(key, { at: Number.POSITIVE_INFINITY, value });
    return value;
  };
}

/** The resolver of the receipt verifier: own document first (or, away from the DID's host, the host's), then trusted hosts. */
export function didKeyResolver(
  own: () => { did: string; doc: { verificationMethod: { id: string; publicKeyJwk: unknown }[] } },
  remote: RemoteDidOptions,
  /** Set for a service not at its DID's host: its own DID's documents, read there. */
  atHost?: DidHost,
): KeyResolver {
  const trusted = new Map(remote.trustedHosts.map((h) => [didForHost(h), h]));
  const documentOf = cached(remote, (did) => fetchDocument(did, remote.timeoutMs ?? 3500));

  return async (kid) => {
    const { did, doc } = own();
    const hash = kid.indexOf('#');
    const kidDid = hash < 0 ? kid : kid.slice(0, hash);
    if (kidDid === did) {
      if (atHost === undefined) return resolveInMethods(doc.verificationMethod, kid);
      const host = await atHost.documents();
      if (!host.ok) return { state: 'unresolvable', reason: `the keys could not be anchored: ${host.reason}` };
      const methods = (host.docs.didDocument as { verificationMethod?: unknown }).verificationMethod;
      return resolveInMethods(Array.isArray(methods) ? methods : [], kid);
    }
    if (!trusted.has(kidDid))
      return {
        state: 'unresolvable',
        reason: `the kid's DID is neither this service's (${did}) nor on the operator's allow-list; it is not resolved`,
      };
    const fetched = await documentOf(kidDid);
    if (!fetched.ok) return { state: 'unresolvable', reason: fetched.reason };
    return resolveInMethods(fetched.doc.verificationMethod ?? [], kid);
  };
}

/** This service's DID's host, for a service that is not it: its documents, read with the resolver's cap, deadline and cache. */
export interface DidHost {
  documents(): Promise<HostAnswer>;
}

/** The documents of `did()`'s host (`didDocumentUrl`): the DID document (64 KiB) and its key transitions (a 404 is none). */
export function didHostDocuments(did: () => string, opts: Omit<RemoteDidOptions, 'trustedHosts'> = {}): DidHost {
  const timeoutMs = opts.timeoutMs ?? 3500;
  const read = cached(opts, async (d): Promise<HostAnswer> => {
    const url = didDocumentUrl(d);
    const [doc, transitions] = await Promise.all([
      fetchDocument(d, timeoutMs),
      fetchJson(
        url.replace(/\/\.well-known\/did\.json$/, '/keys/transitions.json'),
        MAX_HOST_TRANSITIONS_BYTES,
        timeoutMs,
      ),
    ]);
    if (!doc.ok) return { ok: false, url, reason: doc.reason };
    if (!transitions.ok) return { ok: false, url, reason: transitions.reason };
    return {
      ok: true,
      url,
      docs: { didDocument: doc.doc, ...(transitions.value !== undefined && { transitions: transitions.value }) },
    };
  });
  return { documents: () => read(did()) };
}

async function fetchDocument(did: string, timeoutMs: number): Promise<Fetched> {
  const url = didDocumentUrl(did);
  const r = await fetchJson(url, MAX_DID_DOCUMENT_BYTES, timeoutMs, 'the DID document at ');
  if (!r.ok) return r;
  const doc = r.value as { id?: unknown; verificationMethod?: unknown } | undefined;
  if (doc?.id !== did || !Array.isArray(doc.verificationMethod))
    return { ok: false, reason: `the document at ${url} is not the DID document of ${did}` };
  return { ok: true, doc: doc as Extract<Fetched, { ok: true }>['doc'] };
}

/** JSON at `url`, at most `max` bytes, within the deadline, no redirect; undefined for a 404 unless `what` names a required document. */
async function fetchJson(
  url: string,
  max: number,
  timeoutMs: number,
  what?: string,
): Promise<{ ok: true; value: unknown } | { ok: false; reason: string }> {
  const label = `${what ?? ''}${url}`;
  try {
    const res = await fetch(url, {
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/did+json, application/json' },
    });
    if (res.status === 404 && what === undefined) return { ok: true, value: undefined };
    if (!res.ok) return { ok: false, reason: `${label} answered HTTP ${res.status}` };
    const declared = Number(res.headers.get('content-length') ?? 0);
    const bytes = declared > max ? undefined : await readCapped(res, max);
    if (bytes === undefined) return { ok: false, reason: `${label} is larger than ${max} bytes` };
    return { ok: true, value: JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown };
  } catch (err) {
    return { ok: false, reason: `${label} could not be read: ${(err as Error).message}` };
  }
}

async function readCapped(res: Response, max: number): Promise<Uint8Array | undefined> {
  if (!res.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > max) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
