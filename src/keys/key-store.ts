/**
 * Ed25519 keys on disk. Each key is a 32-byte seed in `<dir>/<fragment>.key` (base64url, mode
 * 0600, readable only by its owner); `<dir>/public-keys.json` records the public keys as issued,
 * which is what the DID document publishes. A key is healthy only when its file exists, is not
 * readable by group or others, parses, and derives the recorded public key; otherwise it is
 * unhealthy with a reason, and everything it would sign is published unsigned (fail closed).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyPairFromSeed, sign } from '../core/crypto/ed25519.js';
import type { PublishedKey } from '../core/evidence/did.js';
import { ALL_KEYS, type KeyFragment, type SignerState } from '../core/evidence/signer.js';
import { GspcError } from '../core/errors.js';

const PUBLIC_FILE = 'public-keys.json';

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

function readPublic(dir: string): Record<string, string> {
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
  return { did, published, health, state: (f) => states.get(f)! };
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
