/**
 * The published per-item manifest (`/peritem/manifest.json`): every corpus file a reader
 * needs to re-derive the board, with its SHA-256, size and (for row files) row count.
 * `measured_on.peritem_sha256` is the SHA-256 of these exact bytes (RFC 8785 form).
 */
import { createHash } from 'node:crypto';
import { canonicalBytes } from '../crypto/canonical-json.js';

export const PERITEM_MANIFEST_SCHEMA = 'svc.peritem-manifest/1';

export interface ManifestInput {
  /** Path relative to the corpus root, e.g. `peritem/governance.jsonl`. */
  path: string;
  sha256: string;
  bytes: number;
  /** Row count for per-item JSONL files. */
  rows?: number;
}

export interface PeritemManifest {
  schema: typeof PERITEM_MANIFEST_SCHEMA;
  as_of: string;
  rows: number;
  files: { url: string; role: string; axis?: string; sha256: string; bytes: number; rows?: number }[];
}

/** Where a corpus file is published, and what role it plays. */
export function publishedUrl(path: string): { url: string; role: string; axis?: string } {
  const m = /^(axes|peritem)\/([a-z0-9-]+)\.(json|jsonl)$/.exec(path);
  if (m && m[1] === 'peritem') return { url: `/peritem/${m[2]}.jsonl`, role: 'per-item-rows', axis: m[2]! };
  if (m && m[1] === 'axes') return { url: `/peritem/axes/${m[2]}.json`, role: 'axis-definition', axis: m[2]! };
  const ev = /^evidence\/([a-z0-9-]+)\/(.+)$/.exec(path);
  if (ev) return { url: `/${path}`, role: 'evidence', axis: ev[1]! };
  const role =
    path === 'board.json'
      ? 'board-metadata'
      : path === 'obligations.json'
        ? 'obligations'
        : path === 'lane.json'
          ? 'lane-entries'
          : path === 'models.json'
            ? 'model-cards'
            : path === 'runs.json'
              ? 'run-settings'
              : path === 'prices.json'
                ? 'prices'
                : path.startsWith('corrections/')
                  ? 'corrections'
                  : path.startsWith('status/')
                    ? 'status'
                    : 'corpus-file';
  return { url: `/peritem/${path}`, role };
}

export function buildPeritemManifest(
  asOf: string,
  files: readonly ManifestInput[],
): { manifest: PeritemManifest; bytes: Buffer; sha256: string } {
  const entries = files.map((f) => ({
    ...publishedUrl(f.path),
    sha256: f.sha256,
    bytes: f.bytes,
    ...(f.rows !== undefined && { rows: f.rows }),
  }));
  const manifest: PeritemManifest = {
    schema: PERITEM_MANIFEST_SCHEMA,
    as_of: asOf,
    rows: files.reduce((s, f) => s + (f.rows ?? 0), 0),
    files: entries,
  };
  const bytes = canonicalBytes(manifest);
  return { manifest, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}
