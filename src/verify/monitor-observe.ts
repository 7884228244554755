/**
 * One view of a board as `gspc monitor` polls it (issue 31): its DID document's board key, its
 * signed checkpoint (checked under the key in force at its size, following logged key
 * transitions), and its entries, from which the monitor recomputes every root it compares, so
 * nothing but the signature is taken on the server's word. When the view serves an RFC 9162
 * consistency proof from the size the monitor last verified, that proof must hold too.
 */
import { logLeaves, logOrigin } from '../core/evidence/card-log.js';
import { transitionId, type KeyTransition } from '../core/evidence/key-transition.js';
import { MerkleTree } from '../core/evidence/merkle/merkle-tree.js';
import { verifyConsistency } from '../core/evidence/merkle/rfc6962-verify.js';
import type { SeenCheckpoint, ViewObservation } from '../core/monitor/log-watch.js';
import { BOARD_KEY } from '../core/evidence/signer.js';
import { checkTransitions, keyAtSize } from '../core/verify/key-transitions.js';
import { verifyCheckpointNote } from '../core/verify/log-proof.js';
import { nodeVerifyCrypto } from './node-crypto.js';
import type { WitnessPolicy } from '../core/evidence/note/witness-policy.js';
import { judgeWitnessPolicy } from './witness-policy-check.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

async function getText(url: string): Promise<string | undefined> {
  const r = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (r.status === 404) {
    await r.arrayBuffer();
    return undefined;
  }
  if (!r.ok) throw new Error(`GET ${new URL(url).pathname}: HTTP ${r.status}`);
  return r.text();
}

/** An observation, with the signed note and the tree it was verified from (sent to witnesses as seen). */
export interface ObservedView extends ViewObservation {
  seen?: { note: string; tree: MerkleTree };
}

export async function observeView(
  view: string,
  last: SeenCheckpoint | undefined,
  policy?: { policy: WitnessPolicy; now: Date },
): Promise<ObservedView> {
  const base = view.replace(/\/$/, '');
  const blind = (
    alert: 'unreachable' | 'checkpoint_invalid' | 'entries_rewritten',
    detail: string,
  ): ViewObservation => ({
    view,
    problem: { alert, detail },
    holdsPrefix: () => false,
    transitionTo: () => false,
  });
  let did: { id?: string; verificationMethod?: { id?: string; publicKeyJwk?: { x?: string }; retired?: unknown }[] };
  let note: string | undefined;
  let entries: string[];
  let transitions: KeyTransition[] = [];
  try {
    did = JSON.parse((await getText(`${base}/.well-known/did.json`)) ?? '{}');
    note = await getText(`${base}/log/checkpoint`);
    entries = (JSON.parse((await getText(`${base}/log/entries.json`)) ?? '{}') as { entries?: string[] }).entries ?? [];
    if (did.verificationMethod?.some((m) => m.retired !== undefined))
      transitions =
        (JSON.parse((await getText(`${base}/keys/transitions.json`)) ?? '{}') as { transitions?: KeyTransition[] })
          .transitions ?? [];
  } catch (e) {
    return blind('unreachable', e instanceof Error ? e.message : String(e));
  }
  const boardKey = did.verificationMethod?.find((m) => m.id === `${did.id}#${BOARD_KEY}`)?.publicKeyJwk?.x;
  if (typeof did.id !== 'string' || boardKey === undefined)
    return blind('checkpoint_invalid', 'the DID document names no board key');
  if (note === undefined) return blind('checkpoint_invalid', 'no /log/checkpoint');
  const logged = new Set(entries);
  const current = new Map<string, string>([[BOARD_KEY, boardKey]]);
  const walk = await checkTransitions(
    nodeVerifyCrypto,
    transitions.filter((t) => t.fragment === BOARD_KEY),
    did.id,
    current,
    entries,
  );
  if (!walk.ok) return blind('checkpoint_invalid', `the key transitions do not hold: ${walk.detail}`);
  const size = Number(note.split('\n')[1]);
  const signer = Buffer.from(keyAtSize(walk.epochs.get(BOARD_KEY), size, boardKey), 'base64url');
  const opened = await verifyCheckpointNote(nodeVerifyCrypto, note, logOrigin(did.id), signer);
  if (!opened.ok) return blind('checkpoint_invalid', opened.detail);
  // One tree per view: a prefix is checked with the tree's own RFC 9162 consistency proof from
  // that size (O(log n) once the tree is built), not by hashing the prefix again.
  const tree = new MerkleTree(logLeaves(entries));
  if (opened.size !== entries.length || hex(tree.root()) !== opened.rootHex)
    return blind(
      'entries_rewritten',
      `/log/entries.json (${entries.length} entries) does not give the root the checkpoint signs at size ${opened.size}`,
    );
  const observation: ObservedView = {
    view,
    seen: { note, tree },
    checkpoint: { size: opened.size, root: opened.rootHex, boardKey },
    holdsPrefix: (n, root) =>
      n >= 1 &&
      n <= tree.size &&
      verifyConsistency(n, tree.size, tree.consistencyProof(n), Buffer.from(root, 'hex'), tree.root()).ok,
    transitionTo: (x) => transitions.some((t) => t.new_x === x && logged.has(transitionId(t))),
  };
  if (policy !== undefined) {
    const quorum = judgeWitnessPolicy(note, policy.policy, policy.now);
    if (!quorum.ok) return { ...observation, problem: { alert: 'witness_quorum', detail: quorum.detail } };
  }
  if (last !== undefined && opened.size > last.size) {
    // The view's own RFC 9162 proof from the size this monitor verified, when it serves one (a
    // static mirror does not: the prefix check against its entries is then the whole check).
    const proof = await getText(`${base}/log/consistency?from=${last.size}`).catch(() => undefined);
    const p = proof === undefined ? undefined : (JSON.parse(proof) as { proof?: string[] });
    if (
      p?.proof !== undefined &&
      !verifyConsistency(
        last.size,
        opened.size,
        p.proof.map((h) => Buffer.from(h, 'hex')),
        Buffer.from(last.root, 'hex'),
        Buffer.from(opened.rootHex, 'hex'),
      ).ok
    )
      return {
        ...observation,
        problem: { alert: 'fork', detail: `its consistency proof from size ${last.size} does not hold` },
      };
  }
  return observation;
}
