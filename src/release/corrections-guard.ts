/**
 * The publish-time guard of the corrections ledger (specification, "Corrections ledger": entries
 * are superseded by new entries, never edited; Versioning §4): every entry file of the release
 * being replaced must be in the new corpus byte for byte. The earlier files are taken from that
 * release's release.json, which the loader has checked against the bytes on disk (publish.ts).
 */
import { GspcError } from '../core/errors.js';
import { editedEntryProblems } from '../core/ledger/corrections-never-edited.js';
import type { Corpus } from '../corpus/read-corpus.js';
import type { ReleaseDescriptor } from './release-descriptor.js';

/**
 * Throws `corpus_invalid` naming each entry of the release being replaced (`previous`: its
 * release.json, as the hash-checked loader read it) that `corpus` changes or drops.
 */
export function refuseEditedCorrections(corpus: Corpus, previous: ReleaseDescriptor | undefined): void {
  if (previous === undefined) return;
  const problems = editedEntryProblems(Array.isArray(previous.files) ? previous.files : [], corpus.files, previous.id);
  if (problems.length > 0) {
    throw new GspcError(
      'corpus_invalid',
      `the corpus edits ${problems.length} published correction${problems.length === 1 ? '' : 's'}; nothing was published`,
      { problems },
    );
  }
}
