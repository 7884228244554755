/**
 * `gspc keys migrate` (issue 36, decision K10): a key directory made before the identity root
 * existed gets one. The root's public half joins the keys, and, when the directory's history
 * holds revocations signed by their new key only (the issue-30 format, which verifiers no longer
 * accept alone), an adoption record signed by the new root endorses them by id. Staged like every
 * key change (pending-change.ts): the next publish logs the adoption and publishes the root.
 *
 * It runs on the publisher: the board key must be healthy here, so a copy of the public files
 * cannot mint a root of its own (what it could do with a forged copy of the CLI is bounded by the
 * anchors of docs/threat-model.md: the DID's host and pinned monitors).
 */
import { randomBytes } from 'node:crypto';
import { GspcError } from '../core/errors.js';
import {
  KEY_TRANSITION_SCHEMA,
  signAdoption,
  transitionId,
  type AdoptionRecord,
} from '../core/evidence/key-transition.js';
import { ROOT_KEY, type Signer, type SignerState } from '../core/evidence/signer.js';
import { readPublic, rootOf } from './key-files.js';
import { nextKeyState, stagePending } from './pending-change.js';
import { rootSignerOf } from './identity-root.js';

export interface Migration {
  /** The new root's seed, when one was made (the caller writes it where the operator keeps it). */
  seed?: Buffer;
  /** The root (JWK `x`) the history is adopted under. */
  root: string;
  /** The adoption record, when there were issue-30 revocations to endorse. */
  adoption?: AdoptionRecord;
  /** Ids of the revocations it endorses. */
  endorsed: string[];
}

/** The issue-30 revocations of `did` (no root signature) that no adoption endorses yet. */
export function unendorsedRevocations(transitions: readonly Record<string, unknown>[], did: string): string[] {
  const endorsed = new Set(
    transitions.flatMap((t) =>
      t['kind'] === 'adoption' && Array.isArray(t['endorses']) ? (t['endorses'] as string[]) : [],
    ),
  );
  return transitions
    .filter((t) => t['did'] === did && t['kind'] === 'revocation' && !('sig_root' in t))
    .map((t) => transitionId(t as never))
    .filter((id) => !endorsed.has(id));
}

/**
 * Stages the migration. `board`: the board key the next publish signs with (it must be healthy:
 * the publisher holds it). `root`: the root in force, when the key directory already has one and
 * only an adoption is needed (checked by the caller); otherwise a new root is made (`seed`).
 * Returns undefined when there is nothing to do.
 */
export function migrateKeys(
  dir: string,
  opts: { did: string; at: string; board: SignerState; root?: { signer: Signer; x: string }; seed?: Uint8Array },
): Migration | undefined {
  const board = opts.board;
  if (!board.healthy)
    throw new GspcError(
      'keys_unhealthy',
      `gspc keys migrate runs on the publisher, which holds the signing keys: ${board.reason}; nothing was written`,
    );
  const state = nextKeyState(dir, readPublic);
  const legacy = unendorsedRevocations(state.transitions as unknown as Record<string, unknown>[], opts.did);
  const recorded = rootOf(state.public_keys);
  if (recorded !== undefined && legacy.length === 0) return undefined;
  let seed: Buffer | undefined;
  let root = opts.root;
  if (recorded === undefined) {
    seed = Buffer.from(opts.seed ?? randomBytes(32));
    root = rootSignerOf(seed, opts.did);
    state.public_keys[ROOT_KEY] = root.x;
  } else if (root === undefined || root.x !== recorded)
    throw new GspcError(
      'root_key_required',
      'gspc keys migrate: the adoption is signed by the identity root in force; nothing was written',
    );
  const adoption =
    legacy.length === 0
      ? undefined
      : signAdoption(
          {
            schema: KEY_TRANSITION_SCHEMA,
            did: opts.did,
            fragment: ROOT_KEY,
            kind: 'adoption',
            root_x: root!.x,
            endorses: legacy,
            at: opts.at,
          },
          root!.signer,
        );
  stagePending(dir, {
    did: opts.did,
    ...state,
    transitions: adoption === undefined ? state.transitions : [...state.transitions, adoption],
  });
  return { ...(seed && { seed }), root: root!.x, ...(adoption && { adoption }), endorsed: legacy };
}
