/**
 * Corrections are superseded by new entries, never edited (specification, "Corrections ledger";
 * Versioning §4: older records stay byte for byte). Given the entry files of the release being
 * replaced and of the corpus being published, every earlier entry must still be there with the
 * same SHA-256; new entries may be added.
 */
import type { CorpusProblem } from '../errors.js';

export const ENTRY_PATH = /^corrections\/entries\/[^/]+\.json$/;

/** Problems for each earlier entry file that was changed or removed, naming the file. */
export function editedEntryProblems(
  previous: readonly { path: string; sha256: string }[],
  next: readonly { path: string; sha256: string }[],
  previousRelease: string,
): CorpusProblem[] {
  const now = new Map(next.filter((f) => ENTRY_PATH.test(f.path)).map((f) => [f.path, f.sha256]));
  const out: CorpusProblem[] = [];
  for (const f of previous) {
    if (!ENTRY_PATH.test(f.path)) continue;
    const sha = now.get(f.path);
    if (sha === f.sha256) continue;
    const what =
      sha === undefined
        ? `was published in release ${previousRelease} and is missing from this corpus`
        : `differs from the bytes published in release ${previousRelease}`;
    out.push({ file: f.path, field: '', reason: `${what}: corrections are superseded by new entries, never edited` });
  }
  return out;
}
