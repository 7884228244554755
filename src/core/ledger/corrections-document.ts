/**
 * The served corrections ledger, `svc.corrections/0.1` (specification, "Corrections ledger"):
 * policy, license, publisher, timing_fields and the entries exactly as written, each with the
 * derived reverse supersession link and the unsigned `correction_latency` block computed now,
 * plus the state of the ledger signature and where each original entry file is served.
 */
import { correctionLatency, type CorrectionLatency } from './correction-latency.js';
import {
  CORRECTIONS_SCHEMA,
  type CorrectionEntry,
  type CorrectionsLedgerFile,
  type TextLink,
} from './corrections-entry.js';
import type { SignatureStatus } from './corrections-signature.js';

/** An entry as the ledger holds it: typed, as written, and the SHA-256 of its file's bytes. */
export interface LedgerEntryView {
  id: string;
  sha256: string;
  entry: CorrectionEntry;
  fields: Record<string, unknown>;
}

export interface LedgerView {
  ledger: CorrectionsLedgerFile;
  /** Sorted by id. */
  entries: readonly LedgerEntryView[];
}

export interface CorrectionsDocument {
  schema: typeof CORRECTIONS_SCHEMA;
  /** False when the release has no corrections/ directory: no ledger is published. */
  ledger_published: boolean;
  /** Why nothing is published (only when `ledger_published` is false). */
  reason?: string;
  policy: string | null;
  license: string | null;
  publisher: string | null;
  timing_fields: Record<string, string> | null;
  corrections: (Record<string, unknown> & { correction_latency: CorrectionLatency })[];
  signature: SignatureStatus;
  originals: { id: string; url: string; sha256: string }[];
}

/** Where an original entry file is served byte for byte. */
export const originalUrl = (id: string) => `/corrections/${id}.json`;

/** The service's own explanation of the block it adds to every entry. */
export const LATENCY_EXPLAINED =
  'Computed on each request, never stored and never signed: EXACT (seconds = published_at − detected_at) when both are UTC datetimes; UPPER_BOUND when detection is known only to a day (counted from its start) or a detected_window (from not_before), or publication only to a day (to its end), with a lower bound when one above zero can be stated; UNMEASURED (null figures and a reason) otherwise.';

/** The reverse links: entry id → the later entry that supersedes one of its texts. */
export function supersededBy(entries: readonly LedgerEntryView[]): Map<string, TextLink> {
  const out = new Map<string, TextLink>();
  for (const v of entries) {
    const s = v.entry.supersedes_text;
    if (s !== undefined && !out.has(s.id))
      out.set(s.id, { id: v.id, field: s.field, original_sha256: s.original_sha256 });
  }
  return out;
}

/** The document for a release without a ledger: 200 with an empty ledger that says so. */
export function noLedgerDocument(): CorrectionsDocument {
  const reason = 'this release has no corrections/ directory: no corrections ledger is published';
  return {
    schema: CORRECTIONS_SCHEMA,
    ledger_published: false,
    reason,
    policy: null,
    license: null,
    publisher: null,
    timing_fields: null,
    corrections: [],
    signature: { state: 'UNSIGNED', kid: null, signed_at: null, reason },
    originals: [],
  };
}

/** The ledger document; latency is computed here, on each call. */
export function correctionsDocument(view: LedgerView, signature: SignatureStatus): CorrectionsDocument {
  const reverse = supersededBy(view.entries);
  const corrections = view.entries.map((v) => {
    const link = v.fields.text_superseded_by === undefined ? reverse.get(v.id) : undefined;
    return { ...v.fields, ...(link && { text_superseded_by: link }), correction_latency: correctionLatency(v.entry) };
  });
  return {
    schema: CORRECTIONS_SCHEMA,
    ledger_published: true,
    policy: view.ledger.policy,
    license: view.ledger.license,
    publisher: view.ledger.publisher,
    timing_fields: { ...view.ledger.timing_fields, correction_latency: LATENCY_EXPLAINED },
    corrections,
    signature,
    originals: view.entries.map((v) => ({ id: v.id, url: originalUrl(v.id), sha256: v.sha256 })),
  };
}
