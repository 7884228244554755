/**
 * `gspc publish <corpus>`: validate, sign, check as `gspc verify` does, and make current
 * (src/verify/verified-publish.ts). It signs with the keys the key directory will have after its
 * pending change (a rotation, revocation or migration staged by `gspc keys`), so the release logs
 * the change and is served with it; once that release is current the change becomes the key
 * directory's own (decision K9). Before anything is written it refuses a corrections ledger whose
 * signature would read INVALID when served (issue 36). After it, the key directory records that
 * it signs a published log (src/keys/key-use.ts).
 */
import type { Command } from 'commander';
import type { ConfigOverrides, ConfigSource } from '../config.js';
import { formatProblem, GspcError } from '../core/errors.js';
import { recordUse } from '../keys/key-use.js';
import { pendingRecords } from '../keys/pending-change.js';
import { recordedOfDir, settlePending } from '../keys/release-keys-follow.js';
import { signingContext } from '../keys/signing.js';
import { refuseInvalidCorrectionsSignature } from '../release/corrections-signature-guard.js';
import { SCAFFOLD_NOTICE } from '../release/validate-notices.js';
import { publishVerified } from '../verify/verified-publish.js';
import type { CliRun } from './cli-io.js';
import { describeRecord } from './keys-migrate-command.js';

/** `a, b: reason; c: other reason`: the keys grouped by what is wrong with them. */
function byReason(keys: readonly { fragment: string; reason?: string | null }[]): string {
  const groups = new Map<string, string[]>();
  for (const k of keys) {
    const reason = (k.reason ?? 'unhealthy').replace(/ \(run gspc keygen\)$/, '');
    groups.set(reason, [...(groups.get(reason) ?? []), k.fragment]);
  }
  return [...groups].map(([reason, fragments]) => `${fragments.join(', ')}: ${reason}`).join('; ');
}

export function registerPublishCommand(
  program: Command,
  run: CliRun,
  configFor: ConfigSource,
  options: readonly (readonly [string, string])[],
  overrides: (o: Record<string, string | undefined>) => ConfigOverrides,
): void {
  const command = program
    .command('publish')
    .description('validate a corpus and publish it, signed, as the current immutable release')
    .argument('<corpus-dir>', 'the corpus directory (docs/formats.md)');
  for (const [flag, help] of options) command.option(flag, help);
  command
    .option('--allow-unsigned', 'publish even when the keys are missing or unhealthy (the board then says UNSIGNED)')
    .action(async (corpusDir: string, o: Record<string, string | undefined> & { allowUnsigned?: boolean }) => {
      const config = configFor(overrides(o));
      // A publish interrupted between making its release current and promoting the change is finished first.
      settlePending(config.keyDir, config.dataDir, config.token);
      const signing = signingContext(config.keyDir, config.didHost, config.token, { next: true });
      const unhealthy = signing.keys.health.filter((k) => !k.healthy);
      if (unhealthy.length > 0 && o.allowUnsigned !== true)
        throw new GspcError(
          'keys_unhealthy',
          config.token !== undefined
            ? `no usable signing keys on the token '${config.token.token}' (${byReason(unhealthy)}): create an Ed25519 key pair labelled with each key's name on the token, or publish unsigned with --allow-unsigned; nothing was published`
            : `no usable signing keys in ${config.keyDir} (${byReason(unhealthy)}): ` +
                `create them with \`gspc keygen --data-dir ${config.dataDir}\`${o['keyDir'] === undefined ? '' : ` (or --key-dir ${config.keyDir})`}, ` +
                'or publish unsigned with --allow-unsigned; nothing was published',
        );
      refuseInvalidCorrectionsSignature(
        corpusDir,
        { did: signing.did, published: signing.keys.published, transitions: signing.keys.transitions },
        `sign the ledger again for this origin and these keys: gspc corrections sign ${corpusDir} --data-dir ${config.dataDir}${o['keyDir'] === undefined ? '' : ` --key-dir ${config.keyDir}`} --public-url ${config.baseUrl}, then publish`,
      );
      const staged = signing.keys.pending ? pendingRecords(config.keyDir) : [];
      const r = await publishVerified(corpusDir, config.dataDir, signing.inputs, {
        publicUrl: config.baseUrl,
        unsigned: unhealthy.length > 0,
      });
      const promoted = signing.keys.pending && settlePending(config.keyDir, config.dataDir, config.token);
      if (unhealthy.length === 0)
        recordUse(config.keyDir, {
          did: signing.did,
          release: r.id,
          log_size: recordedOfDir(r.dir)?.entries.length ?? 0,
        });
      run.print(`${r.reused ? 'unchanged' : 'published'} ${r.id} for ${config.baseUrl} (${signing.did})\n${r.dir}`);
      if (r.verification.checked)
        run.print(
          `verified: ${r.verification.checks} checks and ${r.verification.cards} cards pass, as gspc verify checks them`,
        );
      else run.warn(`gspc: warning: not verified: ${r.verification.why}`);
      if (promoted) {
        run.print(`the pending key change is published and now the key directory's own (${config.keyDir}):`);
        for (const t of staged) run.print(`  ${describeRecord(t)}`);
        run.print(
          'Running services switch to the new keys with this release; copy the key directory to each replica, then gspc pull there.',
        );
      }
      // The scaffold is a statement about who publishes: said loudly. The other notices are what
      // the board itself states (UNTESTED with its reason, a row not quotable): counted.
      const scaffold = r.notices.filter((n) => n.reason === SCAFFOLD_NOTICE);
      for (const n of scaffold) run.warn(`gspc: warning: published with ${formatProblem(n)}`);
      const others = r.notices.length - scaffold.length;
      if (others > 0)
        run.print(
          `${others} notice${others === 1 ? '' : 's'} (the board states each; \`gspc validate ${corpusDir}\` lists them)`,
        );
      for (const h of unhealthy)
        run.warn(`gspc: warning: key ${h.fragment} is unhealthy (${h.reason}); what it signs is published unsigned`);
    });
}
