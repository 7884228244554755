/** status/reported.json: figures reported by others, never measured here (stub: filled in by issue 5 work). */
import type { StatusRead, StatusReadIo } from './io.js';

export type ReportedFiguresFile = Record<string, unknown>;

export function readReported(_io: StatusReadIo): StatusRead<ReportedFiguresFile> {
  return { problems: [] };
}
