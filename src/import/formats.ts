/**
 * The one table of harness readers `gspc import <format>` dispatches on. Adding a format is a
 * row here plus its reader folder (src/import/<format>/) and its section of docs/import.md.
 */
import { GspcError } from '../core/errors.js';
import type { HarnessFormat, HarnessReader } from './imported.js';
import { readLmEval } from './lm-eval/read-lm-eval.js';

/** A format whose reader is not in this build yet: refused, never an empty import. */
function notBuiltYet(format: HarnessFormat): HarnessReader {
  // biome-ignore lint/correctness/useYield: refuses before yielding anything
  return async function* () {
    throw new GspcError('import_refused', `gspc import ${format}: not built yet (docs/import.md)`);
  };
}

export const READERS: Readonly<Record<HarnessFormat, HarnessReader>> = {
  'lm-eval': readLmEval,
  inspect: notBuiltYet('inspect'),
  helm: notBuiltYet('helm'),
  eee: notBuiltYet('eee'),
};

export const FORMATS = Object.keys(READERS) as HarnessFormat[];

export function isFormat(s: string): s is HarnessFormat {
  return Object.hasOwn(READERS, s);
}
