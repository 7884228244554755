/**
 * Resolves a receipt's `kid` to a key: from this service's own DID document, or from the DID
 * document of a did:web host the operator trusts (`GSPC_TRUSTED_DID_HOSTS`). A request chooses
 * at most which of those operator-named hosts is asked; it can never make the service fetch any
 * other URL (the URL is built from the allow-listed host, and a kid naming another DID is
 * UNVERIFIABLE_KEY without any fetch). Fetched documents are size-capped, time-limited and cached.
 */
import type { KeyResolution } from '../core/crypto/receipt-verifier.js';
import { resolveInMethods } from '../core/crypto/jws-verifier.js';
import { didDocumentUrl, didForHost } from '../core/evidence/did.js';

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

/** The resolver of the receipt verifier: own document first, then trusted hosts. */
export function didKeyResolver(
  own: () => { did: string; doc: { verificationMethod: { id: string; publicKeyJwk: unknown }[] } },
  remote: RemoteDidOptions,
): KeyResolver {
  const trusted = new Map(remote.trustedHosts.map((h) => [didForHost(h), h]));
  const cache = new Map<string, { at: number; value: Promise<Fetched> }>();
  const now = remote.now ?? Date.now;
  const ttl = remote.ttlMs ?? 300_000;
  const failureTtl = remote.failureTtlMs ?? 30_000;

  const documentOf = (did: string): Promise<Fetched> => {
    const hit = cache.get(did);
    if (hit) return hit.value;
    const value = fetchDocument(did, remote.timeoutMs ?? 3500).then((f) => {
      // A failure is kept for a shorter time than a document.
      setExpiry(did, f.ok ? ttl : failureTtl);
      return f;
    });
    cache.set(did, { at: Number.POSITIVE_INFINITY, value });
    return value;
  };
  const setExpiry = (did: string, ms: number) => {
    const e = cache.get(did);
    if (e) e.at = now() + ms;
  };

  return async (kid) => {
    const { did, doc } = own();
    const hash = kid.indexOf('#');
    const kidDid = hash < 0 ? kid : kid.slice(0, hash);
    if (kidDid === did) return resolveInMethods(doc.verificationMethod, kid);
    if (!trusted.has(kidDid))
      return {
        state: 'unresolvable',
        reason: `the kid's DID is neither this service's (${did}) nor on the operator's allow-list; it is not resolved`,
      };
    for (const [k, e] of cache) if (e.at <= now()) cache.delete(k);
    const fetched = await documentOf(kidDid);
    if (!fetched.ok) return { state: 'unresolvable', reason: fetched.reason };
    return resolveInMethods(fetched.doc.verificationMethod ?? [], kid);
  };
}

async function fetchDocument(did: string, timeoutMs: number): Promise<Fetched> {
  const url = didDocumentUrl(did);
  try {
    const res = await fetch(url, {
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/did+json, application/json' },
    });
    if (!res.ok) return { ok: false, reason: `the DID document at ${url} answered HTTP ${res.status}` };
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > MAX_DID_DOCUMENT_BYTES)
      return { ok: false, reason: `the DID document at ${url} is larger than ${MAX_DID_DOCUMENT_BYTES} bytes` };
    const bytes = await readCapped(res, MAX_DID_DOCUMENT_BYTES);
    if (bytes === undefined)
      return { ok: false, reason: `the DID document at ${url} is larger than ${MAX_DID_DOCUMENT_BYTES} bytes` };
    const doc = JSON.parse(Buffer.from(bytes).toString('utf8')) as { id?: unknown; verificationMethod?: unknown };
    if (doc.id !== did || !Array.isArray(doc.verificationMethod))
      return { ok: false, reason: `the document at ${url} is not the DID document of ${did}` };
    return { ok: true, doc: doc as Extract<Fetched, { ok: true }>['doc'] };
  } catch (err) {
    return { ok: false, reason: `the DID document at ${url} could not be read: ${(err as Error).message}` };
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
