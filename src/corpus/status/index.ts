/**
 * The status files of a corpus (docs/formats.md §7): optional, each read and validated by its
 * own reader, all problems collected with the rest of the corpus (all or nothing).
 */
import type { CorpusProblem } from '../../core/errors.js';
import type { StatusReadIo } from './io.js';
import { readRegulation, type RegulationFeedFile } from './regulation.js';
import { readReported, type ReportedFiguresFile } from './reported.js';
import { readEastWest, type EastWestFile } from './east-west.js';
import { readCensus, type CensusSnapshot } from './census.js';
import { readXrplSnapshot, type XrplSnapshotFile } from './xrpl-snapshot.js';
import { readOwners, type OwnersFile } from './owners.js';
import { readCorrections, type CorrectionsCorpus } from './corrections.js';

export interface CorpusStatus {
  regulation?: RegulationFeedFile;
  reported?: ReportedFiguresFile;
  eastWest?: EastWestFile;
  census?: CensusSnapshot;
  xrplSnapshot?: XrplSnapshotFile;
  owners?: OwnersFile;
  corrections?: CorrectionsCorpus;
}

export function readStatus(io: StatusReadIo): { status: CorpusStatus; problems: CorpusProblem[] } {
  const problems: CorpusProblem[] = [];
  const status: CorpusStatus = {};
  const take = <K extends keyof CorpusStatus>(key: K, r: { value?: CorpusStatus[K]; problems: CorpusProblem[] }) => {
    problems.push(...r.problems);
    if (r.value !== undefined) status[key] = r.value;
  };
  take('regulation', readRegulation(io));
  take('reported', readReported(io));
  take('eastWest', readEastWest(io));
  take('census', readCensus(io));
  take('xrplSnapshot', readXrplSnapshot(io));
  take('owners', readOwners(io));
  take('corrections', readCorrections(io));
  return { status, problems };
}
