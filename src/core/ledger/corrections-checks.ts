/**
 * The rules of the corrections ledger that a field-by-field shape cannot express (specification,
 * "Corrections ledger" and Versioning §4): valid and unique ids, times that can be read and do
 * not contradict each other, supersession links whose hash binds the original text, and no text
 * that reproduces an internal identifier. Each broken rule is a corpus problem naming the file
 * and field; the whole corpus is refused, never a ledger with a doubtful entry.
 */
import { createHash } from 'node:crypto';
import type { CorpusProblem } from '../errors.js';
import {
  correctionIdProblem,
  STATUS_TEXT,
  STATUS_WORDS,
  type CorrectionEntry,
  type CorrectionsLedgerFile,
  type TextLink,
} from './corrections-entry.js';
import { detectionSpan, publicationSpan } from './corrections-spans.js';
import { entirelyBefore, isoDay, readRecordedTime } from './corrections-time.js';

/** An entry as read from its file: the typed entry and the fields exactly as written. */
export interface EntryRecord {
  /** Corpus path, e.g. `corrections/entries/C-2026-0314-01.json`. */
  file: string;
  entry: CorrectionEntry;
  fields: Record<string, unknown>;
}

export const sha256Text = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

// Fields whose text is the entry's identity; replacing them would make another entry.
const NOT_SUPERSEDABLE = new Set(['id', 'date']);

/** The rules one entry must satisfy on its own. */
export function entryProblems(r: EntryRecord): CorpusProblem[] {
  const { file, entry: e } = r;
  const out: CorpusProblem[] = [];
  const bad = (field: string, reason: string) => out.push({ file, field, reason });
  if (isoDay(e.date) === undefined) bad('date', 'must be an ISO date (YYYY-MM-DD) that exists in the calendar');
  const idProblem = correctionIdProblem(e.id, e.date);
  if (idProblem) bad('id', idProblem);
  const expectedName = `${e.id}.json`;
  if (!file.endsWith(`/${expectedName}`)) bad('id', `the file must be named after the id (${expectedName})`);
  for (const f of ['first_observed_at', 'error_introduced_at', 'corrected_at'] as const) {
    const v = e[f];
    if (v !== undefined && readRecordedTime(v, false) === undefined)
      bad(f, 'must be an ISO 8601 UTC datetime or an ISO date');
  }
  if (!STATUS_TEXT.test(e.status))
    bad('status', `must start with an upper-case state word (${STATUS_WORDS.join(', ')})`);
  if (e.what_changed === undefined && e.fix === undefined) bad('what_changed', 'what_changed (or fix) is required');
  if (e.what_changed !== undefined && e.fix !== undefined)
    bad('fix', 'give what_changed or fix, not both (they are the same field)');
  const detected = detectionSpan(e);
  const published = publicationSpan(e);
  if (!detected.ok && 'contradiction' in detected) bad(detected.field, detected.contradiction);
  if (!published.ok && 'contradiction' in published) bad(published.field, published.contradiction);
  if (detected.ok && published.ok && entirelyBefore(published.span, detected.span)) {
    bad(
      'published_at',
      'is earlier than the recorded detection (a correction cannot be public before its error was detected)',
    );
  }
  return out;
}

/**
 * The rules across entries: unique ids, supersession links, internal identifiers. `entries` in
 * any order; `ledgerFile` is the corpus path of ledger.json.
 */
export function ledgerProblems(
  entries: readonly EntryRecord[],
  ledger: CorrectionsLedgerFile,
  ledgerFile: string,
): CorpusProblem[] {
  const out: CorpusProblem[] = [];
  const byId = new Map<string, EntryRecord>();
  for (const r of entries) {
    const first = byId.get(r.entry.id);
    if (first)
      out.push({
        file: r.file,
        field: 'id',
        reason: `${r.entry.id} is already the id of ${first.file}; ids are unique`,
      });
    else byId.set(r.entry.id, r);
  }
  out.push(...supersessionProblems(entries, byId));
  out.push(...identifierProblems(entries, ledger, ledgerFile));
  return out;
}

const sameLink = (a: TextLink | undefined, b: TextLink) =>
  a !== undefined && a.id === b.id && a.field === b.field && a.original_sha256 === b.original_sha256;

function supersessionProblems(
  entries: readonly EntryRecord[],
  byId: ReadonlyMap<string, EntryRecord>,
): CorpusProblem[] {
  const out: CorpusProblem[] = [];
  const supersededBy = new Map<string, string>();
  for (const r of entries) {
    const s = r.entry.supersedes_text;
    if (s === undefined) continue;
    const bad = (field: string, reason: string) =>
      out.push({ file: r.file, field: `supersedes_text.${field}`, reason });
    const target = byId.get(s.id);
    if (s.id === r.entry.id) {
      bad('id', 'an entry cannot supersede itself');
      continue;
    }
    if (!target) {
      bad('id', `${s.id} is not an entry of this ledger`);
      continue;
    }
    if (s.id > r.entry.id) bad('id', `${s.id} is later than ${r.entry.id}; a correction supersedes an earlier entry`);
    const text = target.fields[s.field];
    if (NOT_SUPERSEDABLE.has(s.field) || typeof text !== 'string') {
      bad('field', `${s.id} has no supersedable text field '${s.field}'`);
      continue;
    }
    if (sha256Text(text) !== s.original_sha256)
      bad('original_sha256', `is not the SHA-256 of the UTF-8 text of ${s.id}.${s.field}`);
    const earlier = supersededBy.get(s.id);
    if (earlier !== undefined)
      bad('id', `${s.id} is already superseded by ${earlier}; supersede ${earlier} instead (a chain)`);
    else supersededBy.set(s.id, r.entry.id);
    const back = target.entry.text_superseded_by;
    if (back !== undefined && !sameLink(back, { id: r.entry.id, field: s.field, original_sha256: s.original_sha256 })) {
      out.push({
        file: target.file,
        field: 'text_superseded_by',
        reason: `does not match ${r.entry.id}'s supersedes_text`,
      });
    }
  }
  for (const r of entries) {
    const b = r.entry.text_superseded_by;
    if (b === undefined) continue;
    const later = byId.get(b.id);
    if (
      !later ||
      !sameLink(later.entry.supersedes_text, { id: r.entry.id, field: b.field, original_sha256: b.original_sha256 })
    ) {
      out.push({
        file: r.file,
        field: 'text_superseded_by',
        reason: `${b.id} does not supersede ${r.entry.id}.${b.field} with this original_sha256`,
      });
    }
  }
  return out;
}

/** Every string in a JSON value with its dotted path. */
function* texts(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value))
    for (let i = 0; i < value.length; i++) yield* texts(value[i], path ? `${path}.${i}` : String(i));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) yield* texts(v, path ? `${path}.${k}` : k);
  }
}

function identifierProblems(
  entries: readonly EntryRecord[],
  ledger: CorrectionsLedgerFile,
  ledgerFile: string,
): CorpusProblem[] {
  const out: CorpusProblem[] = [];
  const patterns: [number, RegExp][] = [];
  (ledger.internal_identifier_patterns ?? []).forEach((p, i) => {
    try {
      patterns.push([i, new RegExp(p, 'u')]);
    } catch (err) {
      out.push({
        file: ledgerFile,
        field: `internal_identifier_patterns.${i}`,
        reason: `is not a JavaScript regular expression with the u flag (${(err as Error).message})`,
      });
    }
  });
  if (patterns.length === 0) return out;
  const { internal_identifier_patterns: _own, ...ledgerTexts } = ledger;
  const sources: [string, unknown][] = [
    [ledgerFile, ledgerTexts],
    ...entries.map((r): [string, unknown] => [r.file, r.fields]),
  ];
  for (const [file, value] of sources) {
    for (const [field, text] of texts(value, '')) {
      const hit = patterns.find(([, p]) => p.test(text));
      // The matched text is not repeated in the problem: problems are printed and logged.
      if (hit)
        out.push({
          file,
          field,
          reason: `matches internal_identifier_patterns[${hit[0]}]: the ledger never reproduces an internal identifier`,
        });
    }
  }
  return out;
}
