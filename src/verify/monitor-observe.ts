/**
 * One view of a board as `gspc monitor` polls it (issue 31): its DID document's keys, its
 * signed checkpoint (checked under the key in force at its size, following logged key
 * transitions), and its entries, from which the monitor recomputes every root it compares, so
 * nothing but the signature is taken on the server's word. When the view serves an RFC 9162
 * consistency proof from the size the monitor last verified, that proof must hold too.
 * Every document is read within the view's limits and checked for its shape before use (issue
 * 36): a hostile answer is a `ViewFault` for this view, caught by the caller.
 */
import { logLeaves, logOrigin } from '../core/evidence/card-log.js';
import { MerkleTree } from '../core/evidence/merkle/merkle-tree.js';
import { verifyConsistency } from '../core/evidence/merkle/rfc6962-verify.js';
import type { WitnessPolicy } from '../core/evidence/note/witness-policy.js';
import { BOARD_KEY } from '../core/evidence/signer.js';
import type { AlertKind, SeenCheckpoint, ViewObservation } from '../core/monitor/log-watch.js';
import { keyAtSize } from '../core/verify/key-transitions.js';
import { verifyCheckpointNote } from '../core/verify/log-proof.js';
import { readDidDocument, readTransitions, walkKeys } from './monitor-did.js';
import { boundedGet, CAP, DEFAULT_LIMITS, entriesCap, expect, parseJson, type BoundedGet } from './monitor-fetch.js';
import { type ServedKeys, servedKeys } from './monitor-keys.js';
import { nodeVerifyCrypto } from './node-crypto.js';
import { judgeWitnessPolicy } from './witness-policy-check.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const HEX64 = /^[0-9a-f]{64}$/;

/** An observation, with what the later judgements need: the DID it names and the keys it serves. */
export interface ObservedView extends ViewObservation {
  /** The signed note and the tree it was verified from (sent to witnesses as seen). */
  seen?: { note: string; tree: MerkleTree };
  /** The DID the view's DID document names, when it could be read. */
  did?: string;
  /** The view's keys and their verified history, when its transitions hold. */
  keys?: ServedKeys;
}

/** A view that could not be judged, with the alert that says why. */
export const blindView = (
  view: string,
  alert: AlertKind,
  detail: string,
  extra: Partial<ObservedView> = {},
): ObservedView => ({
  view,
  problem: { alert, detail },
  holdsPrefix: () => false,
  ...extra,
});

async function readEntries(get: BoundedGet, size: number): Promise<string[]> {
  const path = '/log/entries.json';
  const bytes = await get(path, entriesCap(size));
  if (bytes === undefined) return [];
  const doc = parseJson(bytes, path) as { entries?: unknown } | null;
  expect(typeof doc === 'object' && doc !== null && Array.isArray(doc.entries), path, 'has no entries list');
  const entries = doc.entries as unknown[];
  expect(
    entries.every((e) => typeof e === 'string' && HEX64.test(e)),
    path,
    'has an entry that is not a SHA-256 (64 hex digits)',
  );
  return entries as string[];
}

/** `get`: the view's reader within the poll's limits (by default, the default limits and no budget). */
export async function observeView(
  view: string,
  last: SeenCheckpoint | undefined,
  policy?: { policy: WitnessPolicy; now: Date },
  get: BoundedGet = boundedGet(view, DEFAULT_LIMITS, new AbortController().signal),
): Promise<ObservedView> {
  const read = await readDidDocument(get);
  if (read === undefined) return blindView(view, 'checkpoint_invalid', 'no DID document (/.well-known/did.json)');
  const named = { did: read.did };
  const boardKey = read.current.get(BOARD_KEY);
  if (boardKey === undefined)
    return blindView(view, 'checkpoint_invalid', 'the DID document names no board key', named);
  const transitions = await readTransitions(get);
  const noteBytes = await get('/log/checkpoint', CAP.checkpoint);
  if (noteBytes === undefined) return blindView(view, 'checkpoint_invalid', 'no /log/checkpoint', named);
  const note = noteBytes.toString('utf8');
  const entries = await readEntries(get, Number(note.split('\n')[1]));
  const walk = await walkKeys(read, transitions, entries);
  if (!walk.ok) return blindView(view, 'checkpoint_invalid', `the key transitions do not hold: ${walk.detail}`, named);
  const withKeys = { ...named, keys: servedKeys(view, read.did, read.methods, walk) };
  const size = Number(note.split('\n')[1]);
  const signer = Buffer.from(keyAtSize(walk.epochs.get(BOARD_KEY), size, boardKey), 'base64url');
  const opened = await verifyCheckpointNote(nodeVerifyCrypto, note, logOrigin(read.did), signer);
  if (!opened.ok) return blindView(view, 'checkpoint_invalid', opened.detail, withKeys);
  // One tree per view: a prefix is checked with the tree's own RFC 9162 consistency proof from
  // that size (O(log n) once the tree is built), not by hashing the prefix again.
  const tree = new MerkleTree(logLeaves(entries));
  if (opened.size !== entries.length || hex(tree.root()) !== opened.rootHex)
    return blindView(
      view,
      'entries_rewritten',
      `/log/entries.json (${entries.length} entries) does not give the root the checkpoint signs at size ${opened.size}`,
      withKeys,
    );
  const observation: ObservedView = {
    view,
    ...withKeys,
    seen: { note, tree },
    checkpoint: { size: opened.size, root: opened.rootHex, boardKey },
    holdsPrefix: (n, root) =>
      n >= 1 &&
      n <= tree.size &&
      verifyConsistency(n, tree.size, tree.consistencyProof(n), Buffer.from(root, 'hex'), tree.root()).ok,
  };
  if (policy !== undefined) {
    const quorum = judgeWitnessPolicy(note, policy.policy, policy.now);
    if (!quorum.ok) return { ...observation, problem: { alert: 'witness_quorum', detail: quorum.detail } };
  }
  if (last !== undefined && opened.size > last.size) {
    // The view's own RFC 9162 proof from the size this monitor verified, when it serves one (a
    // static mirror does not: the prefix check against its entries is then the whole check).
    const path = `/log/consistency?from=${last.size}`;
    const bytes = await get(path, CAP.consistency).catch(() => undefined);
    const p = bytes === undefined ? undefined : (parseJson(bytes, path) as { proof?: unknown } | null);
    if (p?.proof !== undefined) {
      const proof = p.proof;
      expect(
        Array.isArray(proof) && proof.every((h) => typeof h === 'string' && HEX64.test(h)),
        path,
        'has a proof that is not a list of hashes',
      );
      const holds = verifyConsistency(
        last.size,
        opened.size,
        proof.map((h) => Buffer.from(h as string, 'hex')),
        Buffer.from(last.root, 'hex'),
        Buffer.from(opened.rootHex, 'hex'),
      ).ok;
      if (!holds)
        return {
          ...observation,
          problem: { alert: 'fork', detail: `its consistency proof from size ${last.size} does not hold` },
        };
    }
  }
  return observation;
}
