/**
 * Ed25519 keys on disk. Each signing key is a 32-byte seed in `<dir>/<fragment>.key` (base64url,
 * mode 0600, readable only by its owner); `<dir>/public-keys.json` records the public keys as
 * issued (the signing keys and the identity root), which is what the DID document publishes, and
 * `<dir>/transitions.json` every key change a publish has logged. A signing key is healthy only
 * when its file exists, is not readable by group or others, parses, and derives the recorded
 * public key; otherwise it is unhealthy with a reason, and everything it would sign is published
 * unsigned (fail closed).
 *
 * The identity root (issue 36, `identity-root.key`) is made here too, but it is not a signing
 * key: it signs nothing a service serves, its seed belongs off the serving machine, and a missing
 * root seed makes nothing unhealthy. Only its public half is loaded.
 *
 * A key change (`gspc keys rotate`, `revoke`, `migrate`) is staged in `pending.json`
 * (pending-change.ts) until the next publish; `loadKeys(dir, did, { next: true })` reads the keys
 * with it applied, which is what that publish signs with.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyPairFromSeed, sign } from '../core/crypto/ed25519.js';
import type { PublishedKey } from '../core/evidence/did.js';
import { ALL_KEYS, ROOT_KEY, type KeyFragment, type SignerState } from '../core/evidence/signer.js';
import type { TransitionRecord } from '../core/evidence/key-transition.js';
import { PUBLIC_FILE, readPublic, readTransitions, rootOf, writeSecret } from './key-files.js';
import { readPending } from './pending-change.js';

export interface KeyHealth {
  fragment: KeyFragment;
  healthy: boolean;
  reason?: string;
}

export interface LoadedKeys {
  did: string;
  /** Public keys as issued, the identity root's included (published in the DID document even when a key is unhealthy). */
  published: PublishedKey[];
  /** The signing keys' health; the identity root has none (it never signs what is served). */
  health: KeyHealth[];
  /** Every transition of these keys, oldest first (rotations, revocations, adoptions). */
  transitions: TransitionRecord[];
  /** The identity root's public key (JWK `x`), when the key directory records one. */
  root?: string;
  /** True when these are the keys with a staged change applied (what the next publish signs with). */
  pending: boolean;
  state(fragment: KeyFragment): SignerState;
}

export interface KeygenOptions {
  /** Replace every key, the recorded root included. */
  force?: boolean;
  /** Make the identity root when none is recorded (default true). */
  root?: boolean;
  /** Make the signing keys (default true; false with a PKCS#11 token, which holds them). */
  signing?: boolean;
}

/**
 * Creates every missing key (never overwrites one unless `force`); returns the fragments written.
 * A root whose public half is recorded is never made again without `force`: its seed is missing
 * because the operator moved it off this machine, as they should.
 */
export function keygen(dir: string, opts: KeygenOptions = {}): string[] {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const published = readPublic(dir);
  const written: string[] = [];
  const fragments: string[] = [...(opts.signing === false ? [] : ALL_KEYS), ...(opts.root === false ? [] : [ROOT_KEY])];
  for (const fragment of fragments) {
    const path = join(dir, `${fragment}.key`);
    if (!opts.force && existsSync(path)) continue;
    if (!opts.force && fragment === ROOT_KEY && published[fragment] !== undefined) continue;
    const seed = randomBytes(32);
    writeSecret(path, `${seed.toString('base64url')}\n`);
    published[fragment] = Buffer.from(keyPairFromSeed(seed).publicKey).toString('base64url');
    written.push(fragment);
  }
  writeFileSync(join(dir, PUBLIC_FILE), `${JSON.stringify(published, null, 2)}\n`, { mode: 0o644 });
  return written;
}

/**
 * Loads and health-checks every signing key, and the identity root's public key. Never throws for
 * a bad key file: that key is unhealthy. `next`: with the staged change applied (pending.json).
 */
export function loadKeys(dir: string, did: string, opts: { next?: boolean } = {}): LoadedKeys {
  let recorded: Record<string, string> = {};
  let recordedProblem: string | undefined;
  const pending = opts.next === true ? readPending(dir) : undefined;
  try {
    recorded = pending?.public_keys ?? readPublic(dir);
  } catch (e) {
    recordedProblem = (e as Error).message;
  }
  const published: PublishedKey[] = [];
  const health: KeyHealth[] = [];
  const states = new Map<KeyFragment, SignerState>();
  for (const fragment of ALL_KEYS) {
    const kid = `${did}#${fragment}`;
    const pub = recorded[fragment];
    if (typeof pub === 'string' && Buffer.from(pub, 'base64url').length === 32)
      published.push({ fragment, publicKey: Buffer.from(pub, 'base64url') });
    const staged = pending?.seeds[fragment];
    const checked =
      staged !== undefined
        ? pending!.problem !== undefined
          ? { reason: pending!.problem }
          : checkSeed(staged, pub, recordedProblem)
        : checkKey(join(dir, `${fragment}.key`), pub, recordedProblem);
    if ('reason' in checked) {
      health.push({ fragment, healthy: false, reason: checked.reason });
      states.set(fragment, { healthy: false, kid, reason: `key ${fragment} is unhealthy: ${checked.reason}` });
    } else {
      health.push({ fragment, healthy: true });
      const pair = checked.pair;
      states.set(fragment, {
        healthy: true,
        signer: { kid, publicKey: pair.publicKey, sign: (m) => sign(pair.privateKey, m) },
      });
    }
  }
  const root = rootOf(recorded);
  if (root !== undefined) published.push({ fragment: ROOT_KEY, publicKey: Buffer.from(root, 'base64url') });
  // Transitions of another DID (keys rotated under an earlier origin) are not this DID's history:
  // a release for this DID starts its log with the keys as they are.
  const transitions = (pending?.transitions ?? readTransitions(dir)).filter((t) => t.did === did);
  return {
    did,
    published,
    health,
    transitions,
    ...(root !== undefined && { root }),
    pending: pending !== undefined,
    state: (f) => states.get(f)!,
  };
}

type Checked = { reason: string } | { pair: ReturnType<typeof keyPairFromSeed> };

function checkKey(path: string, recordedPub: string | undefined, recordedProblem: string | undefined): Checked {
  if (!existsSync(path)) return { reason: 'the key file is missing (run gspc keygen)' };
  const st = statSync(path);
  if ((st.mode & 0o077) !== 0) return { reason: 'the key file is readable or writable by group or others (chmod 600)' };
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (e) {
    return { reason: `the key file is unreadable (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  return checkSeed(text, recordedPub, recordedProblem);
}

function checkSeed(text: string, recordedPub: string | undefined, recordedProblem: string | undefined): Checked {
  const seed = Buffer.from(text, 'base64url');
  if (seed.length !== 32 || seed.toString('base64url') !== text)
    return { reason: 'the key file does not hold a 32-byte base64url seed' };
  if (recordedProblem) return { reason: recordedProblem };
  if (recordedPub === undefined) return { reason: 'no public key is recorded for it in public-keys.json' };
  const pair = keyPairFromSeed(seed);
  if (Buffer.from(pair.publicKey).toString('base64url') !== recordedPub)
    return { reason: 'the key does not match the published public key' };
  return { pair };
}
