/**
 * Where `gspc verify` reads a release from: a running service (by base URL: the user's own
 * choice of URL, fetched by the user's own command), a release directory on disk, or a data
 * directory's current release (issue 39). All answer the service's public paths, so one verifier
 * checks any.
 */
import { GspcError } from '../core/errors.js';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { publishedUrl } from '../core/board/peritem-manifest.js';
import { currentReleaseDir } from '../release/data-dir.js';
import { EVIDENCE_DIR, EVIDENCE_URL_BY_FILE, evidenceUrl } from '../release/evidence.js';

/** A file a release directory holds, as its release.json lists it. */
export interface ListedFile {
  /** The path in the release directory. */
  path: string;
  /** The public path a reader fetches it at, or null for a file the service never serves. */
  url: string | null;
  /** The SHA-256 and length release.json states. */
  sha256: string;
  bytes: number;
  /** Reads the file and gives its SHA-256 and length (null when it is missing). */
  digest(): { sha256: string; bytes: number } | null;
}

export interface ReleaseSource {
  describe: string;
  /** Bytes at a public path, or undefined when it is not published there. */
  get(path: string): Promise<Buffer | undefined>;
  /** True for a running service or a mirror (served over HTTP); false for a release directory. */
  live: boolean;
  /** A release directory's own list of its files (release.json); a URL has none. */
  listing?(): Promise<ListedFile[]>;
  /** The data directory the reader named, when this is its current release. */
  dataDir?: string;
}

/** A document's bytes read as JSON (undefined when it is not published). */
/**
 * A document of the view, parsed. One that is not JSON is `release_invalid` with the parser's
 * words (printed inert by the CLI), not a SyntaxError whose stack, quoting the view's bytes, ended
 * `gspc verify` (review of issue 39).
 */
export const parseDocument = <T>(b: Buffer | undefined): T | undefined => {
  if (b === undefined) return undefined;
  try {
    return JSON.parse(b.toString('utf8')) as T;
  } catch (e) {
    throw new GspcError(
      'release_invalid',
      `a document the view serves is not JSON: ${(e as Error).message.slice(0, 200)}`,
    );
  }
};

export function urlSource(baseUrl: string): ReleaseSource {
  const base = baseUrl.replace(/\/$/, '');
  return {
    describe: base,
    live: true,
    async get(path) {
      let r: Response;
      try {
        r = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(30_000) });
      } catch (e) {
        // A refused connection, a DNS failure or the timeout: say which URL and why, not a stack.
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        throw new GspcError(
          'release_not_found',
          `${base}${path} could not be fetched: ${cause?.code ?? cause?.message ?? (e as Error).message}`,
        );
      }
      if (r.status === 404) return undefined;
      if (!r.ok) throw new Error(`GET ${path}: HTTP ${r.status}`);
      return Buffer.from(await r.arrayBuffer());
    },
  };
}

/** Public path → file of a release directory (docs/formats.md §2-3). */
function releasePath(path: string): string | undefined {
  if (path === '/peritem/manifest.json') return 'peritem-manifest.json';
  const evidence = Object.entries(EVIDENCE_URL_BY_FILE).find(([, url]) => url === path);
  if (evidence) return `${EVIDENCE_DIR}/${evidence[0]}`;
  let m = /^\/cards\/([0-9a-f]{16})\.json$/.exec(path);
  if (m) return `${EVIDENCE_DIR}/cards/${m[1]}.json`;
  m = /^\/peritem\/axes\/([a-z0-9-]+\.json)$/.exec(path);
  if (m) return `corpus/axes/${m[1]}`;
  m = /^\/peritem\/([a-z0-9-]+\.jsonl)$/.exec(path);
  if (m) return `corpus/peritem/${m[1]}`;
  if (
    path === '/peritem/board.json' ||
    path === '/peritem/lane.json' ||
    path === '/peritem/obligations.json' ||
    path === '/peritem/models.json' ||
    path === '/peritem/prices.json' ||
    path === '/peritem/runs.json'
  )
    return `corpus/${path.slice('/peritem/'.length)}`;
  // Status files and the corrections ledger (roles `status`, `corrections`; docs/status.md).
  m = /^\/peritem\/((?:status|corrections(?:\/entries)?)\/[A-Za-z0-9][A-Za-z0-9._-]*)$/.exec(path);
  if (m && !m[1]!.includes('..')) return `corpus/${m[1]}`;
  m = /^\/evidence\/([a-z0-9-]+\/[A-Za-z0-9][A-Za-z0-9._-]*)$/.exec(path);
  if (m && !m[1]!.includes('..')) return `corpus/evidence/${m[1]}`;
  return undefined;
}

export function dirSource(dir: string): ReleaseSource {
  return {
    describe: dir,
    live: false,
    async get(path) {
      const rel = releasePath(path);
      if (rel === undefined || !existsSync(join(dir, rel))) return undefined;
      return readFileSync(join(dir, rel));
    },
    async listing() {
      const desc = JSON.parse(readFileSync(join(dir, 'release.json'), 'utf8')) as {
        files: { path: string; sha256: string; bytes: number }[];
        evidence: { path: string; sha256: string; bytes: number }[];
      };
      const digest = (path: string) => () => {
        if (!existsSync(join(dir, path))) return null;
        const bytes = readFileSync(join(dir, path));
        return { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
      };
      return [
        ...desc.files.map((f) => ({
          path: `corpus/${f.path}`,
          url: publishedUrl(f.path).url,
          sha256: f.sha256,
          bytes: f.bytes,
          digest: digest(`corpus/${f.path}`),
        })),
        ...desc.evidence.map((f) => ({
          path: f.path,
          url: evidenceUrl(f.path) ?? null,
          sha256: f.sha256,
          bytes: f.bytes,
          digest: digest(f.path),
        })),
      ];
    },
  };
}

/**
 * The release a data directory's `current` link points at (`gspc publish`, `gspc pull`), when
 * `target` is a data directory: a directory whose `current` is a symbolic link. Undefined for any
 * other path; a data directory with no release there is refused, naming what it holds.
 */
function currentReleaseOf(target: string): string | undefined {
  let link: boolean;
  try {
    link = lstatSync(join(target, 'current')).isSymbolicLink();
  } catch {
    link = false;
  }
  if (!link) {
    if (existsSync(join(target, 'releases')))
      throw new GspcError(
        'release_not_found',
        `${target} is a data directory with no current release (nothing published or pulled into it yet)`,
      );
    return undefined;
  }
  const current = currentReleaseDir(target)!;
  if (!existsSync(join(current, 'release.json')))
    throw new GspcError(
      'release_not_found',
      `${target} is a data directory whose current release ${current} holds no release.json`,
    );
  return current;
}

/**
 * A target a reader names (`gspc verify`, `gspc diff`): a service's base URL, a release directory,
 * or a data directory (its current release, resolved once: a publish during the check does not
 * change what is checked).
 */
export function sourceOf(target: string): ReleaseSource {
  if (/^https?:\/\//.test(target)) return urlSource(target);
  if (existsSync(join(target, 'release.json'))) return dirSource(target);
  const current = currentReleaseOf(target);
  if (current !== undefined) return { ...dirSource(current), dataDir: target };
  throw new GspcError(
    'release_not_found',
    `${target} is neither an http(s) base URL, a release directory (no release.json) nor a data directory (no current release)`,
  );
}
