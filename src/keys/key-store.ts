/**
 * Ed25519 keys on disk. Each key is a 32-byte seed in `<dir>/<fragment>.key` (base64url, mode
 * 0600, readable only by its owner); `<dir>/public-keys.json` records the public keys as issued,
 * which is what the DID document publishes, and `<dir>/transitions.json` every rotation. A key is healthy only when its file exists, is not
 * readable by group or others, parses, and derives the recorded public key; otherwise it is
 * unhealthy with a reason, and everything it would sign is published unsigned (fail closed).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyPairFromSeed, sign } from '../core/crypto/ed25519.js';
import type { PublishedKey } from '../core/evidence/did.js';
import { ALL_KEYS, type KeyFragment, type SignerState } from '../core/evidence/signer.js';
import { GspcError } from '../core/errors.js';
import {
  KEY_TRANSITION_SCHEMA,
  signTransition,
  transitionsDocument,
  type KeyTransition,
} from '../core/evidence/key-transition.js';

const PUBLIC_FILE = 'public-keys.json';
/** The key directory's transitions (issue 30): public, copied into every release published after one. */
export const TRANSITIONS_FILE = 'transitions.json';

export interface KeyHealth {
  fragment: KeyFragment;
  healthy: boolean;
  reason?: string;
}

export interface LoadedKeys {
  did: string;
  /** Public keys as issued (published in the DID document even when a key is unhealthy). */
  published: PublishedKey[];
  health: KeyHealth[];
  /** Every transition of these keys, oldest first (`gspc keys rotate`). */
  transitions: KeyTransition[];
  state(fragment: KeyFragment): SignerState;
}

/** Creates every missing key (never overwrites one unless `force`); returns the fragments written. */
export function keygen(dir: string, opts: { force?: boolean } = {}): KeyFragment[] {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const published = readPublic(dir);
  const written: KeyFragment[] = [];
  for (const fragment of ALL_KEYS) {
    const path = join(dir, `${fragment}.key`);
    if (existsSync(path) && !opts.force) continue;
    const seed = randomBytes(32);
    writeFileSync(path, `${seed.toString('base64url')}\n`, { mode: 0o600 });
    chmodSync(path, 0o600);
    published[fragment] = Buffer.from(keyPairFromSeed(seed).publicKey).toString('base64url');
    written.push(fragment);
  }
  writeFileSync(join(dir, PUBLIC_FILE), `${JSON.stringify(published, null, 2)}\n`, { mode: 0o644 });
  return written;
}

export function readPublic(dir: string): Record<string, string> {
  const path = join(dir, PUBLIC_FILE);
  if (!existsSync(path)) return {};
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, string>;
  } catch {
    /* reported as unhealthy below */
  }
  throw new GspcError('config_invalid', `${path} is not a JSON object of public keys`);
}

/** Loads and health-checks every key. Never throws for a bad key file: that key is unhealthy. */
export function loadKeys(dir: string, did: string): LoadedKeys {
  let recorded: Record<string, string> = {};
  let recordedProblem: string | undefined;
  try {
    recorded = readPublic(dir);
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
    const checked = checkKey(join(dir, `${fragment}.key`), pub, recordedProblem);
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
  // Transitions of another DID (keys rotated under an earlier origin) are not this DID's history:
  // a release for this DID starts its log with the keys as they are.
  const transitions = readTransitions(dir).filter((t) => t.did === did);
  return { did, published, health, transitions, state: (f) => states.get(f)! };
}

/** The transitions recorded in a key directory (none before the first rotation). */
export function readTransitions(dir: string): KeyTransition[] {
  const path = join(dir, TRANSITIONS_FILE);
  if (!existsSync(path)) return [];
  const doc = JSON.parse(readFileSync(path, 'utf8')) as { transitions?: unknown };
  if (!Array.isArray(doc.transitions))
    throw new GspcError('config_invalid', `${path} is not a svc.key-transitions/1 document`);
  return doc.transitions as KeyTransition[];
}

/**
 * `gspc keys rotate`: a new key for `fragment`, and the transition both keys sign. The
 * transitions, the public keys and the new seed are each written to a temporary file and renamed
 * into place in that order: after a crash between renames either the seed no longer matches the
 * public keys (unhealthy: it signs nothing) or the transitions end at a key not yet served (the
 * next publish fails gspc verify and is not made current); never a silent wrong signature
 * (decision K3). The retired seed is replaced, not kept: it must never sign again.
 */
export function rotateKey(
  dir: string,
  fragment: KeyFragment,
  opts: { did: string; at: string; seed?: Uint8Array },
): KeyTransition {
  const keys = loadKeys(dir, opts.did);
  const old = keys.state(fragment);
  if (!old.healthy)
    throw new GspcError(
      'keys_unhealthy',
      `${fragment} cannot be rotated: ${old.reason}. A rotation is signed by the key it retires; a key that is lost or leaked is replaced with gspc keys revoke`,
    );
  const seed = Buffer.from(opts.seed ?? randomBytes(32));
  const pair = keyPairFromSeed(seed);
  const transitions = readTransitions(dir);
  const next = {
    kid: old.signer.kid,
    publicKey: pair.publicKey,
    sign: (m: Uint8Array) => sign(pair.privateKey, m),
  };
  const record = signTransition(
    {
      schema: KEY_TRANSITION_SCHEMA,
      did: opts.did,
      fragment,
      sequence: transitions.filter((t) => t.fragment === fragment && t.did === opts.did).length + 1,
      kind: 'rotation',
      old_x: Buffer.from(old.signer.publicKey).toString('base64url'),
      new_x: pair.publicKey.toString('base64url'),
      at: opts.at,
    },
    old.signer,
    next,
  );
  commitTransition(dir, opts.did, fragment, seed, [...transitions, record]);
  return record;
}

/**
 * Writes a new seed for `fragment` and the transitions that end at it (decision K3): the
 * transitions, the public keys and the seed, each to a temporary file renamed into place in
 * that order, so a crash between renames never signs with a key the DID document does not serve.
 */
export function commitTransition(
  dir: string,
  did: string,
  fragment: KeyFragment,
  seed: Buffer,
  transitions: readonly KeyTransition[],
): void {
  const published = readPublic(dir);
  published[fragment] = keyPairFromSeed(seed).publicKey.toString('base64url');
  const staged = (name: string, text: string, mode: number) => {
    const tmp = join(dir, `.${name}.new`);
    writeFileSync(tmp, text, { mode });
    chmodSync(tmp, mode);
    return () => renameSync(tmp, join(dir, name));
  };
  const renames = [
    staged(TRANSITIONS_FILE, `${JSON.stringify(transitionsDocument(did, transitions), null, 2)}\n`, 0o644),
    staged(PUBLIC_FILE, `${JSON.stringify(published, null, 2)}\n`, 0o644),
    staged(`${fragment}.key`, `${seed.toString('base64url')}\n`, 0o600),
  ];
  for (const rename of renames) rename();
}

function checkKey(path: string, recordedPub: string | undefined, recordedProblem: string | undefined) {
  if (!existsSync(path)) return { reason: 'the key file is missing (run gspc keygen)' };
  const st = statSync(path);
  if ((st.mode & 0o077) !== 0) return { reason: 'the key file is readable or writable by group or others (chmod 600)' };
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (e) {
    return { reason: `the key file is unreadable (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  }
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
