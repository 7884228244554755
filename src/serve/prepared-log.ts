/**
 * The card log as served: `/log/checkpoint` (the signed note plus recorded witness
 * cosignatures, text/plain), `/log/vkey`, `/log/entries.json`, `/log/history.json`, and on
 * demand consistency proofs and per-card inclusion proofs from a tree built once per release.
 */
import { logVerifierKey } from '../core/evidence/card-log.js';
import { logTree as sharedLogTree } from './log-tiles.js';
import { cosignedCheckpoint } from '../core/evidence/log-witness.js';
import { formatTlogProof } from '../core/evidence/tlog-proof.js';
import { type LogInclusion, logInclusion } from '../core/evidence/inclusion-proofs.js';
import type { WitnessEvidence } from '../core/evidence/witness.js';
import type { LoadedRelease } from '../release/load.js';
import { verifyCheckpointNote } from '../core/verify/log-proof.js';
import type { CardVerificationContext } from '../core/verify/card-verifier.js';
import { nodeVerifyCrypto } from '../verify/node-crypto.js';
import { LOG_STATE_CACHE_CONTROL, prepare, type Prepared } from './prepared-bytes.js';

const TEXT = 'text/plain; charset=utf-8';
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

export interface PreparedLog {
  files: Map<string, Prepared>;
  /** The log block of a card's proof document, or undefined if the card is not in the log. */
  inclusion(sha256: string): LogInclusion | undefined;
  /**
   * The card's C2SP tlog-proof (`/cards/<id>.tlog-proof`) against the checkpoint as served (with
   * its recorded cosignatures), or undefined when the card is not in the log or the log is unsigned.
   */
  tlogProof(sha256: string): Prepared | undefined;
  /** Whether `tlogProof(sha256)` gives one (no proof built: the path list asks this of every card). */
  hasTlogProof(sha256: string): boolean;
  /** RFC 9162 consistency proof from `from` to the current size. */
  consistency(from: number): { origin: string; old_size: number; new_size: number; root_hash: string; proof: string[] };
  size: number;
  /** The card verifier's log context (the checkpoint opened once, with the board key). */
  verification(): Promise<NonNullable<CardVerificationContext['log']>>;
}

export function prepareLog(
  release: LoadedRelease,
  boardKey: Uint8Array | undefined,
  witnesses: readonly WitnessEvidence[],
): PreparedLog {
  const { origin, entries, checkpoint } = release.evidence.log;
  let index: Map<string, number> | undefined;
  // Built on first use: a release whose log nobody reads costs nothing.
  // The tree the tiles are served from too (log-tiles.ts): one per loaded release, not per swap.
  const logTree = () => sharedLogTree(release.evidence.log);
  const indexOf = (sha: string) => (index ??= new Map(entries.map((h, i) => [h, i]))).get(sha);
  const files = new Map<string, Prepared>();
  let servedCheckpoint: string | undefined;
  if (checkpoint !== undefined) {
    const witnessing = witnesses.find((w) => w.kind === 'transparency-log')?.log;
    const [, size, root] = checkpoint.split('\n');
    // Cosignatures recorded for another checkpoint of the same root are not this note's.
    const matches =
      witnessing !== undefined &&
      size === String(witnessing.checkpoint.tree_size) &&
      root === witnessing.checkpoint.root_hash;
    servedCheckpoint = cosignedCheckpoint(checkpoint, matches ? witnessing : undefined);
    files.set(
      '/log/checkpoint',
      prepare(Buffer.from(servedCheckpoint, 'utf8'), TEXT, undefined, LOG_STATE_CACHE_CONTROL),
    );
  }
  if (boardKey) {
    const vkey = Buffer.from(`${logVerifierKey(origin, boardKey)}\n`, 'utf8');
    files.set('/log/vkey', prepare(vkey, TEXT, undefined, LOG_STATE_CACHE_CONTROL));
  }
  const rootHex = () => hex(logTree().root());
  const proofOf = (sha: string) => {
    const i = indexOf(sha);
    return i === undefined
      ? undefined
      : { leaf_index: i, tree_size: entries.length, proof: logTree().inclusionProof(i).map(hex) };
  };
  return {
    files,
    size: entries.length,
    inclusion(sha) {
      const p = proofOf(sha);
      return p && logInclusion(origin, p.tree_size, rootHex(), p.leaf_index, p.proof);
    },
    hasTlogProof: (sha) => servedCheckpoint !== undefined && indexOf(sha) !== undefined,
    tlogProof(sha) {
      const i = indexOf(sha);
      if (i === undefined || servedCheckpoint === undefined) return undefined;
      // O(log n) from the tree built once: not kept, so a log of many cards costs no memory here.
      return prepare(Buffer.from(formatTlogProof(i, logTree().inclusionProof(i), servedCheckpoint), 'utf8'), TEXT);
    },
    consistency(from) {
      return {
        origin,
        old_size: from,
        new_size: entries.length,
        root_hash: rootHex(),
        proof: logTree().consistencyProof(from).map(hex),
      };
    },
    async verification() {
      const opened =
        checkpoint !== undefined && boardKey !== undefined
          ? await verifyCheckpointNote(nodeVerifyCrypto, checkpoint, origin, boardKey)
          : undefined;
      const valid = opened?.ok === true && opened.size === entries.length && opened.rootHex === rootHex();
      return {
        origin,
        tree_size: entries.length,
        root_hash: rootHex(),
        checkpointValid: valid,
        proofFor: proofOf,
      };
    },
  };
}
