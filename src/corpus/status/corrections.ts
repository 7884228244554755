/**
 * `corrections/`: the corrections ledger (specification, "Corrections ledger (svc.corrections/0.1)";
 * docs/drafts/corrections.md). `ledger.json` holds the policy, `entries/<id>.json` one entry per
 * file (the file name is the id), `signature.json` the optional ledger signature. No directory:
 * no ledger. Every file is loaded into the corpus, so a release keeps and hash-checks the
 * original bytes; any problem refuses the whole corpus.
 */
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { z } from 'zod';
import type { CorpusProblem } from '../../core/errors.js';
import { entryProblems, ledgerProblems, type EntryRecord } from '../../core/ledger/corrections-checks.js';
import type { LedgerView } from '../../core/ledger/corrections-document.js';
import {
  CORRECTION_ID,
  CORRECTIONS_CORPUS_SCHEMA,
  CORRECTIONS_LICENSE,
  DETECTED_BY,
  TIMING_FIELDS,
  type CorrectionEntry,
  type CorrectionsLedgerFile,
} from '../../core/ledger/corrections-entry.js';
import {
  CORRECTIONS_SIGNATURE_SCHEMA,
  type CorrectionsSignatureFile,
} from '../../core/ledger/corrections-signature.js';
import { lineAt, parseJsonFile } from '../json-file.js';
import type { StatusFile, StatusRead, StatusReadIo } from './io.js';

export const CORRECTIONS_DIR = 'corrections';
export const LEDGER_FILE = `${CORRECTIONS_DIR}/ledger.json`;
export const ENTRIES_DIR = `${CORRECTIONS_DIR}/entries`;
export const SIGNATURE_FILE = `${CORRECTIONS_DIR}/signature.json`;

/** An entry file: the typed entry, its fields as written, and the original bytes. */
export interface StoredCorrection {
  id: string;
  path: string;
  bytes: Buffer;
  sha256: string;
  entry: CorrectionEntry;
  fields: Record<string, unknown>;
}

export interface CorrectionsCorpus extends LedgerView {
  ledgerSha256: string;
  /** Sorted by id. */
  entries: StoredCorrection[];
  signature?: CorrectionsSignatureFile;
}

const text = z.string().refine((s) => s.trim().length > 0, 'must be a non-empty string');
const hex = (n: number) => z.string().regex(new RegExp(`^[0-9a-f]{${n}}$`), `must be ${n} lower-case hex digits`);
const link = z.strictObject({ id: text, field: text, original_sha256: hex(64) });

const ledgerSchema = z.strictObject({
  schema: z.literal(CORRECTIONS_CORPUS_SCHEMA),
  policy: text,
  publisher: text,
  license: z.literal(CORRECTIONS_LICENSE),
  timing_fields: z.strictObject(
    Object.fromEntries(TIMING_FIELDS.map((f) => [f, text])) as Record<(typeof TIMING_FIELDS)[number], typeof text>,
  ),
  internal_identifier_patterns: z.array(z.string().min(1)).optional(),
});

const entrySchema = z.strictObject({
  id: z.string(),
  date: z.string(),
  detected_at: z.string(),
  detected_window: z.strictObject({ not_before: z.string(), not_after: z.string(), basis: text }).optional(),
  detected_by: z.enum(DETECTED_BY),
  published_at: z.string(),
  timing_evidence: z.array(text),
  first_observed_at: z.string().optional(),
  error_introduced_at: z.string().optional(),
  corrected_at: z.string().optional(),
  what_was_wrong: text,
  why_it_was_wrong: text,
  how_caught: text,
  what_changed: text.optional(),
  fix: text.optional(),
  status: z.string(),
  reached_the_public: z.boolean(),
  evidence: z.array(text),
  note: text.optional(),
  supersedes_text: link.optional(),
  text_superseded_by: link.optional(),
});

const signatureSchema = z
  .strictObject({
    schema: z.literal(CORRECTIONS_SIGNATURE_SCHEMA),
    ledger_sha256: hex(64),
    entries: z.array(
      z.strictObject({ id: z.string().regex(CORRECTION_ID, 'must be a correction id'), sha256: hex(64) }),
    ),
    signed_at: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/, 'must be an ISO 8601 UTC datetime'),
    kid: text,
    sig_ed25519: hex(128).nullable(),
    unsigned_reason: text.optional(),
  })
  .refine((s) => (s.sig_ed25519 === null) === (s.unsigned_reason !== undefined), {
    message: 'unsigned_reason is given exactly when sig_ed25519 is null',
    path: ['unsigned_reason'],
  });

const KNOWN = new Set(['ledger.json', 'entries', 'signature.json']);

export function readCorrections(io: StatusReadIo): StatusRead<CorrectionsCorpus> {
  if (!io.exists(CORRECTIONS_DIR)) return { problems: [] };
  const problems: CorpusProblem[] = [];
  for (const name of io.list(CORRECTIONS_DIR)) {
    // A file outside the layout would be left out of the release without a word: refuse it.
    if (!KNOWN.has(name))
      problems.push({
        file: `${CORRECTIONS_DIR}/${name}`,
        field: '',
        reason: 'not part of the corrections layout (ledger.json, entries/<id>.json, signature.json)',
      });
  }
  if (!io.exists(LEDGER_FILE))
    return {
      problems: [
        ...problems,
        { file: LEDGER_FILE, field: '', reason: 'missing: a corrections/ directory needs its ledger.json' },
      ],
    };
  const ledgerLoaded = loadFile(io, LEDGER_FILE, problems);
  const ledger =
    ledgerLoaded && (parsed(LEDGER_FILE, ledgerLoaded, ledgerSchema, problems) as CorrectionsLedgerFile | undefined);

  const entries: StoredCorrection[] = [];
  for (const name of io.list(ENTRIES_DIR)) {
    const path = `${ENTRIES_DIR}/${name}`;
    if (!name.endsWith('.json')) {
      problems.push({ file: path, field: '', reason: 'not a correction entry file (entries/<id>.json)' });
      continue;
    }
    const f = loadFile(io, path, problems);
    const entry = f && (parsed(path, f, entrySchema, problems) as CorrectionEntry | undefined);
    if (!f || !entry) continue;
    // The fields as written (key order included); the schema has no transforms, so the values are the same.
    const fields = JSON.parse(f.bytes.toString('utf8')) as Record<string, unknown>;
    entries.push({ id: entry.id, path, bytes: f.bytes, sha256: f.sha256, entry, fields });
  }
  entries.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const records: EntryRecord[] = entries.map((e) => ({ file: e.path, entry: e.entry, fields: e.fields }));
  const texts = new Map(entries.map((e) => [e.path, e.bytes.toString('utf8')]));
  const place = (p: CorpusProblem) =>
    withLine(p, texts.get(p.file) ?? (p.file === LEDGER_FILE ? ledgerLoaded?.bytes.toString('utf8') : undefined));
  for (const r of records) problems.push(...entryProblems(r).map(place));
  if (ledger) problems.push(...ledgerProblems(records, ledger, LEDGER_FILE).map(place));

  let signature: CorrectionsSignatureFile | undefined;
  if (io.exists(SIGNATURE_FILE)) {
    const f = loadFile(io, SIGNATURE_FILE, problems);
    signature = f && (parsed(SIGNATURE_FILE, f, signatureSchema, problems) as CorrectionsSignatureFile | undefined);
  }
  if (problems.length > 0 || !ledger || !ledgerLoaded) return { problems };
  return { value: { ledger, ledgerSha256: ledgerLoaded.sha256, entries, ...(signature && { signature }) }, problems };
}

function loadFile(io: StatusReadIo, path: string, problems: CorpusProblem[]): StatusFile | undefined {
  try {
    return io.load(path);
  } catch (err) {
    problems.push({
      file: path,
      field: '',
      reason: `unreadable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    });
    return undefined;
  }
}

function parsed<S extends z.ZodType>(
  path: string,
  f: StatusFile,
  schema: S,
  problems: CorpusProblem[],
): z.output<S> | undefined {
  const r = parseJsonFile(path, f.bytes.toString('utf8'), schema);
  if (r.ok) return r.value;
  problems.push(...r.problems);
  return undefined;
}

/** Places a problem on the line of its field, when the field is in the file. */
function withLine(p: CorpusProblem, text: string | undefined): CorpusProblem {
  if (text === undefined || p.line !== undefined) return p;
  const tree = parseTree(text);
  const path = p.field === '' ? [] : p.field.split('.').map((k) => (/^[0-9]+$/.test(k) ? Number(k) : k));
  for (let depth = path.length; depth >= 0 && tree; depth--) {
    const node = findNodeAtLocation(tree, path.slice(0, depth));
    if (node) return { ...p, line: lineAt(text, node.offset) };
  }
  return p;
}
