/** status/east-west.json: model origin groups for the east-west bench (stub: filled in by issue 5 work). */
import type { StatusRead, StatusReadIo } from './io.js';

export type EastWestFile = Record<string, unknown>;

export function readEastWest(_io: StatusReadIo): StatusRead<EastWestFile> {
  return { problems: [] };
}
