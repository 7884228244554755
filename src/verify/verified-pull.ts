/**
 * `gspc pull <source> --data-dir <dir>`: how a new release reaches a replica without a shared
 * disk (docs/operations.md, "Replicas"). The source is where the publisher's releases are: its
 * data directory (or one release directory) on a path, or the same tree served over HTTP(S) by
 * any static server (`<base>/current/release.json`, then `<base>/releases/<id>/…`). The release
 * is copied file by file into a staging directory beside the replica's releases, each file
 * checked against the SHA-256 and length its release.json states as it arrives; then the whole
 * release is checked with the checks of `gspc verify`, and only then renamed into place and made
 * current. A release that fails is removed and the replica's current release stays served.
 * `gspc serve` picks the new current up (on its reload interval, or at once on SIGHUP).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GspcError } from '../core/errors.js';
import { currentReleaseDir, switchCurrent } from '../release/data-dir.js';
import { withPublishLock } from '../release/publish-lock.js';
import { RELEASE_SCHEMA, type ReleaseDescriptor } from '../release/release-descriptor.js';
import { REPLICA_MARKER, recordedKeys, requireReleaseKeys } from '../release/release-keys.js';
import type { PublishedKey } from '../core/evidence/did.js';
import { dirSource } from './release-source.js';
import { verifyRelease } from './release-verifier.js';

export interface PullResult {
  id: string;
  dir: string;
  /** `pulled`: copied, checked and made current; `switched`: pulled before, made current again; `current`: nothing to do. */
  outcome: 'pulled' | 'current' | 'switched';
  files: number;
  bytes: number;
  checks: number;
}

/** Where release files come from: a path or an HTTP(S) base. */
interface PullSource {
  describe: string;
  /** The descriptor of the release to pull and where its files are read from. */
  descriptor(): Promise<{ descriptor: ReleaseDescriptor; bytes: Buffer }>;
  file(id: string, path: string): Promise<Buffer>;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function parseDescriptor(bytes: Buffer, where: string): ReleaseDescriptor {
  let d: ReleaseDescriptor;
  try {
    d = JSON.parse(bytes.toString('utf8')) as ReleaseDescriptor;
  } catch (e) {
    throw new GspcError('release_invalid', `${where}: not JSON (${(e as Error).message})`);
  }
  if (
    d.schema !== RELEASE_SCHEMA ||
    !/^r-[0-9a-f]{20}$/.test(String(d.id)) ||
    !Array.isArray(d.files) ||
    !Array.isArray(d.evidence)
  )
    throw new GspcError('release_invalid', `${where}: not a ${RELEASE_SCHEMA} descriptor`);
  for (const f of [...d.files, ...d.evidence])
    if (typeof f.path !== 'string' || f.path.split('/').some((s) => s === '' || s === '.' || s === '..'))
      throw new GspcError(
        'release_invalid',
        `${where}: a file path that leaves the release: ${JSON.stringify(f.path)}`,
      );
  return d;
}

function pathSource(src: string): PullSource {
  const releaseDir = existsSync(join(src, 'release.json')) ? src : currentReleaseDir(src);
  if (releaseDir === undefined)
    throw new GspcError(
      'release_not_found',
      `${src} is neither a release directory nor a data directory with a current release`,
    );
  return {
    describe: src,
    async descriptor() {
      const bytes = readFileSync(join(releaseDir, 'release.json'));
      return { descriptor: parseDescriptor(bytes, join(releaseDir, 'release.json')), bytes };
    },
    async file(_id, path) {
      return readFileSync(join(releaseDir, path));
    },
  };
}

function httpSource(base: string): PullSource {
  const root = base.replace(/\/$/, '');
  const get = async (url: string): Promise<Buffer> => {
    let r: Response;
    try {
      r = await fetch(url, { signal: AbortSignal.timeout(60_000), redirect: 'error' });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new GspcError(
        'release_not_found',
        `cannot fetch ${url} (${cause?.code ?? cause?.message ?? (e as Error).message}); nothing was changed`,
      );
    }
    if (!r.ok) throw new GspcError('release_not_found', `GET ${url}: HTTP ${r.status}`);
    return Buffer.from(await r.arrayBuffer());
  };
  return {
    describe: root,
    async descriptor() {
      const url = `${root}/current/release.json`;
      const bytes = await get(url);
      return { descriptor: parseDescriptor(bytes, url), bytes };
    },
    // From the release's own immutable directory, not through `current`, which may move meanwhile.
    file: (id, path) => get(`${root}/releases/${id}/${path}`),
  };
}

/**
 * The replica's own keys: a replica that holds keys must hold the publisher's (`gspc serve` would
 * refuse others); one that holds none yet may pull, and is told to copy them before serving.
 */
export interface ReplicaKeys {
  keyDir: string;
  published: readonly PublishedKey[];
}

export async function pullRelease(
  source: string,
  dataDir: string,
  expectedDid: string,
  replicaKeys?: ReplicaKeys,
): Promise<PullResult> {
  const src = /^https?:\/\//.test(source) ? httpSource(source) : pathSource(source);
  const { descriptor, bytes } = await src.descriptor();
  return withPublishLock(dataDir, async () => {
    const releases = join(dataDir, 'releases');
    const target = join(releases, descriptor.id);
    const current = currentReleaseDir(dataDir);
    if (current !== undefined && current === target)
      return { id: descriptor.id, dir: target, outcome: 'current', files: 0, bytes: 0, checks: 0 };
    mkdirSync(releases, { recursive: true });
    const staging = join(releases, `.tmp-pull-${descriptor.id}-${randomBytes(4).toString('hex')}`);
    let copied = 0;
    try {
      const wanted = [
        ...descriptor.files.map((f) => ({ ...f, path: `corpus/${f.path}` })),
        ...descriptor.evidence,
        { path: 'peritem-manifest.json', sha256: descriptor.peritem_sha256, bytes: -1 },
      ];
      for (const f of wanted) {
        const body = await src.file(descriptor.id, f.path);
        if (sha256(body) !== f.sha256 || (f.bytes !== -1 && body.length !== f.bytes))
          throw new GspcError(
            'release_invalid',
            `${src.describe}: ${f.path} of release ${descriptor.id} is not the file its release.json states (SHA-256 ${sha256(body)}, ${body.length} bytes); nothing was made current`,
          );
        mkdirSync(dirname(join(staging, f.path)), { recursive: true });
        try {
          writeFileSync(join(staging, f.path), body);
        } catch (e) {
          (e as NodeJS.ErrnoException).path ??= join(staging, f.path); // ENOSPC names no path
          throw e;
        }
        copied += body.length;
      }
      writeFileSync(join(staging, 'release.json'), bytes);
      const keysBytes = readFileSync(join(staging, 'evidence', 'public-keys.json'));
      const keys = JSON.parse(keysBytes.toString('utf8')) as { did?: string };
      if (keys.did !== expectedDid)
        throw new GspcError(
          'release_wrong_origin',
          `release ${descriptor.id} was published for ${String(keys.did)}, but this replica answers as ${expectedDid}: its signatures would not verify here; pull a release published for this origin (or set --public-url / GSPC_BASE_URL)`,
        );
      if (replicaKeys !== undefined && replicaKeys.published.length > 0)
        requireReleaseKeys({ id: descriptor.id, keys: recordedKeys(keysBytes) }, replicaKeys.published, {
          keyDir: replicaKeys.keyDir,
          replica: true,
        });
      const report = await verifyRelease(dirSource(staging));
      if (!report.ok) {
        const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.check}: ${c.detail}`);
        throw new GspcError(
          'release_invalid',
          `release ${descriptor.id} from ${src.describe} fails the checks of gspc verify, so it was not made current: ${failed.join(' | ')}`,
          { release: descriptor.id, failed },
        );
      }
      // Pulled before (and checked then), not current now: the same bytes, made current again.
      const existed = existsSync(target);
      if (existed) rmSync(staging, { recursive: true, force: true });
      else renameSync(staging, target);
      switchCurrent(dataDir, target);
      writeFileSync(join(dataDir, REPLICA_MARKER), `${JSON.stringify({ source: src.describe }, null, 2)}\n`);
      return {
        id: descriptor.id,
        dir: target,
        outcome: existed ? 'switched' : 'pulled',
        files: wanted.length + 1,
        bytes: copied + bytes.length,
        checks: report.checks.length,
      };
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  });
}
