/**
 * `gspc verify`, the card log part: the checkpoint is signed by the board key under the log's
 * origin (bound to the DID), its size and root recompute from every entry, every active card is
 * an entry, and every earlier checkpoint in the history is signed and consistent (RFC 9162) with
 * the current one. Returns the checks and the card verifier's log context.
 */
import { logLeaves, logOrigin, type LogHistoryEntry } from '../core/evidence/card-log.js';
import { MerkleTree } from '../core/evidence/merkle/merkle-tree.js';
import { verifyConsistency } from '../core/evidence/merkle/rfc6962-verify.js';
import type { CardVerificationContext } from '../core/verify/card-verifier.js';
import { checkLogCheckpoint, verifyCheckpointNote } from '../core/verify/log-proof.js';
import { checkLogTiles } from './log-tiles-check.js';
import { nodeVerifyCrypto } from './node-crypto.js';
import { parseNote } from '../core/evidence/note/signed-note.js';
import { parseVerifierKey } from '../core/evidence/note/verifier-key.js';
import { verifyCosignature } from '../core/evidence/note/cosignature.js';
import { parseDocument, type ReleaseSource } from './release-source.js';
import { checkTransitions, keyAtSize, type KeyEpoch } from '../core/verify/key-transitions.js';
import { revocationOf, type Revocation } from '../core/verify/revocation.js';
import { BOARD_KEY, ROOT_KEY } from '../core/evidence/signer.js';

type Add = (check: string, ok: boolean, detail: string) => boolean;

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** Key transitions that passed the `key_transitions` check. */
export interface CheckedTransitions {
  epochs: Map<string, KeyEpoch[]>;
  revocations: Revocation[];
  /** Transitions after this release (its log does not hold them). */
  unlogged: number;
}

export async function verifyLog(
  src: ReleaseSource,
  did: string,
  /** The board key the release was signed with (the DID document's, at the log's size). */
  boardKey: Uint8Array | undefined,
  /** The checked key transitions (verifyTransitions), when the release has any. */
  transitions: CheckedTransitions | undefined,
  active: readonly string[],
  add: Add,
): Promise<CardVerificationContext['log']> {
  const entriesDoc = parseDocument<{ origin: string; tree_size: number; entries: string[] }>(
    await src.get('/log/entries.json'),
  );
  const history = parseDocument<{ checkpoints: LogHistoryEntry[] }>(await src.get('/log/history.json'));
  const note = (await src.get('/log/checkpoint'))?.toString('utf8');
  if (!entriesDoc || !history) {
    add('log', false, 'no /log/entries.json or /log/history.json');
    return undefined;
  }
  const origin = logOrigin(did);
  if (
    !add(
      'log_origin',
      entriesDoc.origin === origin,
      entriesDoc.origin === origin
        ? `origin ${origin}`
        : `origin ${entriesDoc.origin} is not ${origin} (the DID's host + /log)`,
    )
  )
    return undefined;

  const tree = new MerkleTree(logLeaves(entriesDoc.entries));
  const rootHex = Buffer.from(tree.root()).toString('hex');
  const checkpointValid = await checkLogCheckpoint(nodeVerifyCrypto, note, origin, boardKey, tree.size, rootHex, add);
  if (note !== undefined && src.live) await checkCosigners(src, note, add);
  if (src.live) await checkLogTiles(src, entriesDoc.entries, tree.root(), add);
  const logged = new Set(entriesDoc.entries);
  const missing = active.filter((h) => !logged.has(h));
  add(
    'log_holds_root',
    missing.length === 0,
    missing.length === 0
      ? `all ${active.length} active cards are log entries`
      : `active cards missing from the log: ${missing
          .slice(0, 5)
          .map((h) => h.slice(0, 16))
          .join(', ')}`,
  );

  // The board key an earlier checkpoint was signed with: the one in force at its size, by the
  // key transitions the log holds (issue 30); the current key when the keys never changed.
  const epochs = transitions?.epochs;
  const keyAt = (size: number): Uint8Array | undefined => {
    if (boardKey === undefined || epochs === undefined) return boardKey;
    const now = Buffer.from(boardKey).toString('base64url');
    return Buffer.from(keyAtSize(epochs.get(BOARD_KEY), size, now), 'base64url');
  };
  const bad: string[] = [];
  const revoked: number[] = [];
  let previous = 0;
  for (const h of history.checkpoints) {
    const key = keyAt(h.tree_size);
    // A checkpoint a revoked key signed after the compromise proves nothing (revocation.ts): its
    // signature is not relied on, and its tree still has to be a prefix of the current one.
    const r = key && revocationOf(transitions?.revocations, Buffer.from(key).toString('base64url'));
    const notRelied = r !== undefined && h.tree_size > r.trusted_size;
    const opened =
      key && !notRelied ? await verifyCheckpointNote(nodeVerifyCrypto, h.checkpoint, origin, key) : undefined;
    const signed = notRelied || (opened?.ok === true && opened.size === h.tree_size && opened.rootHex === h.root_hash);
    const consistent =
      h.tree_size > previous &&
      h.tree_size < tree.size &&
      verifyConsistency(
        h.tree_size,
        tree.size,
        h.consistency_proof.map((p) => Buffer.from(p, 'hex')),
        Buffer.from(h.root_hash, 'hex'),
        tree.root(),
      ).ok;
    if (!signed || !consistent) bad.push(`${h.tree_size} (${!signed ? 'signature' : 'consistency'})`);
    else if (notRelied) revoked.push(h.tree_size);
    previous = h.tree_size;
  }
  add(
    'log_consistency',
    bad.length === 0,
    bad.length > 0
      ? `earlier checkpoints that fail: ${bad.join(', ')}`
      : `${history.checkpoints.length} earlier checkpoints, each ${revoked.length > 0 ? 'consistent' : 'signed and consistent'} with size ${tree.size}` +
          (revoked.length > 0
            ? `; signed by a revoked key after its compromise, so their signatures are not relied on: size ${revoked.join(', ')}`
            : ''),
  );
  if (transitions !== undefined && transitions.revocations.length > 0)
    checkRevocations(transitions.revocations, history.checkpoints, tree.size, add);

  const index = new Map(entriesDoc.entries.map((h, i) => [h, i]));
  return {
    origin,
    tree_size: tree.size,
    root_hash: rootHex,
    checkpointValid,
    // The tree was recomputed from every entry and matched the signed checkpoint.
    ...(checkpointValid && { knownLogged: logged, indexOf: (h: string) => index.get(h) }),
    proofFor: (h: string) => {
      const i = index.get(h);
      return i === undefined
        ? undefined
        : {
            leaf_index: i,
            tree_size: tree.size,
            proof: tree.inclusionProof(i).map((p) => Buffer.from(p).toString('hex')),
          };
    },
  };
}

/**
 * The key transitions of the keys' source (the DID's host's `/keys/transitions.json`, or the
 * view's own), when there are any: every transition checked (who signed it: both keys for a
 * rotation, the identity root in force for a revocation, both roots for a root rotation; one
 * unbroken chain per key ending at the DID document's key; each logged in order, or after this
 * release). Undefined when there is none; a failed check is added and gives no epochs (every
 * earlier checkpoint is then checked under the current key, and a rotated one fails).
 */
export async function verifyTransitions(
  /** The parsed `/keys/transitions.json` (undefined when none is served). */
  doc: unknown,
  did: string,
  currentKey: (fragment: string) => Uint8Array | undefined,
  /** The log's entries (/log/entries.json), as the caller read them. */
  entries: readonly string[],
  add: Add,
): Promise<CheckedTransitions | undefined> {
  if (doc === undefined) return undefined;
  const list = (doc as { transitions?: unknown } | null)?.transitions;
  if (!Array.isArray(list)) {
    add('key_transitions', false, '/keys/transitions.json is not a svc.key-transitions/1 document');
    return undefined;
  }
  const current = new Map<string, string>();
  for (const f of new Set([...list.map((t) => (t as { fragment?: unknown } | null)?.fragment), ROOT_KEY])) {
    const key = typeof f === 'string' ? currentKey(f) : undefined;
    if (typeof f === 'string' && key !== undefined) current.set(f, Buffer.from(key).toString('base64url'));
  }
  const verdict = await checkTransitions(nodeVerifyCrypto, list, did, current, entries, current.get(ROOT_KEY));
  if (!verdict.ok) {
    add('key_transitions', false, verdict.detail);
    return undefined;
  }
  const kinds = (kind: string, fragment?: string) =>
    list.filter(
      (t) =>
        (t as { kind?: unknown }).kind === kind &&
        (fragment === undefined || (t as { fragment?: unknown }).fragment === fragment),
    ).length;
  const rootRotations = kinds('rotation', ROOT_KEY);
  const adoptions = kinds('adoption');
  add(
    'key_transitions',
    true,
    `${plural(verdict.ids.length, 'key transition')} (${plural(kinds('rotation') - rootRotations, 'rotation')} signed by the retired and the new key, ${plural(verdict.revocations.length, 'revocation')} authorised by the identity root, ${plural(rootRotations, 'root rotation')} signed by the old and the new root${adoptions > 0 ? `, ${plural(adoptions, 'adoption')} by the root` : ''}), ` +
      (verdict.unlogged === 0
        ? "logged in order and ending at the DID document's keys"
        : `ending at the DID document's keys; the last ${verdict.unlogged} came after this release (its log does not hold them), which is checked under the keys before them`),
  );
  return verdict;
}

/**
 * Each revocation trusts the log up to a size a checkpoint of it had (or none of it): the
 * operator names the last checkpoint made before the compromise, and it must be one the log
 * published, so that what it trusts is exactly what a reader could have seen then. A revocation
 * that trusts this whole log or more came after this release (a rollback to the release before
 * a leak, served with the transitions of now): it takes nothing back from it, and the
 * checkpoint it names is this release's own or a later one, which this history cannot hold.
 */
function checkRevocations(
  revocations: readonly Revocation[],
  history: readonly LogHistoryEntry[],
  treeSize: number,
  add: Add,
): void {
  const sizes = new Set([0, ...history.map((h) => h.tree_size)]);
  const unknown = revocations.filter((r) => r.trusted_size < treeSize && !sizes.has(r.trusted_size));
  add(
    'key_revocations',
    unknown.length === 0,
    unknown.length > 0
      ? `a revocation trusts ${unknown[0]!.trusted_size} entries, which no earlier checkpoint of the log had`
      : revocations
          .map(
            (r) =>
              `${r.fragment} key ${r.x} revoked, compromised since ${r.compromised_since}: what it signed stands only among the first ${r.trusted_size} log entries`,
          )
          .join('; '),
  );
}

/** A WITNESSED transparency-log record: each named cosigner's line on the served checkpoint verifies under its vkey. */
async function checkCosigners(src: ReleaseSource, note: string, add: Add): Promise<void> {
  const record = parseDocument<{
    witnesses: { witness: string; state: string; cosigners?: { name: string; vkey: string }[] }[];
  }>(await src.get('/interop/root-witness-latest.json'));
  const w = record?.witnesses.find((x) => x.witness === 'transparency-log');
  if (!w || w.state !== 'WITNESSED') return;
  const parsed = parseNote(note);
  if (!parsed.ok) {
    add('log_cosignatures', false, `the checkpoint note: ${parsed.reason}`);
    return;
  }
  const failed: string[] = [];
  for (const c of w.cosigners ?? []) {
    const key = parseVerifierKey(c.vkey);
    const ok = key.ok && parsed.signatures.some((sig) => verifyCosignature(parsed.text, sig, key.key).ok);
    if (!ok) failed.push(c.name);
  }
  const n = w.cosigners?.length ?? 0;
  add(
    'log_cosignatures',
    n > 0 && failed.length === 0,
    n === 0
      ? 'WITNESSED without cosigners'
      : failed.length === 0
        ? `${n} witness cosignatures on /log/checkpoint verify under their vkeys`
        : `cosignatures that do not verify: ${failed.join(', ')}`,
  );
}
