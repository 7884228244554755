/**
 * The demo corpus's status files (docs/formats.md §7), each module owning its files. Every
 * value is SYNTHETIC and says so; generate.ts writes them with the rest of the corpus.
 */
import { regulationFiles } from './regulation.js';
import { reportedFiles } from './reported.js';
import { east_westFiles } from './east-west.js';
import { censusFiles } from './census.js';
import { xrpl_snapshotFiles } from './xrpl-snapshot.js';
import { ownersFiles } from './owners.js';
import { correctionsFiles } from './corrections.js';

export function statusFiles(): [path: string, text: string][] {
  return [
    ...regulationFiles(),
    ...reportedFiles(),
    ...east_westFiles(),
    ...censusFiles(),
    ...xrpl_snapshotFiles(),
    ...ownersFiles(),
    ...correctionsFiles(),
  ];
}
