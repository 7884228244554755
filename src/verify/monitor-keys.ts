/**
 * The monitor's judgement of keys (issue 36). A view's own DID document proves nothing about
 * whose keys it holds: an impostor serves the origin's DID with keys of its own, and every
 * signature checks out under them. So each poll the keys each view serves are compared with
 * - the DID's host (the did:web resolution, fetched apart from every view): a view must serve
 *   the host's keys or an earlier state of the same history (`key_mismatch`, naming the view);
 * - the keys this monitor pinned after its last clean poll: a view, or the host itself, must
 *   serve them, an earlier state of them, or keys reached from them by transitions the rules
 *   accept (`key_changed_without_transition`), so even a taken DID host is noticed;
 * - each other, when the host could not be read: two views of which neither is an earlier
 *   state of the other are a `key_mismatch`.
 * The rules of "earlier state" and "reached" are core's, the same as `gspc verify` applies
 * (src/core/verify/key-anchor.ts).
 */
import type { Alert } from '../core/monitor/log-watch.js';
import type { PinnedKeys } from '../core/monitor/monitor-state.js';
import { agreesWithHost, anchoredSince, type KeyHistory } from '../core/verify/key-anchor.js';
import type { KeyEpoch } from '../core/verify/key-transitions.js';

const ROOT = 'identity-root';

/** The keys one view (or the DID's host) serves, with their verified history. */
export interface ServedKeys {
  /** The view's URL, or the URL of the DID's host's DID document. */
  where: string;
  did: string;
  /** Every verification method, by id (current, retired `~<n>`, `#identity-root`): JWK `x`. */
  methods: ReadonlyMap<string, string>;
  history: KeyHistory;
}

/** A DID document's methods (id → x) and its verified transitions, as the monitor compares them. */
export function servedKeys(
  where: string,
  did: string,
  methods: ReadonlyMap<string, string>,
  walk: { ids: readonly string[]; epochs: ReadonlyMap<string, readonly KeyEpoch[]> },
): ServedKeys {
  return { where, did, methods, history: { ids: walk.ids, epochs: walk.epochs, current: currentOf(did, methods) } };
}

/** fragment → x of the methods that are the DID's current keys (not the retired `~<n>` ones). */
export function currentOf(did: string, methods: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, x] of methods)
    if (id.startsWith(`${did}#`) && !id.includes('~')) out.set(id.slice(did.length + 1), x);
  return out;
}

/** What the state keeps of keys a clean poll verified. */
export function pinOf(keys: ServedKeys): PinnedKeys {
  return {
    methods: Object.fromEntries(keys.methods),
    transitions: [...keys.history.ids],
    chains: Object.fromEntries(
      [...keys.history.epochs].map(([f, chain]) => [
        f,
        chain.map((e) => ({ x: e.x, ...(e.transition !== undefined && { transition: e.transition }) })),
      ]),
    ),
  };
}

/**
 * The pinned keys as a history key-anchor.ts compares with. A state written before keys were
 * pinned knows only the board key its last checkpoint was verified under.
 */
export function pinnedHistory(
  did: string | undefined,
  pinned: PinnedKeys | undefined,
  legacyBoardKey: string | undefined,
): KeyHistory | undefined {
  if (pinned !== undefined && did !== undefined)
    return {
      ids: pinned.transitions,
      epochs: new Map(
        Object.entries(pinned.chains).map(([f, chain]) => [
          f,
          chain.map((e, i) => ({
            x: e.x,
            fromLeaf: i - 1,
            ...(e.transition !== undefined && { transition: e.transition }),
          })),
        ]),
      ),
      current: currentOf(did, new Map(Object.entries(pinned.methods))),
    };
  if (legacyBoardKey !== undefined)
    return { ids: [], epochs: new Map(), current: new Map([['board-attestation-1', legacyBoardKey]]) };
  return undefined;
}

/** The first retired method (`~<n>`) both list with different keys: history rewritten. */
function retiredDiffers(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): string | undefined {
  for (const [id, x] of a) if (id.includes('~') && b.has(id) && b.get(id) !== x) return id;
  return undefined;
}

/**
 * Whether `served` is the pinned history, reached from it by accepted changes, or (for a view,
 * not the DID's host: the host going back to keys it had replaced would be a key rollback) an
 * earlier state of it.
 */
function againstPins(
  served: ServedKeys,
  pinned: KeyHistory,
  pinnedMethods: ReadonlyMap<string, string>,
  mayLag: boolean,
): string | undefined {
  const rewritten = retiredDiffers(served.methods, pinnedMethods);
  if (rewritten !== undefined) return `${rewritten} is not the key this monitor pinned for it`;
  const dropped = [...pinned.current.keys()].find((f) => !served.history.current.has(f));
  if (dropped !== undefined) return `it no longer lists #${dropped}, which this monitor pinned`;
  if (!mayLag && served.history.ids.length < pinned.ids.length)
    return `it has ${served.history.ids.length} key transitions, fewer than the ${pinned.ids.length} pinned: the DID's host went back to keys it had replaced`;
  if (agreesWithHost(served.history, pinned).ok) return undefined;
  const trusted = new Map([...pinned.current].map(([f, x]) => [f, new Set([x])]));
  // A root the monitor never saw (one added after it pinned) is learnt from the DID's host, not required here.
  const required = [...served.history.current.keys()].filter((f) => f !== ROOT || pinned.current.has(ROOT));
  const reached = anchoredSince(served.history, trusted, required);
  return reached.ok ? undefined : reached.detail;
}

/** Where two views' keys part: a key they list differently, else their key transitions. */
function firstDifference(a: ServedKeys, b: ServedKeys): string {
  const retired = retiredDiffers(a.methods, b.methods);
  if (retired !== undefined)
    return `${retired} is ${a.methods.get(retired)} in one, ${b.methods.get(retired)} in the other`;
  for (const [f, x] of a.history.current)
    if (b.history.current.get(f) !== x)
      return `#${f} is ${x} in one, ${b.history.current.get(f) ?? 'absent'} in the other`;
  return `their key transitions differ (${a.history.ids.length} and ${b.history.ids.length})`;
}

export interface KeyJudgement {
  /** The board's DID: the one the state pinned, else the one the first view names. */
  did: string;
  /** The DID's host, when it answered a usable DID document. */
  host: ServedKeys | undefined;
  pinned: KeyHistory | undefined;
  pinnedMethods: ReadonlyMap<string, string>;
  views: readonly ServedKeys[];
}

export function judgeKeys(j: KeyJudgement): Alert[] {
  const alerts: Alert[] = [];
  const mine = j.views.filter((v) => {
    if (v.did === j.did) return true;
    alerts.push({
      alert: 'key_mismatch',
      view: v.where,
      detail: `its DID document is ${v.did}'s, not the board's ${j.did}`,
    });
    return false;
  });
  if (j.host !== undefined)
    for (const v of mine) {
      const rewritten = retiredDiffers(v.methods, j.host.methods);
      const agrees = agreesWithHost(v.history, j.host.history);
      if (rewritten !== undefined || !agrees.ok)
        alerts.push({
          alert: 'key_mismatch',
          view: v.where,
          detail: `its keys are not the DID's host's (${j.host.where}): ${rewritten !== undefined ? `${rewritten} differs` : agrees.detail}`,
        });
    }
  else
    for (const [i, a] of mine.entries())
      for (const b of mine.slice(i + 1))
        if (
          retiredDiffers(a.methods, b.methods) !== undefined ||
          !(agreesWithHost(a.history, b.history).ok || agreesWithHost(b.history, a.history).ok)
        )
          alerts.push({
            alert: 'key_mismatch',
            view: `${a.where} | ${b.where}`,
            detail: `their DID documents disagree, and neither is an earlier state of the other: ${firstDifference(a, b)}`,
          });
  if (j.pinned !== undefined)
    for (const served of [...(j.host === undefined ? [] : [j.host]), ...mine]) {
      const problem = againstPins(served, j.pinned, j.pinnedMethods, served !== j.host);
      if (problem !== undefined)
        alerts.push({
          alert: 'key_changed_without_transition',
          view: served.where,
          detail: `its keys are not the ones this monitor pinned, nor reached from them by an accepted key change: ${problem}`,
        });
    }
  return alerts;
}
