/**
 * The publish-time guard of the corrections ledger (specification, "Corrections ledger": entries
 * are superseded by new entries, never edited; Versioning §4): every entry file of the release
 * being replaced must be in the new corpus byte for byte. The earlier files are taken from that
 * release's release.json, whose hashes loading checks against the bytes on disk.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GspcError } from '../core/errors.js';
import { editedEntryProblems } from '../core/ledger/corrections-never-edited.js';
import type { Corpus } from '../corpus/read-corpus.js';
import { currentReleaseDir } from './data-dir.js';
import type { ReleaseDescriptor } from './release-descriptor.js';

/** Throws `corpus_invalid` naming each earlier entry that `corpus` changes or drops. */
export function refuseEditedCorrections(corpus: Corpus, dataDir: string): void {
  const dir = currentReleaseDir(dataDir);
  if (dir === undefined || !existsSync(join(dir, 'release.json'))) return;
  let previous: ReleaseDescriptor;
  try {
    previous = JSON.parse(readFileSync(join(dir, 'release.json'), 'utf8')) as ReleaseDescriptor;
  } catch (e) {
    // Without the earlier hashes the rule cannot be checked; publishing over it would hide an edit.
    throw new GspcError(
      'release_invalid',
      `the current release's release.json is unreadable (${(e as Error).message}); the corrections ledger cannot be checked`,
    );
  }
  const problems = editedEntryProblems(Array.isArray(previous.files) ? previous.files : [], corpus.files, previous.id);
  if (problems.length > 0) {
    throw new GspcError(
      'corpus_invalid',
      `the corpus edits ${problems.length} published correction${problems.length === 1 ? '' : 's'}; nothing was published`,
      { problems },
    );
  }
}
