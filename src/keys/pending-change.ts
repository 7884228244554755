/**
 * A key change waiting for its publish (issue 36, decision K9). `gspc keys rotate`, `keys revoke`
 * and `keys migrate` do not touch the keys a running service serves: they write the whole key
 * state after the change to `<key dir>/pending.json` (owner-only: it holds the new seeds), and the
 * next `gspc publish` signs with it, logs its transitions and then makes it the key directory's
 * own (`promotePending`). Until then every service, and every replica given a copy of the key
 * directory, keeps serving exactly what it served; a service switches to the staged keys together
 * with the release that logs them (release-keys-follow.ts), so the DID document, the transitions
 * and the release change together, never half.
 *
 * One file, written whole (a temporary name renamed over it): a second change before the publish
 * builds on the first, and a crash leaves either the previous state or the new one.
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { GspcError } from '../core/errors.js';
import { transitionId, transitionsDocument, type TransitionRecord } from '../core/evidence/key-transition.js';
import { PUBLIC_FILE, readTransitions, TRANSITIONS_FILE, writeSecret, writeWhole } from './key-files.js';

export const PENDING_FILE = 'pending.json';
export const PENDING_SCHEMA = 'svc.pending-key-change/1';

export interface PendingChange {
  schema: typeof PENDING_SCHEMA;
  /** The DID whose log the change continues (the current release's when it was staged). */
  did: string;
  /** Every public key after the change, by fragment (the identity root's included). */
  public_keys: Record<string, string>;
  /** The key directory's transitions after the change, oldest first (the committed ones, then the new). */
  transitions: TransitionRecord[];
  /** The seeds the change makes (base64url), by fragment; the other keys keep their files. */
  seeds: Record<string, string>;
}

/** A staged change as read, with why its seeds cannot be used (a file others may read). */
export type ReadPending = PendingChange & { problem?: string };

/** The staged change of a key directory, or undefined when there is none. */
export function readPending(dir: string): ReadPending | undefined {
  const path = join(dir, PENDING_FILE);
  if (!existsSync(path)) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    // Not the file's fault (EMFILE, EACCES, …): said as a read failure, with the errno.
    throw new GspcError('config_invalid', `${path} could not be read (${(e as Error).message})`);
  }
  let v: Partial<PendingChange>;
  try {
    v = JSON.parse(text) as Partial<PendingChange>;
  } catch (e) {
    throw new GspcError('config_invalid', `${path} is not JSON (${(e as Error).message})`);
  }
  if (
    v.schema !== PENDING_SCHEMA ||
    typeof v.did !== 'string' ||
    typeof v.public_keys !== 'object' ||
    v.public_keys === null ||
    !Array.isArray(v.transitions) ||
    typeof v.seeds !== 'object' ||
    v.seeds === null
  )
    throw new GspcError('config_invalid', `${path} is not a ${PENDING_SCHEMA} file`);
  const open = (statSync(path).mode & 0o077) !== 0;
  return {
    ...(v as PendingChange),
    ...(open && { problem: `${PENDING_FILE} is readable or writable by group or others (chmod 600)` }),
  };
}

/** Writes the key state after a change as the key directory's pending change (replacing an earlier one). */
export function stagePending(dir: string, change: Omit<PendingChange, 'schema'>): void {
  writeSecret(join(dir, PENDING_FILE), `${JSON.stringify({ schema: PENDING_SCHEMA, ...change }, null, 2)}\n`);
}

/** The records a pending change adds to the key directory's transitions. */
export function pendingRecords(dir: string, pending: PendingChange | undefined = readPending(dir)): TransitionRecord[] {
  if (pending === undefined) return [];
  const committed = new Set(readTransitions(dir).map(transitionId));
  return pending.transitions.filter((t) => !committed.has(transitionId(t)));
}

/**
 * Makes the staged change the key directory's own, once a publish has made current the release
 * that logs it: the transitions, then the public keys, then each new seed, each written whole
 * (decision K3's order: a crash between them never signs silently with a key the DID document
 * does not serve), and `pending.json` removed last, so a crash before the end is finished by the
 * next key command or publish (the change is still there, whole). Returns whether there was one.
 */
export function promotePending(dir: string): boolean {
  const pending = readPending(dir);
  if (pending === undefined) return false;
  if (pending.problem !== undefined)
    throw new GspcError('keys_unhealthy', `${join(dir, PENDING_FILE)}: ${pending.problem}; nothing was changed`);
  writeWhole(
    join(dir, TRANSITIONS_FILE),
    `${JSON.stringify(transitionsDocument(pending.did, pending.transitions), null, 2)}\n`,
    0o644,
  );
  writeWhole(join(dir, PUBLIC_FILE), `${JSON.stringify(pending.public_keys, null, 2)}\n`, 0o644);
  for (const [fragment, seed] of Object.entries(pending.seeds)) writeSecret(join(dir, `${fragment}.key`), `${seed}\n`);
  rmSync(join(dir, PENDING_FILE));
  return true;
}

/** The key state a new change builds on: the pending change when there is one, else the key directory's own. */
export interface KeyState {
  public_keys: Record<string, string>;
  transitions: TransitionRecord[];
  /** Seeds staged by an earlier pending change (a new change keeps those it does not replace). */
  seeds: Record<string, string>;
}

export function nextKeyState(dir: string, readPublic: (dir: string) => Record<string, string>): KeyState {
  const pending = readPending(dir);
  if (pending !== undefined)
    return {
      public_keys: { ...pending.public_keys },
      transitions: [...pending.transitions],
      seeds: { ...pending.seeds },
    };
  return { public_keys: readPublic(dir), transitions: readTransitions(dir), seeds: {} };
}
