/**
 * `gspc keys migrate` (issue 36, decision K10): a key directory made before the identity root
 * gets one, and the root endorses the directory's issue-30 revocations (signed by their new key
 * only), staged for the next publish. `gspc keys status`: the keys, the root (and whether its
 * seed is still on this machine), and the change waiting for the next publish.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { ConfigSource } from '../config.js';
import { transitionId, type TransitionRecord } from '../core/evidence/key-transition.js';
import { ALL_KEYS, ROOT_KEY } from '../core/evidence/signer.js';
import { didForHost } from '../core/evidence/did.js';
import { rootKeyFor } from '../keys/identity-root.js';
import { readPublic, readTransitions, ROOT_FILE, rootOf } from '../keys/key-files.js';
import { migrateKeys, unendorsedRevocations } from '../keys/key-migration.js';
import { nextKeyState, pendingRecords, readPending } from '../keys/pending-change.js';
import { settlePending } from '../keys/release-keys-follow.js';
import { signingContext } from '../keys/signing.js';
import { currentReleaseDir } from '../release/data-dir.js';
import { releaseDirDid } from '../release/release-origin.js';
import type { CliRun } from './cli-io.js';
import { rootWarning, withNewRootSeed } from './keygen-command.js';
import { PENDING_NOTE, prepare, type DirOptions } from './keys-shared.js';

/** One line for a transition record. */
export function describeRecord(t: TransitionRecord): string {
  if (t.kind === 'adoption')
    return `adoption by ${ROOT_KEY} x=${t.root_x}, endorsing ${t.endorses.length} earlier revocation${t.endorses.length === 1 ? '' : 's'}`;
  const what = t.kind === 'rotation' ? 'rotation' : 'sig_root' in t ? 'revocation' : 'revocation (issue-30 format)';
  return `${what} of ${t.fragment} (sequence ${t.sequence}): new key x=${t.new_x}`;
}

export function registerMigrateCommands(
  keys: Command,
  run: CliRun,
  configFor: ConfigSource,
  dirOptions: DirOptions,
  now: () => Date,
): void {
  const migrate = keys
    .command('migrate')
    .description(
      'give a key directory made before the identity root existed its root, and have the root endorse its earlier revocations; the next publish publishes both',
    )
    .option('--out <file>', `where to write the new root seed (default: <key dir>/${ROOT_FILE})`)
    .option(
      '--root-key <file>',
      'the identity root seed, when the directory has a root and only an endorsement is needed',
    );
  for (const [flag, help] of dirOptions.options) migrate.option(flag, help);
  migrate.action((o: Record<string, string | undefined>) => {
    const { config, did } = prepare(configFor, dirOptions, o, 'keys migrate', false);
    const expected = rootOf(nextKeyState(config.keyDir, readPublic).public_keys);
    const legacy = unendorsedRevocations(
      nextKeyState(config.keyDir, readPublic).transitions as unknown as Record<string, unknown>[],
      did,
    );
    if (expected !== undefined && legacy.length === 0) {
      run.print(
        `${config.keyDir} already has an identity root (x=${expected}) and nothing to endorse: nothing to migrate`,
      );
      return;
    }
    const root =
      expected === undefined
        ? undefined
        : rootKeyFor('keys migrate', { file: o['rootKey'], keyDir: config.keyDir, did, expected });
    const out = o['out'] ?? join(config.keyDir, ROOT_FILE);
    const board = signingContext(config.keyDir, config.didHost, config.token, { next: true }).keys.state(
      'board-attestation-1',
    );
    const migrate = (seed?: Buffer) =>
      migrateKeys(config.keyDir, { did, at: now().toISOString(), board, ...(root && { root }), ...(seed && { seed }) });
    // A new root's seed is saved before the change that publishes it is staged.
    const m = expected === undefined ? withNewRootSeed(out, false, migrate) : migrate();
    if (m === undefined) return;
    if (m.seed !== undefined) run.print(`created ${ROOT_KEY} x=${m.root} in ${out}`);
    if (m.adoption !== undefined)
      run.print(
        `adoption ${transitionId(m.adoption)}: the identity root endorses ${m.endorsed.length} revocation${m.endorsed.length === 1 ? '' : 's'} signed by the new key only (${m.endorsed.map((e) => e.slice(0, 16)).join(', ')})`,
      );
    run.print(PENDING_NOTE);
    if (m.seed !== undefined) run.warn(rootWarning(out));
  });

  const status = keys
    .command('status')
    .description('the keys, the identity root, and the key change waiting for the next publish')
    .option('--json', 'print the status as JSON');
  for (const [flag, help] of dirOptions.options) status.option(flag, help);
  status.action((o: Record<string, string | undefined> & { json?: boolean }) => {
    const config = configFor(dirOptions.overrides(o));
    settlePending(config.keyDir, config.dataDir, config.token);
    const current = currentReleaseDir(config.dataDir);
    const did = (current && releaseDirDid(current)) ?? didForHost(config.didHost);
    const recorded = readPublic(config.keyDir);
    // A data directory that holds a release (a replica's, or the publisher's own) gets no new keys
    // from gspc keygen (review finding 4c): a missing key file is copied from the publisher.
    const health = signingContext(config.keyDir, config.didHost, config.token).keys.health.map((h) =>
      current !== undefined && h.reason === 'the key file is missing (run gspc keygen)'
        ? {
            ...h,
            reason: `the key file is missing: this data directory serves a published log, so copy the publisher's key directory here (its *.key files but identity-root.key, public-keys.json, transitions.json and pending.json, owner-only); do not run gspc keygen for a replica`,
          }
        : h,
    );
    const pending = readPending(config.keyDir);
    const added = pendingRecords(config.keyDir, pending);
    const legacy = unendorsedRevocations(
      (pending?.transitions ?? readTransitions(config.keyDir)) as unknown as Record<string, unknown>[],
      did,
    );
    const rootSeedHere = existsSync(join(config.keyDir, ROOT_FILE));
    const report = {
      key_dir: config.keyDir,
      did,
      keys: ALL_KEYS.map((f) => ({ fragment: f, x: recorded[f] ?? null, ...health.find((h) => h.fragment === f) })),
      identity_root: { x: rootOf(recorded) ?? null, seed_on_this_machine: rootSeedHere },
      transitions: readTransitions(config.keyDir).filter((t) => t.did === did).length,
      pending: added.map((t) => ({
        id: transitionId(t),
        kind: t.kind,
        fragment: t.fragment,
        summary: describeRecord(t),
      })),
      pending_root: pending === undefined ? null : (rootOf(pending.public_keys) ?? null),
      unendorsed_revocations: legacy,
    };
    if (o.json === true) {
      run.json(report);
      return;
    }
    run.print(`key directory ${config.keyDir} (${did})`);
    for (const k of report.keys)
      run.print(
        `  ${k.fragment.padEnd(20)} ${k.x === null ? 'none' : `x=${k.x}`}  ${k.healthy ? 'healthy' : `unhealthy: ${k.reason}`}`,
      );
    run.print(
      `  ${ROOT_KEY.padEnd(20)} ${report.identity_root.x === null ? 'none (made before issue 36: gspc keys migrate)' : `x=${report.identity_root.x}`}  ${rootSeedHere ? `its seed is on this machine (${join(config.keyDir, ROOT_FILE)}): move it away` : 'seed not here (kept off this machine)'}`,
    );
    run.print(`  ${report.transitions} key transition${report.transitions === 1 ? '' : 's'} published`);
    if (pending === undefined) run.print('no pending key change');
    else {
      run.print('pending key change (published with the next gspc publish):');
      for (const p of report.pending) run.print(`  ${p.summary}`);
      if (report.pending_root !== report.identity_root.x && report.pending_root !== null)
        run.print(`  identity root after it: x=${report.pending_root}`);
    }
    if (legacy.length > 0)
      run.warn(
        `gspc: warning: ${legacy.length} revocation${legacy.length === 1 ? ' is' : 's are'} signed by the new key only (the issue-30 format), which verifiers refuse until the identity root endorses ${legacy.length === 1 ? 'it' : 'them'}: run gspc keys migrate, then publish`,
      );
  });
}
