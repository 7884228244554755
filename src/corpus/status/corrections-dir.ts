/**
 * The corrections ledger of a corpus directory on disk, read on its own: what `gspc corrections
 * sign` signs and what a publish checks the signature against, without reading the whole corpus.
 * `skip`: a path read as absent (the signature being replaced: a broken one must not block its
 * re-issue).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readCorrections } from './corrections.js';

export function readCorrectionsDir(
  corpusDir: string,
  opts: { skip?: string } = {},
): ReturnType<typeof readCorrections> {
  return readCorrections({
    exists: (p) => p !== opts.skip && existsSync(join(corpusDir, p)),
    load: (p) => {
      const bytes = readFileSync(join(corpusDir, p));
      return { path: p, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
    },
    list: (d) =>
      existsSync(join(corpusDir, d)) && statSync(join(corpusDir, d)).isDirectory()
        ? readdirSync(join(corpusDir, d)).sort()
        : [],
    axes: new Set(),
  });
}
