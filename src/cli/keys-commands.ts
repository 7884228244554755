/**
 * `gspc keys rotate <board|agent-card|identity-root>` and `gspc keys revoke <kid>` (issues 30 and
 * 36). Each stages its change in the key directory (src/keys/pending-change.ts): the running
 * services keep serving exactly what they served, and the next `gspc publish` logs the change,
 * signs with the new key and serves both together (decision K9). A rotation of a signing key is
 * signed by the retired and the new key; a revocation and a rotation of the identity root need
 * the root's seed (`--root-key`, decision K8), so a copy of the public files cannot make one.
 * `keys migrate` and `keys status`: keys-migrate-command.ts.
 */
import { Argument, type Command } from 'commander';
import type { ConfigSource } from '../config.js';
import { GspcError } from '../core/errors.js';
import { transitionId } from '../core/evidence/key-transition.js';
import { ALL_KEYS, BOARD_KEY, ROOT_KEY, type KeyFragment } from '../core/evidence/signer.js';
import { parseIsoInstant } from '../core/iso-instant.js';
import { rootKeyFor } from '../keys/identity-root.js';
import { rootOf } from '../keys/key-files.js';
import { parseKeyRef, revokeKey } from '../keys/key-revocation.js';
import { rotateKey, rotateRoot } from '../keys/key-rotation.js';
import { nextKeyState } from '../keys/pending-change.js';
import { readPublic } from '../keys/key-files.js';
import { checkpointTimes, trustedRootAt, trustedSizeAt } from '../release/checkpoint-times.js';
import type { CliRun } from './cli-io.js';
import { withNewRootSeed } from './keygen-command.js';
import { registerMigrateCommands } from './keys-migrate-command.js';
import { PENDING_NOTE, prepare, type DirOptions } from './keys-shared.js';

/** The roles an operator names, and the key each is. */
export const ROLES: Readonly<Record<string, KeyFragment | typeof ROOT_KEY>> = {
  board: BOARD_KEY,
  'agent-card': 'card-attestation-2',
  [ROOT_KEY]: ROOT_KEY,
};

const ROOT_KEY_OPTION = [
  '--root-key <file>',
  'the identity root seed (default: <key dir>/identity-root.key, while it is still there)',
] as const;

export function registerKeysCommands(
  program: Command,
  run: CliRun,
  configFor: ConfigSource,
  dirOptions: DirOptions,
  now: () => Date,
): void {
  const keys = program
    .command('keys')
    .description('key lifecycles: rotate, revoke and migrate keys without breaking the log or what is served');
  const rotate = keys
    .command('rotate')
    .description(
      'replace one key with a new one; the retired and the new key both sign the transition, which the next publish logs',
    )
    .addArgument(new Argument('<role>', `the key to rotate: ${Object.keys(ROLES).join(', ')}`))
    .option(...ROOT_KEY_OPTION)
    .option(
      '--out <file>',
      'identity-root only: where to write the new root seed (default: where the old one was read)',
    );
  for (const [flag, help] of dirOptions.options) rotate.option(flag, help);
  rotate.action((role: string, o: Record<string, string | undefined>) => {
    const fragment = ROLES[role];
    if (fragment === undefined)
      throw new GspcError(
        'config_invalid',
        role === 'cards'
          ? `'cards' is not a key role: measurement cards are signed by the board key (#${BOARD_KEY}, which also signs the root and the log): rotate it with gspc keys rotate board; agent cards are signed by the agent-card key (#${ROLES['agent-card']}): rotate it with gspc keys rotate agent-card (decision K1); nothing was written`
          : `'${role}' is not a key role: give ${Object.keys(ROLES).join(', ')}; nothing was written`,
      );
    const { config, did } = prepare(configFor, dirOptions, o, 'keys rotate', fragment !== ROOT_KEY);
    const at = now().toISOString();
    if (fragment === ROOT_KEY) {
      const expected = rootOf(nextKeyState(config.keyDir, readPublic).public_keys);
      const root = rootKeyFor('keys rotate identity-root', {
        file: o['rootKey'],
        keyDir: config.keyDir,
        did,
        expected,
      });
      const out = o['out'] ?? root.path;
      const { record } = withNewRootSeed(out, o['out'] === undefined, (seed) =>
        rotateRoot(config.keyDir, root.signer, { did, at, seed }),
      );
      run.print(
        `rotated ${ROOT_KEY}, pending until the next publish: transition ${transitionId(record)} (sequence ${record.sequence})`,
      );
      run.print(`  retired root x=${record.old_x}`);
      run.print(`  new root     x=${record.new_x}`);
      run.print(PENDING_NOTE);
      run.warn(
        `gspc: the new identity root's seed is in ${out}: move it off this machine (it is never needed to serve or publish, only for gspc keys revoke and keys rotate identity-root); the old root's seed is of no further use`,
      );
      return;
    }
    const t = rotateKey(config.keyDir, fragment, { did, at });
    run.print(
      `rotated ${fragment} (${role}), pending until the next publish: transition ${transitionId(t)} (sequence ${t.sequence})`,
    );
    run.print(`  retired key x=${t.old_x}`);
    run.print(`  new key     x=${t.new_x}`);
    run.print(
      PENDING_NOTE +
        ' Earlier releases keep verifying under the retired key.' +
        (fragment === BOARD_KEY
          ? ' The log verifier key (/log/vkey) changes with the board key: give witnesses the new one.'
          : ''),
    );
  });

  const revoke = keys
    .command('revoke')
    .description(
      'the day a key leaks: replace the key, and record, signed by the identity root and the new key, that <kid> was compromised from an instant on; what it signed then counts only where the log shows it earlier',
    )
    .argument('<kid>', `${ALL_KEYS.join(', ')}, or a retired key as <fragment>~<n> (the DID document lists them)`)
    .requiredOption(
      '--compromised-since <instant>',
      'ISO 8601 instant with seconds and a zone from which the key may have been in other hands',
    )
    .option(...ROOT_KEY_OPTION);
  for (const [flag, help] of dirOptions.options) revoke.option(flag, help);
  revoke.action((kid: string, o: Record<string, string | undefined>) => {
    const ref = parseKeyRef(kid);
    const since = parseInstant(o['compromisedSince']!);
    const { config, did } = prepare(configFor, dirOptions, o, 'keys revoke', true);
    const expected = rootOf(nextKeyState(config.keyDir, readPublic).public_keys);
    const root = rootKeyFor('keys revoke', { file: o['rootKey'], keyDir: config.keyDir, did, expected });
    const times = checkpointTimes(config.dataDir, did);
    const trusted = trustedSizeAt(times, new Date(since));
    const t = revokeKey(config.keyDir, ref, {
      did,
      at: now().toISOString(),
      compromisedSince: since,
      trustedSize: trusted,
      trustedRoot: trustedRootAt(config.dataDir, did, trusted),
      root,
    });
    const name = `${ref.fragment}${ref.sequence === undefined ? '' : `~${ref.sequence}`}`;
    run.print(`revoked ${name} (x=${t.revoked_x}), compromised since ${since}: transition ${transitionId(t)}`);
    run.print(
      `  ${ref.fragment} now has a new key x=${t.new_x} (sequence ${t.sequence}), authorised by the identity root x=${t.root_x}`,
    );
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
      `  What ${name} signed stays valid only where the log holds it among its first ${trusted} entries; every other signature by it will read INVALID (revoked) once published.`,
    );
    run.print(
      `Pending until the next gspc publish: until then the services keep serving, and ${ref.fragment === BOARD_KEY ? 'the leaked key keeps signing live answers' : 'the revoked key keeps signing agent cards'}. Publish now (gspc publish): it logs the revocation, signs with the new key, and serves the DID document that names the key revoked.`,
    );
    // The log's verifier key is derived from the board key: a witness holding the old one refuses
    // every checkpoint the new key signs.
    if (ref.fragment === BOARD_KEY)
      run.print(
        'Witnesses: the log verifier key (/log/vkey) changes with the board key at that publish. Give each transparency-log witness the new /log/vkey right after it, or they stop cosigning the log.',
      );
  });
  registerMigrateCommands(keys, run, configFor, dirOptions, now);
}

/** A strict ISO 8601 instant with a zone, as UTC; anything else (or a day that does not exist) is refused. */
function parseInstant(text: string): string {
  const instant = parseIsoInstant(text);
  if (instant === undefined)
    throw new GspcError(
      'config_invalid',
      `--compromised-since '${text}' is not an ISO 8601 instant with seconds and a zone that exists (e.g. 2026-11-28T09:00:00Z; no 2026-02-30, 24:00:00 or :60); nothing was written`,
    );
  return instant;
}
