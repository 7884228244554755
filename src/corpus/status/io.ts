/**
 * What a status-file reader may do with the corpus directory. `load` records the file as part
 * of the corpus, so a release copies it and checks its SHA-256 like every other corpus file.
 */
import type { CorpusProblem } from '../../core/errors.js';

export interface StatusFile {
  /** Path relative to the corpus root, '/' separated. */
  path: string;
  bytes: Buffer;
  sha256: string;
}

export interface StatusReadIo {
  exists(path: string): boolean;
  load(path: string): StatusFile;
  /** File names in a corpus sub-directory, sorted; [] when it does not exist. */
  list(dir: string): string[];
  /** The axis slugs of board.json, for cross-checks. */
  axes: ReadonlySet<string>;
}

/** A reader's result: the typed value when its file is present and valid, and every problem. */
export interface StatusRead<T> {
  value?: T;
  problems: CorpusProblem[];
}
