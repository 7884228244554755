/**
 * Following a DID's key transitions (issue 30), browser-safe: every record is checked (both
 * signatures over the RFC 8785 body, the DID, one unbroken sequence per key whose old key is the
 * previous new key, and a last new key that is the key the DID document serves now), and the
 * log says where each transition happened, so a checkpoint is checked under the board key that
 * was in force at its size. A verifier that starts from the first checkpoint's key reaches the
 * current key through rotations both keys signed, and through revocations the new key signed
 * and the DID document vouches for (the stolen key's word would count for nothing; K6).
 */
import { canonicalJsonStrict } from '../crypto/canonical-json.js';
import { base64urlToBytes, bytesToHex, hexToBytes, utf8, type VerifyCrypto } from '../crypto/verify-crypto.js';
import { KEY_TRANSITION_SCHEMA } from '../evidence/key-transition-schema.js';
import type { KeyTransition } from '../evidence/key-transition.js';
import type { Revocation } from './revocation.js';

/** One key a fragment had, and the log sizes its checkpoints may have. */
export interface KeyEpoch {
  /** JWK `x` (base64url). */
  x: string;
  /** The transition that made it the key (absent for the first). */
  transition?: string;
  /** The log leaf index of that transition (-1 for the first key). */
  fromLeaf: number;
  /** The leaf index of the transition that retired it, or undefined while it is current. */
  untilLeaf?: number;
}

export type TransitionsVerdict =
  | {
      ok: true;
      ids: string[];
      epochs: Map<string, KeyEpoch[]>;
      revocations: Revocation[];
      /** How many transitions (the last ones) the log does not hold: they came after this release. */
      unlogged: number;
    }
  | { ok: false; detail: string };

const BODY_KEYS = ['schema', 'did', 'fragment', 'sequence', 'kind', 'old_x', 'new_x', 'at'];
/** The fields of each kind: a rotation is signed by both keys, a revocation by the new key only. */
const FIELDS: Record<string, readonly string[]> = {
  rotation: [...BODY_KEYS, 'sig_old', 'sig_new'],
  revocation: [...BODY_KEYS, 'revoked_x', 'compromised_since', 'trusted_size', 'sig_new'],
};
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

function shapeProblem(t: unknown): string | undefined {
  if (typeof t !== 'object' || t === null || Array.isArray(t)) return 'not an object';
  const r = t as Record<string, unknown>;
  const fields = typeof r['kind'] === 'string' ? FIELDS[r['kind']] : undefined;
  if (r['schema'] !== KEY_TRANSITION_SCHEMA || fields === undefined)
    return 'not a svc.key-transition/1 rotation or revocation';
  for (const k of fields) if (!(k in r)) return `no ${k}`;
  const extra = Object.keys(r).filter((k) => !fields.includes(k));
  if (extra.length > 0) return `unknown field ${extra[0]}`;
  if (!Number.isInteger(r['sequence']) || (r['sequence'] as number) < 1) return 'sequence is not a whole number from 1';
  for (const k of fields.filter((f) => f !== 'sequence' && f !== 'trusted_size'))
    if (typeof r[k] !== 'string') return `${k} is not a string`;
  if (r['kind'] === 'revocation') {
    if (!Number.isInteger(r['trusted_size']) || (r['trusted_size'] as number) < 0)
      return 'trusted_size is not a whole number';
    const since = r['compromised_since'] as string;
    if (!ISO_INSTANT.test(since) || Number.isNaN(Date.parse(since)))
      return 'compromised_since is not an ISO 8601 UTC instant';
    if (Date.parse(since) > Date.parse(r['at'] as string)) return 'compromised_since is after the revocation';
  }
  return undefined;
}

/**
 * Checks `transitions` (in order) for `did` against the keys its DID document serves now
 * (`current`: fragment → x) and the log's entries (each transition's id must be logged, in order).
 */
export async function checkTransitions(
  crypto: VerifyCrypto,
  transitions: readonly unknown[],
  did: string,
  current: ReadonlyMap<string, string>,
  entries: readonly string[],
): Promise<TransitionsVerdict> {
  const at = new Map(entries.map((h, i) => [h, i]));
  const epochs = new Map<string, KeyEpoch[]>();
  const ids: string[] = [];
  const revocations: Revocation[] = [];
  let lastLeaf = -1;
  for (const [i, raw] of transitions.entries()) {
    const where = `transition ${i + 1}`;
    const problem = shapeProblem(raw);
    if (problem) return { ok: false, detail: `${where}: ${problem}` };
    const t = raw as KeyTransition;
    if (t.did !== did) return { ok: false, detail: `${where}: for ${t.did}, not ${did}` };
    const { sig_new, sig_old: _signedBy, ...body } = t as KeyTransition & { sig_old?: string };
    const bytes = utf8(canonicalJsonStrict(body));
    const oldKey = base64urlToBytes(t.old_x);
    const newKey = base64urlToBytes(t.new_x);
    const sigOld = t.kind === 'rotation' ? hexToBytes(t.sig_old) : undefined;
    const sigNew = hexToBytes(sig_new);
    if (oldKey?.length !== 32 || newKey?.length !== 32) return { ok: false, detail: `${where}: a key is not 32 bytes` };
    if (sigNew?.length !== 64 || (t.kind === 'rotation' && sigOld?.length !== 64))
      return { ok: false, detail: `${where}: a signature is not 64 bytes` };
    if (sigOld !== undefined && !(await crypto.ed25519Verify(oldKey, bytes, sigOld)))
      return {
        ok: false,
        detail: `${where} (${t.fragment} ${t.sequence}): the retired key's signature does not verify`,
      };
    if (!(await crypto.ed25519Verify(newKey, bytes, sigNew)))
      return { ok: false, detail: `${where} (${t.fragment} ${t.sequence}): the new key's signature does not verify` };
    const chain = epochs.get(t.fragment) ?? [];
    const last = chain.at(-1);
    const prior = Math.max(0, chain.length - 1);
    if (t.sequence !== prior + 1)
      return { ok: false, detail: `${where}: ${t.fragment} sequence ${t.sequence}, expected ${prior + 1}` };
    if (last !== undefined && last.x !== t.old_x)
      return { ok: false, detail: `${where}: ${t.fragment} retires ${t.old_x}, but its key then was ${last.x}` };
    const id = bytesToHex(await crypto.sha256(utf8(canonicalJsonStrict(t))));
    // A transition the log does not hold yet happened after this release (a release signed
    // before a rotation, served with the keys of now): it and every later one apply to no
    // checkpoint of this log, whose signatures are then all the earlier key's.
    const leaf = at.get(id) ?? Number.POSITIVE_INFINITY;
    if (leaf < lastLeaf)
      return {
        ok: false,
        detail:
          lastLeaf === Number.POSITIVE_INFINITY
            ? `${where} (${id.slice(0, 16)}): logged, after a transition the log does not hold`
            : `${where}: logged before the transition preceding it`,
      };
    lastLeaf = leaf;
    if (chain.length === 0) chain.push({ x: t.old_x, fromLeaf: -1 });
    if (t.kind === 'revocation') {
      if (!chain.some((e) => e.x === t.revoked_x))
        return { ok: false, detail: `${where}: revokes ${t.revoked_x}, which ${t.fragment} never had` };
      if (t.trusted_size > leaf && leaf !== Number.POSITIVE_INFINITY)
        return {
          ok: false,
          detail: `${where}: trusts ${t.trusted_size} entries, but the revocation is entry ${leaf} of the log`,
        };
      revocations.push({
        fragment: t.fragment,
        x: t.revoked_x,
        compromised_since: t.compromised_since,
        trusted_size: t.trusted_size,
        revocation: id,
      });
    }
    chain.at(-1)!.untilLeaf = leaf;
    chain.push({ x: t.new_x, transition: id, fromLeaf: leaf });
    epochs.set(t.fragment, chain);
    ids.push(id);
  }
  for (const [fragment, chain] of epochs) {
    const now = current.get(fragment);
    if (chain.at(-1)!.x !== now)
      return {
        ok: false,
        detail: `${fragment}: the transitions end at ${chain.at(-1)!.x}, but the DID document serves ${now ?? 'no key'}`,
      };
  }
  const unlogged = ids.filter((h) => !at.has(h)).length;
  return { ok: true, ids, epochs, revocations, unlogged };
}

/**
 * The DID document's keys as a release of `size` log entries was signed: each fragment's id
 * (`<did>#board-attestation-1`) maps to the key in force at that size, so a release signed
 * before a rotation is checked under the keys it was signed with (issue 30). The retired ids
 * (`~<n>`) are kept as they are.
 */
export function keysAtSize(
  keys: ReadonlyMap<string, Uint8Array>,
  did: string,
  epochs: ReadonlyMap<string, readonly KeyEpoch[]>,
  size: number,
): Map<string, Uint8Array> {
  const out = new Map(keys);
  for (const [fragment, chain] of epochs) {
    const raw = base64urlToBytes(keyAtSize(chain, size, ''));
    if (raw?.length === 32) out.set(`${did}#${fragment}`, raw);
  }
  return out;
}

/**
 * The key (JWK `x`) that signs a checkpoint of `size` leaves: the one whose transition is the
 * last logged before that size (a checkpoint covering a transition's leaf is the new key's).
 * `fallback`: the fragment's key when it never changed.
 */
export function keyAtSize(epochs: readonly KeyEpoch[] | undefined, size: number, fallback: string): string {
  if (epochs === undefined || epochs.length === 0) return fallback;
  let x = epochs[0]!.x;
  for (const e of epochs) if (e.fromLeaf < size) x = e.x;
  return x;
}
