/**
 * `status/regulation.json`: the version-pinned regulation deadline feed (specification,
 * "Versioning" §5; served at `/api/regulation`). Optional: absent, the feed is served with null
 * blocks and the reason. Present, every field is checked; a pinned provision text must hash to
 * its `provision_text_sha256`, and the first-fine watch may only name a fine signal of its own
 * instrument. Fields: docs/drafts/read-documents.md, "Formats".
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { DEADLINE_STATUSES, isIsoDate, SIGNAL_KINDS, type RegulationFile } from '../../core/status/regulation-feed.js';
import type { CorpusProblem } from '../../core/errors.js';
import { parseJsonFile } from '../json-file.js';
import { SLUG } from '../schemas.js';
import type { StatusRead, StatusReadIo } from './io.js';

export type RegulationFeedFile = RegulationFile;

export const REGULATION_FILE = 'status/regulation.json';

const text = z.string().trim().min(1, 'must be a non-empty string');
const slug = z.string().regex(SLUG, 'must be a lower-case slug (a-z, 0-9, single hyphens)');
const isoDate = z.string().refine(isIsoDate, 'must be a real date written YYYY-MM-DD');
const source = z.strictObject({
  citation: text,
  url: z.string().regex(/^https?:\/\/\S+$/, 'must be an http(s) URL (stored as text, never fetched)'),
});

const deadline = z.strictObject({
  id: slug,
  instrument: text,
  provision: text,
  obligation: text,
  applies_from: isoDate,
  source,
  provision_text_sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex'),
  // Not trimmed: the hash is over the exact text.
  provision_text: z.string().min(1, 'must be a non-empty string').optional(),
  verified_as_of: isoDate,
  status: z.enum(DEADLINE_STATUSES),
});

const signal = z.strictObject({
  id: slug,
  date: isoDate,
  authority: text,
  instrument: text,
  kind: z.enum(SIGNAL_KINDS),
  summary: text,
  source,
});

const watch = z.strictObject({
  instrument: text,
  watching_since: isoDate,
  first_fine: slug.nullable(),
});

export const regulationFileSchema = z.strictObject({
  version: z.string().regex(/^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$/, 'must be a version label such as 2026.11-1'),
  verified_as_of: isoDate,
  reverify_policy: text,
  deadlines: z
    .array(deadline)
    .refine((d) => new Set(d.map((x) => x.id)).size === d.length, 'has two deadlines with the same id'),
  signals: z
    .array(signal)
    .refine((s) => new Set(s.map((x) => x.id)).size === s.length, 'has two signals with the same id')
    .optional(),
  first_fine_watch: z
    .array(watch)
    .refine((w) => new Set(w.map((x) => x.instrument)).size === w.length, 'watches an instrument twice')
    .optional(),
  note: text.optional(),
});

/** Cross-field rules zod cannot state field by field. */
function crossProblems(f: RegulationFile): CorpusProblem[] {
  const out: CorpusProblem[] = [];
  const at = (field: string, reason: string) => out.push({ file: REGULATION_FILE, field, reason });
  f.deadlines.forEach((d, i) => {
    if (d.verified_as_of > f.verified_as_of)
      at(`deadlines.${i}.verified_as_of`, `is after the feed's verified_as_of ${f.verified_as_of}`);
    if (
      d.provision_text !== undefined &&
      createHash('sha256').update(d.provision_text, 'utf8').digest('hex') !== d.provision_text_sha256
    ) {
      at(`deadlines.${i}.provision_text_sha256`, 'does not match the SHA-256 of provision_text (UTF-8)');
    }
  });
  (f.signals ?? []).forEach((s, i) => {
    if (s.date > f.verified_as_of) at(`signals.${i}.date`, `is after the feed's verified_as_of ${f.verified_as_of}`);
  });
  (f.first_fine_watch ?? []).forEach((w, i) => {
    if (w.watching_since > f.verified_as_of)
      at(`first_fine_watch.${i}.watching_since`, `is after the feed's verified_as_of ${f.verified_as_of}`);
    if (w.first_fine === null) return;
    const s = f.signals?.find((x) => x.id === w.first_fine);
    if (!s) at(`first_fine_watch.${i}.first_fine`, `names signal '${w.first_fine}', which is not in signals`);
    else if (s.kind !== 'fine')
      at(`first_fine_watch.${i}.first_fine`, `names signal '${s.id}' of kind '${s.kind}', not a fine`);
    else if (s.instrument !== w.instrument)
      at(`first_fine_watch.${i}.first_fine`, `names a fine under '${s.instrument}', not '${w.instrument}'`);
  });
  return out;
}

export function readRegulation(io: StatusReadIo): StatusRead<RegulationFeedFile> {
  if (!io.exists(REGULATION_FILE)) return { problems: [] };
  const parsed = parseJsonFile(REGULATION_FILE, io.load(REGULATION_FILE).bytes.toString('utf8'), regulationFileSchema);
  if (!parsed.ok) return { problems: parsed.problems };
  const value = parsed.value as RegulationFile;
  const problems = crossProblems(value);
  return problems.length > 0 ? { problems } : { value, problems };
}
