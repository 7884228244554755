/** status/xrpl-snapshot.json: a recorded XRPL read (stub: filled in by issue 5 work). */
import type { StatusRead, StatusReadIo } from './io.js';

export type XrplSnapshotFile = Record<string, unknown>;

export function readXrplSnapshot(_io: StatusReadIo): StatusRead<XrplSnapshotFile> {
  return { problems: [] };
}
