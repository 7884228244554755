/**
 * The card log (beyond the specification): every card that was ever active under a public root,
 * appended in the order it first became active, in an RFC 6962 Merkle tree that only grows
 * across releases. Each release carries the whole log, a C2SP tlog-checkpoint v1.0.0 note
 * signed by the board key (key name = origin), and every earlier checkpoint with a consistency
 * proof to the current size, so transparency-log witnesses can cosign it and anyone can check
 * that no release rewrote history. The public root (odd node duplicated, as the specification
 * says) stays the spec's answer to "what is active now"; the log answers "what was ever issued".
 */
import { formatCheckpoint } from './note/checkpoint.js';
import { formatNote, keyId, noteSignature, SIG_TYPE_ED25519 } from './note/signed-note.js';
import { formatVerifierKey } from './note/verifier-key.js';
import { MerkleTree } from './merkle/merkle-tree.js';
import { leafHash } from './merkle/hash.js';
import type { SignerState } from './signer.js';

export const LOG_SCHEMA = 'svc.card-log/1';
export const LOG_HISTORY_SCHEMA = 'svc.card-log-history/1';
export const LOG_LEAF_RULE =
  'leaf = SHA-256(0x00 || card sha256 bytes); entries in the order cards first became active (within one release, ascending hex)';
/** The rule once the log holds a key transition (the rule above, unchanged, for logs without one). */
export const LOG_LEAF_RULE_WITH_TRANSITIONS =
  'leaf = SHA-256(0x00 || entry bytes), an entry being a card sha256 or a key transition id (/keys/transitions.json); each release appends its new key transitions, then its new cards in ascending hex';

/** A checkpoint of an earlier release, with its consistency proof to the current tree. */
export interface LogHistoryEntry {
  tree_size: number;
  root_hash: string;
  /** The signed checkpoint note as that release published it. */
  checkpoint: string;
  /** RFC 9162 consistency proof from `tree_size` to the current size (hex, in order). */
  consistency_proof: string[];
}

/** What a release inherits from the largest log published before it. */
export interface PreviousLog {
  entries: readonly string[];
  /** The signed checkpoint of that release (absent when it was unsigned). */
  checkpoint?: string;
  history: readonly LogHistoryEntry[];
}

export interface CardLog {
  origin: string;
  entries: string[];
  tree: MerkleTree;
  /** The signed checkpoint note, or undefined (with `unsigned_reason`) when the key is unhealthy. */
  checkpoint?: string;
  unsigned_reason?: string;
  history: LogHistoryEntry[];
  /** Whether the log holds key transitions (its leaf rule then says so). */
  keyTransitions?: boolean;
}

/** The log origin for a did:web DID: its host (port included) + `/log`, the schemeless URL it is served under. */
export function logOrigin(did: string): string {
  return `${did.slice('did:web:'.length).replace('%3A', ':')}/log`;
}

/** The C2SP verifier key (`<origin>+<key id>+<base64 key>`) witnesses configure for the log. */
export function logVerifierKey(origin: string, publicKey: Uint8Array): string {
  return formatVerifierKey(origin, publicKey);
}

export function logLeaves(entries: readonly string[]): Uint8Array {
  const out = new Uint8Array(entries.length * 32);
  entries.forEach((h, i) => out.set(leafHash(Buffer.from(h, 'hex')), i * 32));
  return out;
}

/**
 * Extends the previous log with the active cards it does not hold yet (in ascending hex order)
 * and signs the new checkpoint. A release that adds nothing keeps the same size, checkpoint and
 * history, so publishing the same corpus twice gives the same bytes.
 */
export function extendLog(
  previous: PreviousLog | undefined,
  activeCards: readonly string[],
  origin: string,
  key: SignerState,
  /** Key transitions (their ids, oldest first): logged before the cards, once each (key-transition.ts). */
  transitions: readonly string[] = [],
): CardLog {
  const entries = [...(previous?.entries ?? [])];
  const seen = new Set(entries);
  for (const h of transitions)
    if (!seen.has(h)) {
      entries.push(h);
      seen.add(h);
    }
  for (const h of [...activeCards].sort())
    if (!seen.has(h)) {
      entries.push(h);
      seen.add(h);
    }
  const tree = new MerkleTree(logLeaves(entries));
  const grew = previous !== undefined && entries.length > previous.entries.length;
  // The previous checkpoint joins the history only when the tree grew past it (and it was signed).
  const older: { tree_size: number; root_hash: string; checkpoint: string }[] = (previous?.history ?? []).map(
    ({ consistency_proof: _p, ...h }) => h,
  );
  if (grew && previous.checkpoint !== undefined && previous.entries.length > 0) {
    // The root as that release signed it (no need to rebuild the old tree); gspc verify checks
    // it against the entries through the consistency proof.
    const signedRoot = previous.checkpoint.split('\n')[2]!;
    older.push({
      tree_size: previous.entries.length,
      root_hash: Buffer.from(signedRoot, 'base64').toString('hex'),
      checkpoint: previous.checkpoint,
    });
  }
  const history = older.map((h) => ({
    ...h,
    consistency_proof: tree.consistencyProof(h.tree_size).map((p) => Buffer.from(p).toString('hex')),
  }));
  const text = formatCheckpoint({ origin, size: tree.size, rootHash: tree.root(), extensions: [] });
  const kt = transitions.length > 0 ? { keyTransitions: true } : {};
  if (!key.healthy) return { origin, entries, tree, unsigned_reason: key.reason, history, ...kt };
  const signature = key.signer.sign(Buffer.from(text, 'utf8'));
  const line = noteSignature(origin, keyId(origin, SIG_TYPE_ED25519, key.signer.publicKey), signature);
  return { origin, entries, tree, checkpoint: formatNote(text, [line]), history, ...kt };
}

/** `/log/entries.json`. */
export function logEntriesDocument(log: CardLog, kid: string) {
  return {
    schema: LOG_SCHEMA,
    origin: log.origin,
    tree: 'RFC 6962 (an odd last node is promoted, never duplicated)',
    leaves: log.keyTransitions ? LOG_LEAF_RULE_WITH_TRANSITIONS : LOG_LEAF_RULE,
    tree_size: log.tree.size,
    root_hash: Buffer.from(log.tree.root()).toString('hex'),
    kid,
    checkpoint_url: '/log/checkpoint',
    ...(log.unsigned_reason !== undefined && { unsigned_reason: log.unsigned_reason }),
    entries: log.entries,
  };
}

/** `/log/history.json`. */
export function logHistoryDocument(log: CardLog) {
  return { schema: LOG_HISTORY_SCHEMA, origin: log.origin, tree_size: log.tree.size, checkpoints: log.history };
}
