/**
 * Following a DID's key transitions (issues 30 and 36), browser-safe: every record is checked
 * (its signatures over the RFC 8785 body, the DID, one unbroken sequence per key whose old key
 * is the previous new key, and a last new key that is the key the DID document serves now), and
 * the log says where each transition happened, so a checkpoint is checked under the board key
 * that was in force at its size. Who may change a key (issue 36, after TUF's root role):
 * - a rotation: the retired key and the new key, both;
 * - a revocation: the identity root in force at that point (`root_x`, `sig_root`) and the new key;
 *   a stolen online key or a copy of the public files cannot make one;
 * - a rotation of the identity root: the old root and the new root;
 * - a revocation written before the root existed (issue 30: the new key only) counts only when a
 *   later adoption record, signed by the root, endorses it (`gspc keys migrate`).
 * Whether the keys this walk ends at are the DID's is a separate question: key-anchor.ts.
 */
import { canonicalJsonStrict } from '../crypto/canonical-json.js';
import { base64urlToBytes, bytesToHex, hexToBytes, utf8, type VerifyCrypto } from '../crypto/verify-crypto.js';
import { KEY_TRANSITION_SCHEMA } from '../evidence/key-transition-schema.js';
import type { Revocation } from './revocation.js';

const ROOT = 'identity-root';

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
  /**
   * For a key that a revocation made current: the identity root that authorised it (the
   * revocation's signer, or the root of the adoption that endorsed an issue-30 revocation).
   */
  authorisedBy?: string;
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
/** The fields of each kind (and the issue-30 revocation, told apart by having no `sig_root`). */
const FIELDS: Record<string, readonly string[]> = {
  rotation: [...BODY_KEYS, 'sig_old', 'sig_new'],
  revocation: [
    ...BODY_KEYS,
    'revoked_x',
    'compromised_since',
    'trusted_size',
    'trusted_root',
    'root_x',
    'sig_root',
    'sig_new',
  ],
  legacy: [...BODY_KEYS, 'revoked_x', 'compromised_since', 'trusted_size', 'sig_new'],
  adoption: ['schema', 'did', 'fragment', 'kind', 'root_x', 'endorses', 'at', 'sig_root'],
};
const NOT_STRINGS = new Set(['sequence', 'trusted_size', 'endorses']);
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const HEX64 = /^[0-9a-f]{64}$/;

type Rec = Record<string, unknown>;

function variantOf(r: Rec): string | undefined {
  if (r['kind'] === 'revocation') return 'sig_root' in r || 'root_x' in r ? 'revocation' : 'legacy';
  return typeof r['kind'] === 'string' && r['kind'] in FIELDS && r['kind'] !== 'legacy' ? r['kind'] : undefined;
}

function shapeProblem(t: unknown): string | undefined {
  if (typeof t !== 'object' || t === null || Array.isArray(t)) return 'not an object';
  const r = t as Rec;
  const variant = variantOf(r);
  const fields = variant === undefined ? undefined : FIELDS[variant];
  if (r['schema'] !== KEY_TRANSITION_SCHEMA || fields === undefined)
    return 'not a svc.key-transition/1 rotation, revocation or adoption';
  for (const k of fields) if (!(k in r)) return `no ${k}`;
  const extra = Object.keys(r).filter((k) => !fields.includes(k));
  if (extra.length > 0) return `unknown field ${extra[0]}`;
  if (variant !== 'adoption' && (!Number.isInteger(r['sequence']) || (r['sequence'] as number) < 1))
    return 'sequence is not a whole number from 1';
  for (const k of fields.filter((f) => !NOT_STRINGS.has(f)))
    if (typeof r[k] !== 'string') return `${k} is not a string`;
  if (variant === 'adoption') {
    if (r['fragment'] !== ROOT) return `an adoption is the ${ROOT}'s, not ${String(r['fragment'])}'s`;
    const e = r['endorses'];
    if (!Array.isArray(e) || !e.every((h) => typeof h === 'string' && HEX64.test(h)))
      return 'endorses is not a list of transition ids';
  }
  if (variant === 'revocation' || variant === 'legacy') {
    if (r['fragment'] === ROOT)
      return `the ${ROOT} is not revoked: it is rotated by the old and the new root (docs/threat-model.md)`;
    if (!Number.isInteger(r['trusted_size']) || (r['trusted_size'] as number) < 0)
      return 'trusted_size is not a whole number';
    const since = r['compromised_since'] as string;
    if (!ISO_INSTANT.test(since) || Number.isNaN(Date.parse(since)))
      return 'compromised_since is not an ISO 8601 UTC instant';
    if (Date.parse(since) > Date.parse(r['at'] as string)) return 'compromised_since is after the revocation';
    if (variant === 'revocation' && !HEX64.test(r['trusted_root'] as string))
      return 'trusted_root is not the hex RFC 6962 root of the trusted log';
  }
  return undefined;
}

const key32 = (x: unknown): Uint8Array | undefined => {
  const k = typeof x === 'string' ? base64urlToBytes(x) : undefined;
  return k?.length === 32 ? k : undefined;
};
const sig64 = (h: unknown): Uint8Array | undefined => {
  const s = typeof h === 'string' ? hexToBytes(h) : undefined;
  return s?.length === 64 ? s : undefined;
};

/**
 * Checks `transitions` (in order) for `did` against the keys its DID document serves now
 * (`current`: fragment → x) and the log's entries (each transition's id must be logged, in
 * order): every entry, or a map from entry to leaf index holding at least every logged
 * transition (a monitor reading tiles knows only those, decision MT3). `root`: the identity root the DID document serves now (JWK `x`), which the root's
 * rotations, walked back, start from; a revocation needs it.
 */
export async function checkTransitions(
  crypto: VerifyCrypto,
  transitions: readonly unknown[],
  did: string,
  current: ReadonlyMap<string, string>,
  entries: readonly string[] | ReadonlyMap<string, number>,
  root?: string,
): Promise<TransitionsVerdict> {
  const at: ReadonlyMap<string, number> = Array.isArray(entries)
    ? new Map((entries as readonly string[]).map((h, i) => [h, i]))
    : (entries as ReadonlyMap<string, number>);
  const epochs = new Map<string, KeyEpoch[]>();
  const ids: string[] = [];
  const revocations: Revocation[] = [];
  /** Issue-30 revocations not (yet) endorsed by an adoption: id → where, and the epoch they made. */
  const unendorsed = new Map<string, { where: string; epoch: KeyEpoch }>();
  // The root in force at the start: the first root rotation's old key, or the root of now.
  const firstRootRotation = transitions.find(
    (t) => (t as Rec | null)?.['fragment'] === ROOT && (t as Rec)['kind'] === 'rotation',
  ) as Rec | undefined;
  let rootNow = typeof firstRootRotation?.['old_x'] === 'string' ? (firstRootRotation['old_x'] as string) : root;
  let lastLeaf = -1;
  for (const [i, raw] of transitions.entries()) {
    const where = `transition ${i + 1}`;
    const problem = shapeProblem(raw);
    if (problem) return { ok: false, detail: `${where}: ${problem}` };
    const t = raw as Rec;
    if (t['did'] !== did) return { ok: false, detail: `${where}: for ${String(t['did'])}, not ${did}` };
    const { sig_new, sig_old, sig_root, ...body } = t;
    const bytes = utf8(canonicalJsonStrict(body));
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
    const rootSigned = async (): Promise<string | undefined> => {
      if (rootNow === undefined) return `${where}: signed by an identity root, but the DID document lists no #${ROOT}`;
      if (t['root_x'] !== rootNow)
        return `${where}: signed by the root ${String(t['root_x'])}, but the ${ROOT} in force then is ${rootNow}`;
      const k = key32(rootNow);
      const s = sig64(sig_root);
      if (k === undefined || s === undefined) return `${where}: a root key or signature has the wrong length`;
      return (await crypto.ed25519Verify(k, bytes, s))
        ? undefined
        : `${where}: the identity root's signature does not verify`;
    };
    if (t['kind'] === 'adoption') {
      const bad = await rootSigned();
      if (bad) return { ok: false, detail: bad };
      for (const e of t['endorses'] as string[]) {
        const pending = unendorsed.get(e);
        if (pending === undefined && !ids.includes(e))
          return { ok: false, detail: `${where}: endorses ${e.slice(0, 16)}, which is no earlier transition` };
        if (pending && rootNow !== undefined) pending.epoch.authorisedBy = rootNow;
        unendorsed.delete(e);
      }
      ids.push(id);
      continue;
    }
    const fragment = t['fragment'] as string;
    const label = `${where} (${fragment} ${String(t['sequence'])})`;
    const oldKey = key32(t['old_x']);
    const newKey = key32(t['new_x']);
    if (oldKey === undefined || newKey === undefined) return { ok: false, detail: `${where}: a key is not 32 bytes` };
    const sigNew = sig64(sig_new);
    const sigOld = t['kind'] === 'rotation' ? sig64(sig_old) : undefined;
    if (sigNew === undefined || (t['kind'] === 'rotation' && sigOld === undefined))
      return { ok: false, detail: `${where}: a signature is not 64 bytes` };
    if (sigOld !== undefined && !(await crypto.ed25519Verify(oldKey, bytes, sigOld)))
      return { ok: false, detail: `${label}: the retired key's signature does not verify` };
    if (!(await crypto.ed25519Verify(newKey, bytes, sigNew)))
      return { ok: false, detail: `${label}: the new key's signature does not verify` };
    const legacy = t['kind'] === 'revocation' && !('sig_root' in t);
    if (t['kind'] === 'revocation' && !legacy) {
      const bad = await rootSigned();
      if (bad) return { ok: false, detail: bad };
    }
    const chain = epochs.get(fragment) ?? [];
    const last = chain.at(-1);
    const prior = Math.max(0, chain.length - 1);
    if (t['sequence'] !== prior + 1)
      return { ok: false, detail: `${where}: ${fragment} sequence ${String(t['sequence'])}, expected ${prior + 1}` };
    if (last !== undefined && last.x !== t['old_x'])
      return {
        ok: false,
        detail: `${where}: ${fragment} retires ${String(t['old_x'])}, but its key then was ${last.x}`,
      };
    if (chain.length === 0) chain.push({ x: t['old_x'] as string, fromLeaf: -1 });
    if (t['kind'] === 'revocation') {
      if (!chain.some((e) => e.x === t['revoked_x']))
        return { ok: false, detail: `${where}: revokes ${String(t['revoked_x'])}, which ${fragment} never had` };
      const trusted = t['trusted_size'] as number;
      if (trusted > leaf && leaf !== Number.POSITIVE_INFINITY)
        return {
          ok: false,
          detail: `${where}: trusts ${trusted} entries, but the revocation is entry ${leaf} of the log`,
        };
      revocations.push({
        fragment,
        x: t['revoked_x'] as string,
        compromised_since: t['compromised_since'] as string,
        trusted_size: trusted,
        ...(typeof t['trusted_root'] === 'string' && { trusted_root: t['trusted_root'] }),
        revocation: id,
      });
    }
    chain.at(-1)!.untilLeaf = leaf;
    const epoch: KeyEpoch = { x: t['new_x'] as string, transition: id, fromLeaf: leaf };
    if (t['kind'] === 'revocation' && !legacy && rootNow !== undefined) epoch.authorisedBy = rootNow;
    if (legacy) unendorsed.set(id, { where: label, epoch });
    chain.push(epoch);
    epochs.set(fragment, chain);
    if (fragment === ROOT) rootNow = t['new_x'] as string;
    ids.push(id);
  }
  const [first] = unendorsed.values();
  if (first)
    return {
      ok: false,
      detail: `${first.where}: a revocation signed by its new key only (the issue-30 format), which no adoption by the ${ROOT} endorses: the operator runs gspc keys migrate with the root key`,
    };
  for (const [fragment, chain] of epochs) {
    const now = fragment === ROOT ? (current.get(ROOT) ?? root) : current.get(fragment);
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
