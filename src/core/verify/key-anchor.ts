/**
 * Where a verifier's keys come from (issue 36), browser-safe. The keys a view serves prove
 * nothing by themselves: an impostor with keys of its own serves a DID document naming the
 * origin's DID, and every signature checks out under it. So the keys are anchored outside the
 * view, in one of two ways:
 *
 * - **The DID's host** (`agreesWithHost`): the did:web method says the DID document is the one
 *   its host serves. That document and its key transitions say what the keys are now; a view
 *   (a replica, a mirror that lags) may serve an earlier state of the same history, never a
 *   state the host does not have (a key it never had, or a change it never made).
 * - **A reader's own anchor** (`anchoredSince`): keys the reader trusted before (a DID document
 *   they saved, a key they were given, a monitor's pinned state). The view's keys must be those
 *   keys, or be reached from them by transitions the rules of key-transitions.ts accept; a key
 *   made current by a revocation must have been authorised by an identity root the anchor
 *   trusts (or one reached from it by root rotations), so a stolen online key or a copy of the
 *   public files cannot carry the reader to keys of its own.
 */
import type { KeyEpoch } from './key-transitions.js';

export type AnchorVerdict = { ok: true; detail: string } | { ok: false; detail: string };

const ROOT = 'identity-root';

/** A verified walk of transitions, with the keys it ends at. */
export interface KeyHistory {
  /** The transition ids, in order. */
  ids: readonly string[];
  epochs: ReadonlyMap<string, readonly KeyEpoch[]>;
  /** fragment → the key (JWK `x`) the DID document serves now. */
  current: ReadonlyMap<string, string>;
}

/** The key of `fragment` after the first `k` transitions of a history. */
function keyAfter(history: KeyHistory, fragment: string, k: number): string | undefined {
  const chain = history.epochs.get(fragment);
  if (chain === undefined || chain.length === 0) return history.current.get(fragment);
  const first = new Set(history.ids.slice(0, k));
  let x = chain[0]!.x;
  for (const e of chain) if (e.transition !== undefined && first.has(e.transition)) x = e.x;
  return x;
}

/**
 * A view against its DID's host: the view's transitions are the first of the host's, in order,
 * and each key the view serves is the host's key after them. Equal histories are the usual case
 * (the origin itself, an up-to-date replica); a shorter one is a view that has not caught up.
 */
export function agreesWithHost(view: KeyHistory, host: KeyHistory): AnchorVerdict {
  const k = view.ids.length;
  const diverges = view.ids.findIndex((id, i) => i < host.ids.length && host.ids[i] !== id);
  if (diverges >= 0)
    return {
      ok: false,
      detail: `the view's key transition ${diverges + 1} (${view.ids[diverges]!.slice(0, 16)}) is not the DID's host's`,
    };
  if (k > host.ids.length)
    return {
      ok: false,
      detail: `the view has ${k} key transitions, the DID's host ${host.ids.length}: the view changed keys the host never changed`,
    };
  const fragments = new Set([...view.current.keys(), ...host.current.keys()]);
  // A view that serves no identity root predates it (copied before the host ran gspc keys
  // migrate): the root signs nothing a view serves, and the view's key changes are the host's.
  if (!view.current.has(ROOT)) fragments.delete(ROOT);
  for (const f of fragments) {
    const expected = keyAfter(host, f, k);
    const served = view.current.get(f);
    if (served !== expected)
      return {
        ok: false,
        detail: `#${f}: the view serves ${served ?? 'no key'}, the DID's host ${expected ?? 'no key'}${k < host.ids.length ? ` after the ${k} transitions the view holds` : ''}`,
      };
  }
  return {
    ok: true,
    detail:
      k === host.ids.length
        ? `the same keys and ${k} key transitions as the DID's host`
        : `the DID's host's keys as they were ${host.ids.length - k} key transitions ago (the view lags)`,
  };
}

/**
 * A view against keys a reader trusted before (fragment → trusted keys, JWK `x`): every
 * fragment the view serves has a trusted key in its walk, and every key after it was reached
 * by a rotation its predecessor signed, or by a revocation an identity root signed that is the
 * trusted root or one the root's own rotations reached from it. Keys before the trusted one are
 * history the trusted key's transitions vouch for.
 */
export function anchoredSince(
  view: KeyHistory,
  trusted: ReadonlyMap<string, ReadonlySet<string>>,
  /** The fragments that must be anchored (the signing keys); the root is checked when a revocation needs it. */
  required: readonly string[],
): AnchorVerdict {
  const walk = (f: string): readonly KeyEpoch[] => {
    const chain = view.epochs.get(f);
    if (chain !== undefined && chain.length > 0) return chain;
    const x = view.current.get(f);
    return x === undefined ? [] : [{ x, fromLeaf: -1 }];
  };
  const trustedIndex = (f: string): number => {
    const keys = trusted.get(f);
    const chain = walk(f);
    for (let i = chain.length - 1; i >= 0; i--) if (keys?.has(chain[i]!.x)) return i;
    return -1;
  };
  const roots = walk(ROOT);
  const rootFrom = trustedIndex(ROOT);
  const notes: string[] = [];
  for (const f of required) {
    const chain = walk(f);
    if (chain.length === 0) continue;
    const from = trustedIndex(f);
    if (from < 0)
      return {
        ok: false,
        detail: `#${f}: none of its keys (${chain.map((e) => e.x).join(', ')}) is one the anchor trusts`,
      };
    for (const e of chain.slice(from + 1)) {
      if (e.authorisedBy === undefined) continue;
      const at = roots.findIndex((r) => r.x === e.authorisedBy);
      if (rootFrom < 0 || at < rootFrom)
        return {
          ok: false,
          detail: `#${f}: its key ${e.x} was made current by a revocation the anchor cannot vouch for (signed by the root ${e.authorisedBy}, ${rootFrom < 0 ? 'and the anchor trusts no identity root' : 'which the trusted root did not lead to'})`,
        };
    }
    if (from < chain.length - 1) notes.push(`#${f} reached by ${chain.length - 1 - from} key change(s)`);
  }
  return {
    ok: true,
    detail: notes.length === 0 ? 'the keys the anchor trusts' : `from the keys the anchor trusts: ${notes.join(', ')}`,
  };
}

/** RFC 7638 thumbprint input of an Ed25519 key (JWK `x`): hash it with SHA-256 and base64url it. */
export const thumbprintInput = (x: string): string => `{"crv":"Ed25519","kty":"OKP","x":"${x}"}`;
