/**
 * `gspc keys rotate <board|agent-card>` (issue 30): a new key for one role, and the transition
 * the retired and the new key both sign (src/keys/key-store.ts rotateKey). The next publish logs
 * the transition and signs with the new key; every earlier release, card and checkpoint still
 * verifies under the key it was signed with (docs/operations.md, "Key lifecycles").
 * `gspc keys revoke <kid> --compromised-since <instant>`: the same, for a key that leaked
 * (src/keys/key-revocation.ts), signed by the new key and naming how much of the log came before.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Argument, type Command } from 'commander';
import type { ConfigOverrides, ConfigSource } from '../config.js';
import { transitionId } from '../core/evidence/key-transition.js';
import { BOARD_KEY, type KeyFragment } from '../core/evidence/signer.js';
import { rotateKey } from '../keys/key-store.js';
import { parseKeyRef, revokeKey } from '../keys/key-revocation.js';
import { checkpointTimes, trustedSizeAt } from '../release/checkpoint-times.js';
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
    .addArgument(new Argument('<role>', `the key to rotate: ${Object.keys(ROLES).join(' or ')}`));
  for (const [flag, help] of dirOptions.options) rotate.option(flag, help);
  rotate.action((role: string, o: Record<string, string | undefined>) => {
    const fragment = ROLES[role];
    if (fragment === undefined)
      throw new GspcError(
        'config_invalid',
        role === 'cards'
          ? 'measurement cards are signed by the board key (#board-attestation-1, with the root and the log): rotate it with gspc keys rotate board; agent cards are signed by gspc keys rotate agent-card (decision K1); nothing was written'
          : `'${role}' is not a key role: give ${Object.keys(ROLES).join(' or ')}; nothing was written`,
      );
    const config = configFor(dirOptions.overrides(o));
    refuseManaged(config, 'keys rotate');
    const did = publishedDid(config.dataDir, 'keys rotate');
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

  const revoke = keys
    .command('revoke')
    .description(
      'the day a key leaks: replace the key, and record, signed by the new key, that <kid> was compromised from an instant on; what it signed then counts only where the log shows it earlier',
    )
    .argument('<kid>', 'board-attestation-1, card-attestation-2, or a retired key as <fragment>~<n>')
    .requiredOption(
      '--compromised-since <instant>',
      'ISO 8601 instant from which the key may have been in other hands',
    );
  for (const [flag, help] of dirOptions.options) revoke.option(flag, help);
  revoke.action((kid: string, o: Record<string, string | undefined>) => {
    const ref = parseKeyRef(kid);
    const since = parseInstant(o['compromisedSince']!);
    const config = configFor(dirOptions.overrides(o));
    refuseManaged(config, 'keys revoke');
    const did = publishedDid(config.dataDir, 'keys revoke');
    const times = checkpointTimes(config.dataDir, did);
    const trusted = trustedSizeAt(times, new Date(since));
    const t = revokeKey(config.keyDir, ref, {
      did,
      at: now().toISOString(),
      compromisedSince: since,
      trustedSize: trusted,
    });
    const name = `${ref.fragment}${ref.sequence === undefined ? '' : `~${ref.sequence}`}`;
    run.print(`revoked ${name} (x=${t.revoked_x}), compromised since ${since}: transition ${transitionId(t)}`);
    run.print(`  ${ref.fragment} now has a new key x=${t.new_x} (sequence ${t.sequence})`);
    run.print(
      times.length === 0
        ? '  the log has no checkpoint yet (nothing was published for this DID)'
        : '  checkpoints of the log, and when this data directory made them:',
    );
    for (const c of times)
      run.print(
        `    size ${c.tree_size}: ${c.made?.toISOString() ?? 'no release on disk carries it'}${c.tree_size <= trusted && c.made !== undefined && c.made < new Date(since) ? '  (made before the compromise)' : ''}`,
      );
    run.print(
      `  What ${name} signed stays valid only where the log holds it among its first ${trusted} entries; every other signature by it now reads INVALID (revoked).`,
    );
    run.print(
      'Publish now (gspc publish): it logs the revocation, signs with the new key, and serves the DID document that names the key revoked.',
    );
  });
}

/**
 * The DID whose log the keys sign: the current release's. Before the first publish there is no
 * log to continue, and `gspc keygen --force` replaces keys outright (it is allowed until then).
 */
function publishedDid(dataDir: string, command: string): string {
  const current = currentReleaseDir(dataDir);
  if (current === undefined)
    throw new GspcError(
      'release_not_found',
      `gspc ${command}: ${dataDir} has no current release, so no log depends on these keys yet: replace them with gspc keygen --force (allowed until the first publish); nothing was written`,
    );
  return releaseDid(loadRelease(current));
}

/** Key files are what rotate and revoke replace: not in a replica, and not on a token. */
function refuseManaged(config: ReturnType<ConfigSource>, command: string): void {
  if (config.token !== undefined)
    throw new GspcError(
      'config_invalid',
      `GSPC_SIGNER=pkcs11: ${command} replaces key files, and the keys are on the token '${config.token.token}'; rotating a token's key is not supported yet; nothing was written`,
    );
  if (isReplica(config.dataDir))
    throw new GspcError(
      'keys_in_use',
      `${config.dataDir} is a replica (gspc pull filled it): its keys are the publisher's. Run gspc ${command} on the publisher, then copy its key directory (every *.key, public-keys.json and transitions.json) here; nothing was written`,
    );
}

/** An ISO 8601 instant with a zone, as UTC; anything else is refused rather than read in local time. */
function parseInstant(text: string): string {
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)
    ? Date.parse(text)
    : Number.NaN;
  if (Number.isNaN(ms))
    throw new GspcError(
      'config_invalid',
      `--compromised-since '${text}' is not an ISO 8601 instant with a zone (e.g. 2026-11-28T09:00:00Z); nothing was written`,
    );
  return new Date(ms).toISOString();
}
