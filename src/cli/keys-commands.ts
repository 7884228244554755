/**
 * `gspc keys rotate <board|agent-card>` (issue 30): a new key for one role, and the transition
 * the retired and the new key both sign (src/keys/key-store.ts rotateKey). The next publish logs
 * the transition and signs with the new key; every earlier release, card and checkpoint still
 * verifies under the key it was signed with (docs/operations.md, "Key lifecycles").
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Argument, type Command } from 'commander';
import type { ConfigOverrides, ConfigSource } from '../config.js';
import { didForHost } from '../core/evidence/did.js';
import { transitionId } from '../core/evidence/key-transition.js';
import { BOARD_KEY, type KeyFragment } from '../core/evidence/signer.js';
import { rotateKey } from '../keys/key-store.js';
import { GspcError } from '../core/errors.js';
import { currentReleaseDir } from '../release/data-dir.js';
import { isReplica } from '../release/release-keys.js';
import { loadRelease } from '../release/load.js';
import { releaseDid } from '../release/release-origin.js';
import type { CliRun } from './cli-io.js';

/** The roles an operator names, and the key each is. */
export const ROLES: Readonly<Record<string, KeyFragment>> = {
  board: BOARD_KEY,
  'agent-card': 'card-attestation-2',
};

/** Whether the data directory has published a release: its log then depends on the keys. */
export function hasPublished(dataDir: string): boolean {
  const releases = join(dataDir, 'releases');
  return existsSync(releases) && readdirSync(releases).some((f) => f.startsWith('r-'));
}

export function registerKeysCommands(
  program: Command,
  run: CliRun,
  configFor: ConfigSource,
  dirOptions: {
    options: readonly (readonly [string, string])[];
    overrides: (o: Record<string, string | undefined>) => ConfigOverrides;
  },
  now: () => Date,
): void {
  const keys = program.command('keys').description('key lifecycles: rotate a key without breaking the log');
  const rotate = keys
    .command('rotate')
    .description(
      'replace one key with a new one; the retired and the new key both sign the transition, which the next publish logs',
    )
    .addArgument(new Argument('<role>', 'the key to rotate').choices(Object.keys(ROLES)));
  for (const [flag, help] of dirOptions.options) rotate.option(flag, help);
  rotate.action((role: string, o: Record<string, string | undefined>) => {
    const fragment = ROLES[role]!;
    const config = configFor(dirOptions.overrides(o));
    if (config.token !== undefined)
      throw new GspcError(
        'config_invalid',
        `GSPC_SIGNER=pkcs11: keys rotate replaces key files, and the keys are on the token '${config.token.token}'; rotating a token's key is not supported yet; nothing was written`,
      );
    if (isReplica(config.dataDir))
      throw new GspcError(
        'keys_in_use',
        `${config.dataDir} is a replica (gspc pull filled it): its keys are the publisher's. Rotate on the publisher, then copy its key directory (every *.key, public-keys.json and transitions.json) here; nothing was written`,
      );
    // The DID the releases were signed under (the current release's), else the configured one.
    const current = currentReleaseDir(config.dataDir);
    const did = current === undefined ? didForHost(config.didHost) : releaseDid(loadRelease(current));
    const t = rotateKey(config.keyDir, fragment, { did, at: now().toISOString() });
    run.print(`rotated ${fragment} (${role}): transition ${transitionId(t)} (sequence ${t.sequence})`);
    run.print(`  retired key x=${t.old_x}`);
    run.print(`  new key     x=${t.new_x}`);
    run.print(
      'The next gspc publish logs the transition and signs with the new key; earlier releases keep verifying under the retired key.' +
        (fragment === BOARD_KEY
          ? ' The log verifier key (/log/vkey) changes with the board key: give witnesses the new one.'
          : ''),
    );
  });
}
