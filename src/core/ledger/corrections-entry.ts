/**
 * A corrections ledger entry and the ledger file (specification, "Corrections ledger
 * (svc.corrections/0.1)"), with the vocabularies the specification names. The corpus reader
 * validates the shapes; the checks here are the rules a shape cannot express.
 */
import { calendarDay } from './corrections-time.js';

export const CORRECTIONS_SCHEMA = 'svc.corrections/0.1';
export const CORRECTIONS_CORPUS_SCHEMA = 'svc.corrections-corpus/1';
export const CORRECTIONS_LICENSE = 'CC-BY-4.0';

/** Who or what found the error (specification's list). */
export const DETECTED_BY = [
  'internal audit',
  'internal monitor',
  'persona test',
  'external report',
  'self-report',
  'UNRECORDED',
] as const;
export type DetectedBy = (typeof DETECTED_BY)[number];

/** The upper-case word a `status` text starts with. */
export const STATUS_WORDS = ['CORRECTED', 'WITHDRAWN', 'RECORDED', 'SUPERSEDED', 'RETRACTED', 'OPEN'] as const;
export const STATUS_TEXT = new RegExp(`^(?:${STATUS_WORDS.join('|')})(?![A-Za-z0-9_])`);

/** The stored timing fields that ledger.json's `timing_fields` must each explain. */
export const TIMING_FIELDS = [
  'detected_at',
  'detected_window',
  'published_at',
  'timing_evidence',
  'first_observed_at',
  'error_introduced_at',
  'corrected_at',
] as const;

/** A link between two entries: a later entry replaces one text field of an earlier one. */
export interface TextLink {
  id: string;
  field: string;
  /** SHA-256 (hex) of the UTF-8 text of the earlier entry's field, as it was written. */
  original_sha256: string;
}

export interface CorrectionEntry {
  id: string;
  date: string;
  detected_at: string;
  detected_window?: { not_before: string; not_after: string; basis: string };
  detected_by: DetectedBy;
  published_at: string;
  timing_evidence: string[];
  first_observed_at?: string;
  error_introduced_at?: string;
  corrected_at?: string;
  what_was_wrong: string;
  why_it_was_wrong: string;
  how_caught: string;
  what_changed?: string;
  fix?: string;
  status: string;
  reached_the_public: boolean;
  evidence: string[];
  note?: string;
  supersedes_text?: TextLink;
  text_superseded_by?: TextLink;
}

/** `corrections/ledger.json`. */
export interface CorrectionsLedgerFile {
  schema: typeof CORRECTIONS_CORPUS_SCHEMA;
  policy: string;
  publisher: string;
  license: typeof CORRECTIONS_LICENSE;
  timing_fields: Record<(typeof TIMING_FIELDS)[number], string>;
  /** JavaScript regular expressions (compiled with the `u` flag) no ledger text may match. */
  internal_identifier_patterns?: string[];
}

export const CORRECTION_ID = /^C-(\d{4})-(\d{2})(\d{2})-(\d{2})$/;

/**
 * Why `id` is not a valid correction id for an entry dated `date`, or undefined when it is:
 * the form `C-YYYY-MMDD-NN` (NN from 01), a real calendar date, and the same day as `date`.
 */
export function correctionIdProblem(id: string, date: string): string | undefined {
  const m = CORRECTION_ID.exec(id);
  if (!m) return `'${id.slice(0, 40)}' is not of the form C-YYYY-MMDD-NN`;
  const [y, mo, d, nn] = [m[1]!, m[2]!, m[3]!, m[4]!];
  if (nn === '00') return 'the sequence number NN starts at 01';
  if (calendarDay(Number(y), Number(mo), Number(d)) === undefined) return `${y}-${mo}-${d} is not a calendar date`;
  if (`${y}-${mo}-${d}` !== date) return `names the day ${y}-${mo}-${d} but the entry's date is ${date}`;
  return undefined;
}
