/**
 * A DID document and its key transitions as the monitor reads them (issue 36), from a view or
 * from the DID's own host: strictly shaped (a document that doubles a method id, a transitions
 * file whose `transitions` is not a list, a DID that is not a did:web are `view_malformed`, never
 * a TypeError), then the transitions walked under core's rules (key-transitions.ts) into the
 * history monitor-keys.ts compares.
 */
import { didDocumentUrl } from '../core/evidence/did.js';
import { doubledMethodId } from '../core/verify/card-verifier.js';
import { checkTransitions, type TransitionsVerdict } from '../core/verify/key-transitions.js';
import {
  CAP,
  expect,
  parseJson,
  type BoundedGet,
  type MonitorLimits,
  boundedGet,
  withinBudget,
} from './monitor-fetch.js';
import type { HttpCache } from './monitor-http-cache.js';
import { currentOf, type ServedKeys, servedKeys } from './monitor-keys.js';
import { nodeVerifyCrypto } from './node-crypto.js';

const DID_WEB = /^did:web:[A-Za-z0-9.-]+(%3A[0-9]{1,5})?$/;
const ROOT = 'identity-root';

export interface ReadDid {
  did: string;
  /** Every verification method with an `x`, by id. */
  methods: Map<string, string>;
  /** fragment → x of the current keys. */
  current: Map<string, string>;
}

export async function readDidDocument(get: BoundedGet): Promise<ReadDid | undefined> {
  const path = '/.well-known/did.json';
  const bytes = await get(path, CAP.did);
  if (bytes === undefined) return undefined;
  const doc = parseJson(bytes, path) as { id?: unknown; verificationMethod?: unknown };
  expect(typeof doc === 'object' && doc !== null && !Array.isArray(doc), path, 'is not a JSON object');
  expect(typeof doc.id === 'string' && DID_WEB.test(doc.id), path, 'names no did:web DID as its id');
  const did = doc.id as string;
  expect(Array.isArray(doc.verificationMethod), path, 'has no verificationMethod list');
  const doubled = doubledMethodId(doc);
  expect(doubled === undefined, path, `lists the verification method ${doubled} twice`);
  const methods = new Map<string, string>();
  for (const m of doc.verificationMethod as unknown[]) {
    const method = m as { id?: unknown; publicKeyJwk?: { x?: unknown } } | null;
    expect(typeof method?.id === 'string', path, 'has a verification method without an id');
    if (typeof method!.publicKeyJwk?.x === 'string') methods.set(method!.id as string, method!.publicKeyJwk.x);
  }
  return { did, methods, current: currentOf(did, methods) };
}

/** `/keys/transitions.json`'s records (none on a 404: a board whose keys never changed). */
export async function readTransitions(get: BoundedGet): Promise<unknown[]> {
  const path = '/keys/transitions.json';
  const bytes = await get(path, CAP.transitions);
  if (bytes === undefined) return [];
  const doc = parseJson(bytes, path) as { transitions?: unknown } | null;
  expect(typeof doc === 'object' && doc !== null && Array.isArray(doc.transitions), path, 'has no transitions list');
  return doc.transitions as unknown[];
}

/** The transitions walked against the document's current keys and (for a view) its log's entries. */
export function walkKeys(
  read: ReadDid,
  transitions: readonly unknown[],
  entries: readonly string[] | ReadonlyMap<string, number>,
): Promise<TransitionsVerdict> {
  return checkTransitions(nodeVerifyCrypto, transitions, read.did, read.current, entries, read.current.get(ROOT));
}

/** What the DID's host answered: its keys, or why they cannot anchor this poll. */
export type HostAnswer =
  | { ok: true; keys: ServedKeys }
  | { ok: false; alert: 'did_host_unreachable' | 'did_host_invalid'; url: string; detail: string };

/**
 * The DID document and key transitions at the DID's own host (did:web: https, plain http only
 * for localhost), fetched apart from every view, within the same limits as a view.
 */
export async function readDidHost(did: string, limits: MonitorLimits, cache?: HttpCache): Promise<HostAnswer> {
  const url = didDocumentUrl(did);
  const origin = url.slice(0, -'/.well-known/did.json'.length);
  return withinBudget<HostAnswer>(
    limits,
    async (budget) => {
      const get = boundedGet(origin, limits, budget, cache);
      const read = await readDidDocument(get);
      if (read === undefined)
        return { ok: false, alert: 'did_host_unreachable', url, detail: `${url} answers 404: no DID document` };
      if (read.did !== did)
        return {
          ok: false,
          alert: 'did_host_invalid',
          url,
          detail: `${url} is the DID document of ${read.did}, not ${did}`,
        };
      const walk = await walkKeys(read, await readTransitions(get), []);
      if (!walk.ok)
        return { ok: false, alert: 'did_host_invalid', url, detail: `its key transitions do not hold: ${walk.detail}` };
      return { ok: true, keys: servedKeys(url, did, read.methods, walk) };
    },
    (alert, detail) => ({
      ok: false,
      alert: alert === 'unreachable' || alert === 'view_timeout' ? 'did_host_unreachable' : 'did_host_invalid',
      url,
      detail,
    }),
  );
}
