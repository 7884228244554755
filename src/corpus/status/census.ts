/**
 * `status/census.json` + `status/census.jsonl`: the catalogued model-hub listing snapshot the
 * compute bridge serves (specification, "Compute bridge": census). The JSONL holds one listing
 * per line, each with an `id`; the JSON says where the listing came from. What can be computed
 * (distinct ids, the SHA-256 of the bytes, the as-of) is computed here, never taken as typed.
 * A listing is DISCOVERED, never MEASURED: a line that claims a measurement rejects the corpus.
 */
import { forEachJsonlValue } from '../jsonl-lines.js';
import { z } from 'zod';
import { isoUtc } from '../schemas.js';
import { CENSUS_JSONL_PATH, CENSUS_META_PATH, type CatalogueCensus } from '../../core/status/compute-bridge.js';
import type { CorpusProblem } from '../../core/errors.js';
import { parseJsonFile } from '../json-file.js';
import type { StatusRead, StatusReadIo } from './io.js';

export type CensusSnapshot = CatalogueCensus;

const MAX_ID = 512;
const MAX_PROBLEMS = 50;
const text = z.string().trim().min(1, 'must be a non-empty string');

/** `status/census.json`: exactly these keys (the counts are computed, so none may be typed). */
export const censusMetaSchema = z.strictObject({
  source: text,
  as_of: isoUtc,
  as_of_field: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be the name of a top-level listing field'),
  pages_done: z.number().int().min(0),
  complete: z.boolean(),
  complete_reason: text,
  note: text,
});

/** Keys whose presence is a grade: a listing carries none. */
const GRADE_KEYS = ['grade', 'grades', 'graded', 'measured', 'measurement', 'measurements', 'verdict'];

/** The one thing wrong with a listing line, or null; `value` is the parsed line. */
function checkListing(value: unknown): { field: string; reason: string } | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { field: '', reason: 'each line must be a JSON object (one listing)' };
  const r = value as Record<string, unknown>;
  if (!('id' in r)) return { field: 'id', reason: 'is required: the listed id (e.g. a model-hub repo id)' };
  if (typeof r.id !== 'string' || r.id.length === 0 || r.id.length > MAX_ID || /[\s\u0000-\u001f]/.test(r.id)) {
    return { field: 'id', reason: `must be a non-empty string of at most ${MAX_ID} characters without spaces` };
  }
  for (const key of GRADE_KEYS) {
    if (key in r)
      return { field: key, reason: 'a listing carries no grade or measurement: it is DISCOVERED, never MEASURED' };
  }
  if ('listing_state' in r && r.listing_state !== 'DISCOVERED')
    return { field: 'listing_state', reason: 'a listing is DISCOVERED, never anything else' };
  for (const [key, v] of Object.entries(r)) {
    if (typeof v === 'string' && v.toUpperCase() === 'MEASURED')
      return { field: key, reason: 'a listing cannot claim MEASURED: it is DISCOVERED, and its status UNMEASURED' };
  }
  return null;
}

interface ListingCount {
  lines: number;
  ids: number;
  latest: { at: number; text: string } | null;
  carriers: number;
}

/** Reads the JSONL one line at a time (no split of the whole file), keeping only the id set. */
function countListings(bytes: Buffer, asOfField: string | undefined, report: (p: CorpusProblem) => void): ListingCount {
  const file = CENSUS_JSONL_PATH;
  const ids = new Set<string>();
  let latest: ListingCount['latest'] = null;
  let carriers = 0;
  const lines = forEachJsonlValue(bytes, file, report, (value, line) => {
    const wrong = checkListing(value);
    if (wrong) {
      report({ file, line, ...wrong });
      return;
    }
    const r = value as Record<string, unknown>;
    ids.add(r.id as string);
    if (asOfField !== undefined && asOfField in r) {
      const v = r[asOfField];
      const at = typeof v === 'string' ? Date.parse(v) : Number.NaN;
      if (Number.isNaN(at)) {
        report({
          file,
          line,
          field: asOfField,
          reason: 'must be a datetime: the census as_of is read from this field',
        });
        return;
      }
      carriers++;
      if (latest === null || at > latest.at) latest = { at, text: v as string };
    }
  });
  return { lines, ids: ids.size, latest, carriers };
}

/**
 * Reads the census pair. Both files or neither: one without the other is a problem. Absent:
 * no value, and the compute bridge says the census was not read.
 */
export function readCensus(io: StatusReadIo): StatusRead<CensusSnapshot> {
  const hasMeta = io.exists(CENSUS_META_PATH);
  const hasJsonl = io.exists(CENSUS_JSONL_PATH);
  if (!hasMeta && !hasJsonl) return { problems: [] };
  if (!hasMeta || !hasJsonl) {
    const [present, missing] = hasMeta ? [CENSUS_META_PATH, CENSUS_JSONL_PATH] : [CENSUS_JSONL_PATH, CENSUS_META_PATH];
    return {
      problems: [{ file: missing, field: '', reason: `missing: ${present} is present, and a census needs both files` }],
    };
  }
  const problems: CorpusProblem[] = [];
  const report = (p: CorpusProblem) => {
    if (problems.length < MAX_PROBLEMS) problems.push(p);
  };
  const metaFile = io.load(CENSUS_META_PATH);
  const meta = parseJsonFile(CENSUS_META_PATH, metaFile.bytes.toString('utf8'), censusMetaSchema);
  if (!meta.ok) problems.push(...meta.problems);
  const jsonl = io.load(CENSUS_JSONL_PATH);
  const count = countListings(jsonl.bytes, meta.ok ? meta.value.as_of_field : undefined, report);
  if (!meta.ok || problems.length > 0) return { problems };

  const m = meta.value;
  // The as_of is read from the listing, so it must be what the listing says.
  if (count.lines > 0 && count.carriers === 0) {
    report({
      file: CENSUS_META_PATH,
      field: 'as_of_field',
      reason: `no listing line carries '${m.as_of_field}', so as_of cannot have been read from it`,
    });
  } else if (count.latest !== null && Date.parse(m.as_of) !== count.latest.at) {
    report({
      file: CENSUS_META_PATH,
      field: 'as_of',
      reason: `must be the latest '${m.as_of_field}' of the listing (${count.latest.text})`,
    });
  }
  if (count.lines > 0 && m.pages_done === 0)
    report({ file: CENSUS_META_PATH, field: 'pages_done', reason: `is 0, but the listing has ${count.lines} line(s)` });
  if (problems.length > 0) return { problems };
  return {
    value: {
      ...m,
      jsonl: { path: CENSUS_JSONL_PATH, sha256: jsonl.sha256, lines: count.lines, n_unique_ids: count.ids },
    },
    problems,
  };
}
