/** status/census.json + status/census.jsonl: the catalogued model-hub listing snapshot (stub: filled in by issue 5 work). */
import type { StatusRead, StatusReadIo } from './io.js';

export type CensusSnapshot = Record<string, unknown>;

export function readCensus(_io: StatusReadIo): StatusRead<CensusSnapshot> {
  return { problems: [] };
}
