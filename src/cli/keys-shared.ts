/**
 * What the `gspc keys` commands share (keys-commands.ts, keys-migrate-command.ts): the directory
 * options, the refusals every key change makes before it writes anything, and what a staged
 * change says about itself.
 */
import type { ConfigOverrides, ConfigSource } from '../config.js';
import { GspcError } from '../core/errors.js';
import { settlePending } from '../keys/release-keys-follow.js';
import { currentReleaseDir } from '../release/data-dir.js';
import { loadRelease } from '../release/load.js';
import { isReplica } from '../release/release-keys.js';
import { releaseDid } from '../release/release-origin.js';

export interface DirOptions {
  options: readonly (readonly [string, string])[];
  overrides: (o: Record<string, string | undefined>) => ConfigOverrides;
}

export const PENDING_NOTE =
  'Pending until the next gspc publish, which logs it, signs with the new key and serves both together; until then every running service keeps serving exactly what it serves now (gspc keys status shows the pending change). Copy the key directory (pending.json included) to each replica before you pull the release there.';

/**
 * What every key change starts from: the configuration, the refusals that write nothing, an
 * interrupted publish's promotion finished, and the DID whose log the keys sign.
 */
export function prepare(
  configFor: ConfigSource,
  dirOptions: DirOptions,
  o: Record<string, string | undefined>,
  command: string,
  replacesTokenKey: boolean,
): { config: ReturnType<ConfigSource>; did: string } {
  const config = configFor(dirOptions.overrides(o));
  if (config.token !== undefined && replacesTokenKey)
    throw new GspcError(
      'config_invalid',
      `GSPC_SIGNER=pkcs11: ${command} replaces key files, and the keys are on the token '${config.token.token}'; rotating or revoking a token's key is not supported yet; nothing was written`,
    );
  if (isReplica(config.dataDir))
    throw new GspcError(
      'keys_in_use',
      `${config.dataDir} is a replica (gspc pull filled it): its keys are the publisher's. Run gspc ${command} on the publisher, then copy its key directory (its *.key files but identity-root.key, public-keys.json, transitions.json and pending.json) here; nothing was written`,
    );
  settlePending(config.keyDir, config.dataDir, config.token);
  return { config, did: publishedDid(config.dataDir, command) };
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
