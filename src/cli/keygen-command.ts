/**
 * `gspc keygen`: the Ed25519 signing keys (board signer and agent-card keys) as owner-only files,
 * and the identity root (issue 36), whose seed the operator moves off the serving machine. With
 * GSPC_SIGNER=pkcs11 the signing keys are the token's, and keygen makes only the root, as a file
 * (decision K8). Replacing keys (`--force`) is refused when the key directory signs a published
 * log, which the key directory itself says (src/keys/key-use.ts), whatever --data-dir names.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { ConfigOverrides, ConfigSource } from '../config.js';
import { GspcError } from '../core/errors.js';
import { ALL_KEYS, ROOT_KEY } from '../core/evidence/signer.js';
import { readPublic, ROOT_FILE, writeSecret } from '../keys/key-files.js';
import { keygen } from '../keys/key-store.js';
import { keysInUse } from '../keys/key-use.js';
import { isReplica } from '../release/release-keys.js';
import type { CliRun } from './cli-io.js';

/**
 * A new identity root's seed, written to `path` around staging the change that publishes it
 * (`stage`): the seed is written first (aside when it replaces the old root's file, which is
 * renamed over only once the change is staged), so a change is never staged for a root whose seed
 * was not saved, and a change that fails to stage leaves no new seed behind. `replace`: `path`
 * holds the old root (a root rotation without `--out`); otherwise it must not exist.
 */
export function withNewRootSeed<T>(path: string, replace: boolean, stage: (seed: Buffer) => T): T {
  if (!replace && existsSync(path))
    throw new GspcError(
      'config_invalid',
      `${path} exists: name a new file with --out for the new root seed; nothing was written`,
    );
  const seed = randomBytes(32);
  const aside = replace ? `${path}.new-${process.pid}` : path;
  writeSecret(aside, `${seed.toString('base64url')}\n`);
  let staged: T;
  try {
    staged = stage(seed);
  } catch (e) {
    rmSync(aside, { force: true });
    throw e;
  }
  if (replace) renameSync(aside, path);
  return staged;
}

/** The loud part: where the root seed is, and that it does not belong on this machine. */
export function rootWarning(path: string): string {
  return [
    `gspc: IMPORTANT: the identity root's seed is ${path}.`,
    'gspc: Move it off this machine now (removable media, a password manager, an offline machine): it is never needed to serve or to publish,',
    'gspc: only to revoke a key (gspc keys revoke --root-key <file>) or rotate the root (gspc keys rotate identity-root --root-key <file>).',
    'gspc: Whoever holds it can change every key of this board; whoever lacks it cannot, a copy of the public files included.',
  ].join('\n');
}

export function registerKeygenCommand(
  program: Command,
  run: CliRun,
  configFor: ConfigSource,
  options: readonly (readonly [string, string])[],
  overrides: (o: Record<string, string | undefined>) => ConfigOverrides,
): void {
  const command = program
    .command('keygen')
    .description(
      'create the Ed25519 keys (board signer and agent-card keys) as owner-only files, and the identity root that authorises key changes',
    )
    .option('--force', 'replace existing keys before anything is published (afterwards: gspc keys rotate)');
  for (const [flag, help] of options) command.option(flag, help);
  command.action((o: Record<string, string | undefined> & { force?: boolean }) => {
    const config = configFor(overrides(o));
    const dir = config.keyDir;
    const force = o.force === true;
    // New keys would fail every earlier checkpoint of the log: no later publish could continue it.
    const inUse = keysInUse(dir, config.dataDir);
    if (force && inUse !== undefined)
      throw new GspcError(
        'keys_in_use',
        `${inUse}: replacing its keys with keygen --force would break that log for good. Use gspc keys rotate <board|agent-card|identity-root>, which replaces a key with a transition the old and the new key both sign, or gspc keys revoke for a key that leaked; nothing was written`,
      );
    const recorded = readPublic(dir);
    const lost = ALL_KEYS.filter((f) => recorded[f] !== undefined && !existsSync(join(dir, `${f}.key`)));
    if (config.token === undefined && inUse !== undefined && lost.length > 0)
      throw new GspcError(
        'keys_in_use',
        `${inUse}, and ${lost.join(', ')} ${lost.length === 1 ? 'is' : 'are'} recorded in ${dir}/public-keys.json without ${lost.length === 1 ? 'its' : 'their'} seed: a new key in ${lost.length === 1 ? 'its' : 'their'} place would break the log. Restore the seed from your backup, or replace the key with gspc keys revoke <kid> --root-key <file>; nothing was written`,
      );
    // A root is made only for keys no log depends on yet; an older key directory adopts one by migration.
    const root = inUse === undefined || force;
    const written = keygen(dir, { force, root, signing: config.token === undefined });
    const signing = written.filter((f) => f !== ROOT_KEY);
    if (config.token !== undefined)
      run.print(
        `GSPC_SIGNER=pkcs11: the signing keys are the token '${config.token.token}''s (docs/operations.md, "Keys on a PKCS#11 token")`,
      );
    run.print(
      signing.length > 0
        ? `created ${signing.join(', ')} in ${dir}`
        : config.token !== undefined
          ? `no signing key files with a token`
          : inUse === undefined
            ? `all keys already exist in ${dir} (gspc keygen --force replaces them, until the first publish)`
            : `all keys already exist in ${dir}, and they are kept: ${inUse.replace(`${dir} `, 'it ')}, so keygen --force is refused. Replace a key with gspc keys rotate <board|agent-card|identity-root>, or one that leaked with gspc keys revoke <kid> (docs/operations.md, "Keys")`,
    );
    if (written.includes(ROOT_KEY)) {
      run.print(
        `created ${ROOT_KEY} (the identity root: it authorises key changes, signs nothing served) in ${join(dir, ROOT_FILE)}`,
      );
      run.warn(rootWarning(join(dir, ROOT_FILE)));
    } else if (readPublic(dir)[ROOT_KEY] === undefined && inUse !== undefined)
      run.warn(
        `gspc: warning: ${dir} has no identity root and ${inUse.replace(`${dir} `, 'it ')}: make one with gspc keys migrate (then publish), or no key can be revoked`,
      );
    if (signing.length > 0 && isReplica(config.dataDir))
      run.warn(
        `gspc: warning: ${config.dataDir} is a replica (gspc pull filled it): it serves with the publisher's keys, so gspc serve will refuse these; copy the publisher's key directory into ${dir} instead`,
      );
  });
}
