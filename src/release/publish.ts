/**
 * `gspc publish`: validates a corpus and writes it as an immutable, content-addressed release.
 * The release is written to a temporary directory, fsynced, renamed into place, and only then
 * made current by renaming a symlink over `current`; a crash at any point leaves the previous
 * release served. Publishing the same corpus twice yields the same id and the same bytes.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { canonicalBytes } from '../core/crypto/canonical-json.js';
import { readCorpus, sha256Hex, type Corpus } from '../corpus/read-corpus.js';
import { deriveRelease } from './derive.js';
import { buildEvidence, type EvidenceInputs } from './evidence.js';
import { currentReleaseDir, fsyncDir, switchCurrent } from './data-dir.js';
import { loadBaseRelease, previousEvidence, previousLog } from './base-release.js';
import { loadRelease } from './load.js';
import { refuseEditedCorrections } from './corrections-guard.js';
import { RELEASE_SCHEMA, type ReleaseDescriptor } from './release-descriptor.js';
import { validateNotices } from './validate-notices.js';
import type { CorpusProblem } from '../core/errors.js';

export interface PublishResult {
  id: string;
  dir: string;
  /** True when an identical release already existed and was made current again. */
  reused: boolean;
  /** What `gspc validate` would say beyond "well formed" (validate-notices.ts): published anyway. */
  notices: CorpusProblem[];
}

/** Test hook: called between the steps of a publish, so a test can simulate a crash. */
export type PublishStep = 'files-written' | 'release-renamed';

export interface PublishOptions {
  /**
   * The public origin the release is published for (scheme, host, port), recorded in release.json
   * as `public_url` and covered by the release id. The signing DID names its host and port.
   */
  publicUrl?: string;
  /** Test hook: called between the steps of a publish, so a test can simulate a crash. */
  onStep?: (s: PublishStep) => void;
  /**
   * false: write the release into place but leave `current` as it is (the caller checks the
   * release first, then calls `switchCurrent`: src/verify/verified-publish.ts). Default true.
   */
  makeCurrent?: boolean;
}

export function describeRelease(
  corpus: Corpus,
  inputs: EvidenceInputs,
  publicUrl?: string,
): { descriptor: ReleaseDescriptor; manifestBytes: Buffer; evidence: Map<string, Buffer>; notices: CorpusProblem[] } {
  const derived = deriveRelease(corpus);
  const evidence = buildEvidence(corpus, derived, inputs);
  const files = corpus.files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.bytes.length }));
  const evidenceList = [...evidence]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([path, bytes]) => ({ path, sha256: sha256Hex(bytes), bytes: bytes.length }));
  // The id covers the evidence too: the same corpus signed by other keys is another release; and
  // the public origin when one is recorded (http and https on one host sign alike, but differ).
  const id = `r-${sha256Hex(canonicalBytes({ files, evidence: evidenceList, ...(publicUrl !== undefined && { public_url: publicUrl }) })).slice(0, 20)}`;
  const descriptor: ReleaseDescriptor = {
    schema: RELEASE_SCHEMA,
    id,
    as_of: corpus.meta.as_of,
    peritem_sha256: derived.source.peritem.sha256,
    peritem_rows: derived.source.peritem.rows,
    files,
    evidence: evidenceList,
    ...(publicUrl !== undefined && { public_url: publicUrl }),
  };
  return { descriptor, manifestBytes: derived.manifestBytes, evidence, notices: validateNotices(corpus, derived) };
}

export function publishRelease(
  corpusDir: string,
  dataDir: string,
  signing: Omit<EvidenceInputs, 'previous' | 'previousLog'>,
  opts: PublishOptions = {},
): PublishResult {
  const { onStep, publicUrl } = opts;
  const corpus = readCorpus(corpusDir);
  // The release this one continues, by one rule, read once and hash-checked (base-release.ts).
  const base = loadBaseRelease(dataDir, signing.did);
  // Published corrections are never edited: a changed or removed entry of the release being
  // replaced refuses the publish (that release is the base, or, for a new origin, `current`).
  const current = currentReleaseDir(dataDir);
  refuseEditedCorrections(
    corpus,
    base?.descriptor ?? (current === undefined ? undefined : loadRelease(current).descriptor),
  );
  const previous = base === undefined ? undefined : previousEvidence(base);
  const log = base === undefined ? undefined : previousLog(base);
  const { descriptor, manifestBytes, evidence, notices } = describeRelease(
    corpus,
    {
      ...signing,
      ...(previous && { previous }),
      ...(log && { previousLog: log }),
    },
    publicUrl,
  );
  const releases = join(dataDir, 'releases');
  mkdirSync(releases, { recursive: true });
  const dir = join(releases, descriptor.id);
  const reused = existsSync(join(dir, 'release.json'));
  if (!reused) {
    const tmp = join(releases, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
    try {
      for (const f of corpus.files) writeDurably(join(tmp, 'corpus', f.path), f.bytes);
      for (const [path, bytes] of evidence) writeDurably(join(tmp, path), bytes);
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
  if (opts.makeCurrent !== false) switchCurrent(dataDir, dir);
  return { id: descriptor.id, dir, reused, notices };
}

function writeDurably(path: string, bytes: Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, bytes, { flag: 'wx' });
  } catch (e) {
    // A write that fails after the open (ENOSPC) names no path: name the file for the message.
    (e as NodeJS.ErrnoException).path ??= path;
    throw e;
  }
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
