/**
 * Loads a release directory for serving: every file is checked against the SHA-256 recorded
 * in release.json (a tampered or half-copied release is refused, never served), then the
 * board source is derived from the same bytes the release publishes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GspcError } from '../core/errors.js';
import { readCorpus, sha256Hex, type Corpus } from '../corpus/read-corpus.js';
import { loadEvidence, type LoadedEvidence } from './load-evidence.js';
import { deriveRelease, type DerivedRelease } from './derive.js';
import { RELEASE_SCHEMA, type ReleaseDescriptor } from './release-descriptor.js';

export interface LoadedRelease extends DerivedRelease {
  id: string;
  dir: string;
  corpusDir: string;
  corpus: Corpus;
  descriptor: ReleaseDescriptor;
  evidence: LoadedEvidence;
}

export function loadRelease(dir: string): LoadedRelease {
  const descPath = join(dir, 'release.json');
  if (!existsSync(descPath))
    throw new GspcError(
      'release_not_found',
      `no release.json in ${dir}: not a release directory (run gspc publish first)`,
    );
  let descriptor: ReleaseDescriptor;
  try {
    descriptor = JSON.parse(readFileSync(descPath, 'utf8')) as ReleaseDescriptor;
  } catch (e) {
    throw new GspcError('release_invalid', `release.json in ${dir} is not valid JSON: ${(e as Error).message}`);
  }
  if (descriptor.schema !== RELEASE_SCHEMA || !Array.isArray(descriptor.files) || !Array.isArray(descriptor.evidence))
    throw new GspcError('release_invalid', `release.json in ${dir} is not a ${RELEASE_SCHEMA} descriptor`);
  const corpusDir = join(dir, 'corpus');
  let corpus: Corpus;
  try {
    corpus = readCorpus(corpusDir);
  } catch (e) {
    throw new GspcError(
      'release_invalid',
      `release ${descriptor.id} does not read as a valid corpus: ${(e as Error).message}`,
      (e as GspcError).details,
    );
  }
  const onDisk = new Map(corpus.files.map((f) => [f.path, f.sha256]));
  const mismatch = descriptor.files.filter((f) => onDisk.get(f.path) !== f.sha256).map((f) => f.path);
  if (mismatch.length > 0 || onDisk.size !== descriptor.files.length) {
    throw new GspcError(
      'release_invalid',
      `release ${descriptor.id} does not match its release.json (changed or missing: ${mismatch.join(', ') || 'file count'}); refusing to serve it`,
    );
  }
  const derived = deriveRelease(corpus);
  if (derived.source.peritem.sha256 !== descriptor.peritem_sha256) {
    throw new GspcError(
      'release_invalid',
      `release ${descriptor.id}: the per-item manifest hash differs from release.json`,
    );
  }
  const evidence = loadEvidence(dir, descriptor.evidence, sha256Hex);
  return { ...derived, id: descriptor.id, dir: resolve(dir), corpusDir, corpus, descriptor, evidence };
}

export { currentReleaseDir } from './data-dir.js';
