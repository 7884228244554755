/**
 * Where /gspc-verify reads the keys (issue 36): at the DID's host, as `gspc verify` does. The
 * page's own origin may be a mirror or a replica (or an impostor serving the origin's DID with
 * keys of its own), so the DID document and key transitions are read from the did:web host the
 * served DID document names (https, http only for localhost; the service serves them with
 * `Access-Control-Allow-Origin: *`, and the page's Content-Security-Policy allows that one
 * origin), within a deadline and a size cap, without following a redirect. When the page is
 * the host, its own files are the host's.
 */
import {
  didHostBase,
  HOST_DEADLINE_MS,
  MAX_HOST_DID_DOCUMENT_BYTES,
  MAX_HOST_TRANSITIONS_BYTES,
  type HostAnswer,
} from '../../core/verify/key-source.js';
import { listsRetiredKeys, type KeysAt } from '../../core/verify/service-context.js';

/** How a reader anchors the keys when the page cannot: said in the UNVERIFIABLE_KEY detail. */
export const PAGE_HINT =
  "check with gspc verify <this URL> --trust-did-document <a DID document you saved from the DID's host>";

/** JSON at `url` on another origin, at most `max` bytes; undefined for a 404 when `optional`. */
async function readJson(url: string, max: number, optional: boolean): Promise<{ value: unknown } | { reason: string }> {
  let r: Response;
  try {
    r = await fetch(url, {
      credentials: 'omit',
      redirect: 'error',
      cache: 'no-cache',
      headers: { accept: 'application/did+json, application/json' },
      signal: AbortSignal.timeout(HOST_DEADLINE_MS),
    });
  } catch (e) {
    return { reason: `${url} could not be read (${e instanceof Error ? e.message : String(e)})` };
  }
  if (optional && r.status === 404) return { value: undefined };
  if (!r.ok) return { reason: `${url} answered HTTP ${r.status}` };
  const bytes = new Uint8Array(await r.arrayBuffer());
  if (bytes.length > max) return { reason: `${url} is larger than ${max} bytes` };
  try {
    return { value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown };
  } catch {
    return { reason: `${url} is not JSON` };
  }
}

/** The DID's host's documents, or `self` when this page is served by the host. */
export const keysAtHost: KeysAt = async (did) => {
  const base = didHostBase(did);
  if (base === undefined)
    return { ok: false, url: String(did), reason: `${String(did)} is not a did:web DID of a host` } as HostAnswer;
  const url = `${base}/.well-known/did.json`;
  if (base === location.origin) return { self: url };
  const doc = await readJson(url, MAX_HOST_DID_DOCUMENT_BYTES, false);
  if ('reason' in doc) return { ok: false, url, reason: doc.reason };
  // As for the page's own origin: transitions are read only when the DID document retired a key.
  if (!listsRetiredKeys(doc.value)) return { ok: true, url, docs: { didDocument: doc.value } };
  const transitions = await readJson(`${base}/keys/transitions.json`, MAX_HOST_TRANSITIONS_BYTES, true);
  if ('reason' in transitions) return { ok: false, url, reason: transitions.reason };
  return { ok: true, url, docs: { didDocument: doc.value, transitions: transitions.value } };
};
