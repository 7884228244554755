/** status/regulation.json: the version-pinned regulation deadline feed (stub: filled in by issue 5 work). */
import type { StatusRead, StatusReadIo } from './io.js';

export type RegulationFeedFile = Record<string, unknown>;

export function readRegulation(_io: StatusReadIo): StatusRead<RegulationFeedFile> {
  return { problems: [] };
}
