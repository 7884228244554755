/**
 * `gspc publish`: validates a corpus and writes it as an immutable, content-addressed release.
 * The release is written to a temporary directory, fsynced, renamed into place, and only then
 * made current by renaming a symlink over `current`; a crash at any point leaves the previous
 * release served. Publishing the same corpus twice yields the same id and the same bytes.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { canonicalBytes } from '../core/crypto/canonical-json.js';
import { readCorpus, sha256Hex, type Corpus } from '../corpus/read-corpus.js';
import { deriveRelease } from './derive.js';

export const RELEASE_SCHEMA = 'svc.gspc-release/1';

export interface ReleaseDescriptor {
  schema: typeof RELEASE_SCHEMA;
  id: string;
  as_of: string;
  peritem_sha256: string;
  peritem_rows: number;
  files: { path: string; sha256: string; bytes: number }[];
}

export interface PublishResult {
  id: string;
  dir: string;
  /** True when an identical release already existed and was made current again. */
  reused: boolean;
}

/** Test hook: called between the steps of a publish, so a test can simulate a crash. */
export type PublishStep = 'files-written' | 'release-renamed';

export function describeRelease(corpus: Corpus): { descriptor: ReleaseDescriptor; manifestBytes: Buffer } {
  const derived = deriveRelease(corpus);
  const files = corpus.files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.bytes.length }));
  const id = `r-${sha256Hex(canonicalBytes(files)).slice(0, 20)}`;
  const descriptor: ReleaseDescriptor = {
    schema: RELEASE_SCHEMA, id, as_of: corpus.meta.as_of,
    peritem_sha256: derived.source.peritem.sha256, peritem_rows: derived.source.peritem.rows, files,
  };
  return { descriptor, manifestBytes: derived.manifestBytes };
}

export function publishRelease(corpusDir: string, dataDir: string, onStep?: (s: PublishStep) => void): PublishResult {
  const corpus = readCorpus(corpusDir);
  const { descriptor, manifestBytes } = describeRelease(corpus);
  const releases = join(dataDir, 'releases');
  mkdirSync(releases, { recursive: true });
  const dir = join(releases, descriptor.id);
  const reused = existsSync(join(dir, 'release.json'));
  if (!reused) {
    const tmp = join(releases, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
    try {
      for (const f of corpus.files) writeDurably(join(tmp, 'corpus', f.path), f.bytes);
      writeDurably(join(tmp, 'peritem-manifest.json'), manifestBytes);
      writeDurably(join(tmp, 'release.json'), Buffer.from(`${JSON.stringify(descriptor, null, 2)}\n`));
      onStep?.('files-written');
      renameSync(tmp, dir);
      fsyncDir(releases);
    } catch (err) {
      rmSync(tmp, { recursive: true, force: true });
      throw err;
    }
  }
  onStep?.('release-renamed');
  switchCurrent(dataDir, dir);
  return { id: descriptor.id, dir, reused };
}

/** Atomically points `<dataDir>/current` at `releaseDir` (symlink written aside, then renamed). */
export function switchCurrent(dataDir: string, releaseDir: string): void {
  const link = join(dataDir, 'current');
  const tmp = `${link}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  symlinkSync(relative(dataDir, releaseDir), tmp);
  renameSync(tmp, link);
  fsyncDir(dataDir);
}

function writeDurably(path: string, bytes: Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes, { flag: 'wx' });
  const fd = openSync(path, 'r');
  try { fsyncSync(fd); } finally { closeSync(fd); }
}

function fsyncDir(path: string): void {
  const fd = openSync(path, 'r');
  try { fsyncSync(fd); } finally { closeSync(fd); }
}
