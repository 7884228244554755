/**
 * Which origin a release was published for, and whether a service may serve it. A release's
 * signatures name a did:web (its host and port), and readers resolve that DID from the origin they
 * fetch: a release signed for did:web:localhost%3A8080 served at localhost:9090 fails `gspc
 * verify` on every signature while the service would call it VERIFIED. So a service serves only
 * releases published for the DID it answers as (issue 16).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GspcError } from '../core/errors.js';
import type { LoadedRelease } from './load.js';

const PUBLIC_KEYS = 'evidence/public-keys.json';

/** The did:web a release was signed for: the `did` of its public keys. */
export function releaseDid(release: LoadedRelease): string {
  const bytes = release.evidence.files.get(PUBLIC_KEYS);
  const did = bytes === undefined ? undefined : (JSON.parse(bytes.toString('utf8')) as { did?: unknown }).did;
  if (typeof did !== 'string')
    throw new GspcError('release_invalid', `${release.dir}: ${PUBLIC_KEYS} names no did, so its origin is unknown`);
  return did;
}

/**
 * The did:web of a release directory's public keys, read without loading the release (undefined
 * when the file is missing or names none). Publish uses it to continue only the history (cards,
 * ledgers, log) of releases signed for the same DID: a card log's origin is the DID's host, and
 * the earlier cards are signed under that DID, so another origin's history would not verify.
 */
export function releaseDirDid(dir: string): string | undefined {
  try {
    const did = (JSON.parse(readFileSync(join(dir, PUBLIC_KEYS), 'utf8')) as { did?: unknown }).did;
    return typeof did === 'string' ? did : undefined;
  } catch {
    return undefined;
  }
}

/** The origin a release was published for, as its release.json or, before that was recorded, its DID says. */
export function releaseOrigin(release: LoadedRelease): string {
  return (
    release.descriptor.public_url ?? `the host ${releaseDid(release).slice('did:web:'.length).replace('%3A', ':')}`
  );
}

/**
 * Refuses a release published for another DID than `serviceDid` (the service at `baseUrl`), with
 * what to do about it.
 */
export function requireOrigin(release: LoadedRelease, serviceDid: string, baseUrl: string): void {
  const did = releaseDid(release);
  if (did === serviceDid) return;
  throw new GspcError(
    'release_wrong_origin',
    `release ${release.id} was published for ${releaseOrigin(release)} (${did}), but this service answers as ` +
      `${baseUrl} (${serviceDid}): served here, none of its signatures would verify. Publish it for this origin ` +
      `(gspc publish <corpus> --public-url ${baseUrl}), or serve it at the origin it names ` +
      `(gspc serve --public-url <that origin>, or GSPC_BASE_URL)`,
    { release: release.id, release_did: did, service_did: serviceDid },
  );
}
