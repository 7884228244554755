/**
 * The one table of harness readers `gspc import <format>` dispatches on. Adding a format is a
 * row here plus its reader folder (src/import/<format>/) and its section of docs/import.md.
 */
import { readEee } from './eee/read-eee.js';
import { readHelm } from './helm/read-helm.js';
import type { HarnessFormat, HarnessReader } from './imported.js';
import { readInspect } from './inspect/index.js';
import { readLmEval } from './lm-eval/read-lm-eval.js';

export const READERS: Readonly<Record<HarnessFormat, HarnessReader>> = {
  'lm-eval': readLmEval,
  inspect: readInspect,
  helm: readHelm,
  eee: readEee,
};
