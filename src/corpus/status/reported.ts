/**
 * `status/reported.json`: figures reported by others (served at `/api/reported`), never
 * measured here. Optional. A figure may not call itself MEASURED (the board's status word) in
 * any of its texts, so a reader can never mistake it for a measurement of this service.
 * Fields: docs/drafts/read-documents.md, "Formats".
 */
import { z } from 'zod';
import { modelIdSchema } from '../model-id.js';
import type { ReportedFile } from '../../core/status/reported-figures.js';
import { isIsoDate } from '../../core/status/regulation-feed.js';
import { parseJsonFile } from '../json-file.js';
import type { StatusRead, StatusReadIo } from './io.js';

export type ReportedFiguresFile = ReportedFile;

export const REPORTED_FILE = 'status/reported.json';

// "UNMEASURED" is allowed: only the status word MEASURED on its own is refused.
const notMeasured = (s: string) => !/(^|[^A-Za-z_])MEASURED([^A-Za-z_]|$)/.test(s);
const text = z
  .string()
  .trim()
  .min(1, 'must be a non-empty string')
  .refine(notMeasured, 'must not label a reported figure MEASURED: it is not a measurement of this service');
const date = z
  .string()
  .refine(
    (s) =>
      isIsoDate(s.slice(0, 10)) && (s.length === 10 || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/.test(s)),
    'must be an ISO date (YYYY-MM-DD) or an ISO 8601 UTC datetime',
  );

const figure = z.strictObject({
  subject: modelIdSchema,
  metric: text,
  value: z.number().finite(),
  unit: text,
  reported_by: text,
  source: text,
  url: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'must be an http(s) URL (stored as text, never fetched)')
    .optional(),
  as_of: date,
  note: text,
});

export const reportedFileSchema = z.strictObject({
  figures: z.array(figure),
  note: text.optional(),
});

export function readReported(io: StatusReadIo): StatusRead<ReportedFiguresFile> {
  if (!io.exists(REPORTED_FILE)) return { problems: [] };
  const parsed = parseJsonFile(REPORTED_FILE, io.load(REPORTED_FILE).bytes.toString('utf8'), reportedFileSchema);
  return parsed.ok ? { value: parsed.value as ReportedFile, problems: [] } : { problems: parsed.problems };
}
