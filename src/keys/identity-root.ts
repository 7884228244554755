/**
 * The identity root (issue 36): the key that authorises key changes, as TUF's root role
 * authorises the online keys. `gspc keygen` writes its seed to `<key dir>/identity-root.key` and
 * the operator moves it off the serving machine: nothing served or published needs it. A
 * revocation and a rotation of the root itself need it, read from `--root-key <file>` (or the key
 * directory, while it is still there), and it must be the root in force: the one the key state a
 * change builds on records. A copy of the public files holds no root seed, so it cannot revoke.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { keyPairFromSeed, sign } from '../core/crypto/ed25519.js';
import { GspcError } from '../core/errors.js';
import { ROOT_KEY, type Signer } from '../core/evidence/signer.js';
import { readSeed, ROOT_FILE } from './key-files.js';

export interface RootKey {
  signer: Signer;
  /** JWK `x`. */
  x: string;
  /** Where the seed was read from (a root rotation writes the new seed there unless told otherwise). */
  path: string;
}

/** A signer over a seed (the kid is `<did>#identity-root`). */
export function rootSignerOf(seed: Uint8Array, did: string): { signer: Signer; x: string } {
  const pair = keyPairFromSeed(seed);
  return {
    signer: { kid: `${did}#${ROOT_KEY}`, publicKey: pair.publicKey, sign: (m) => sign(pair.privateKey, m) },
    x: pair.publicKey.toString('base64url'),
  };
}

/**
 * The identity root in force for `command`: the seed at `file`, else `<keyDir>/identity-root.key`
 * when it is still there, checked against `expected` (the root the key state records). Refused,
 * before anything is written: `root_key_required` when there is no seed to read or no root is
 * recorded (a key directory from before issue 36: gspc keys migrate), `root_key_invalid` when the
 * seed is not a seed or not the root in force.
 */
export function rootKeyFor(
  command: string,
  opts: { file?: string | undefined; keyDir: string; did: string; expected: string | undefined },
): RootKey {
  if (opts.expected === undefined)
    throw new GspcError(
      'root_key_required',
      `gspc ${command}: ${opts.keyDir} records no identity root (its keys were made before issue 36): make one with gspc keys migrate, publish, then ${command}; nothing was written`,
    );
  const fallback = join(opts.keyDir, ROOT_FILE);
  const path = opts.file ?? (existsSync(fallback) ? fallback : undefined);
  if (path === undefined)
    throw new GspcError(
      'root_key_required',
      `gspc ${command} is authorised by the identity root, whose seed is not here: give --root-key <file> (the identity-root.key you moved off this machine after gspc keygen). Without it no key change can be made: a copy of the public files cannot revoke or rotate; nothing was written`,
      { root_x: opts.expected },
    );
  if (!existsSync(path))
    throw new GspcError('root_key_required', `--root-key ${path}: no such file; nothing was written`, {
      root_x: opts.expected,
    });
  // Held to the signing keys' rule (key-store.ts): a root others may read is not one only the operator holds.
  if ((statSync(path).mode & 0o077) !== 0)
    throw new GspcError(
      'root_key_invalid',
      `${path} is readable or writable by group or others (chmod 600 ${path}); nothing was written`,
      { root_x: opts.expected },
    );
  const seed = readSeed(path);
  if (typeof seed === 'string') throw new GspcError('root_key_invalid', `${seed}; nothing was written`);
  const root = rootSignerOf(seed, opts.did);
  if (root.x !== opts.expected)
    throw new GspcError(
      'root_key_invalid',
      `${path} holds the identity root x=${root.x}, but the root in force is x=${opts.expected}: give the seed of the root in force (after gspc keys rotate identity-root, the new one); nothing was written`,
      { root_x: opts.expected, given_x: root.x },
    );
  return { ...root, path };
}
