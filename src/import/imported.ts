/**
 * What a harness reader (lm-eval, Inspect AI, HELM, Every Eval Ever) gives the importer: runs of
 * per-item rows in the corpus's terms (docs/formats.md §1, "per-item rows"), each with the
 * provenance kept on the written row and, where the input carries one, the harness's own verdict,
 * which the importer checks against the project's grading (label ∈ gold) row by row.
 * Readers never write; the importer (`import-runs.ts`) merges runs into a corpus.
 */

import type { ClusterField } from './cluster-field.js';
import type { FacetFields } from './facet-fields.js';
import type { RecordedCard } from '../core/board/model-card.js';
import type { RunSettings } from '../core/board/run-settings.js';

/** The formats `gspc import` reads (formats.ts maps each to its reader; the type makes it total). */
export const FORMATS = ['lm-eval', 'inspect', 'helm', 'eee'] as const;
export type HarnessFormat = (typeof FORMATS)[number];

export function isFormat(s: string): s is HarnessFormat {
  return (FORMATS as readonly string[]).includes(s);
}

/** Provenance kept byte for byte in the row's extra fields (the derivation ignores them). */
export interface Provenance {
  harness: HarnessFormat;
  /** The harness's version as the file states it (lm_eval_version, Inspect's packages, HELM's), or null. */
  harness_version: string | null;
  task: string;
  /** The harness's own sample id, as it is typed there (Inspect ids may be numbers or strings). */
  sample_id: string | number;
  epoch?: number;
  /** lm-eval filter, HELM split, Inspect/EEE scorer: whichever the harness has. */
  filter?: string;
  split?: string;
  scorer?: string;
  /** The raw model response (before extraction), or null when the input has none. */
  response: string | null;
  /** SHA-256 of the source file's bytes (for a ZIP: of the whole archive). */
  source_sha256: string;
}

/** The harness's own per-item verdict. `correct` null: the harness scored the row as unparsed (Inspect `N`, lm-eval `[invalid]`). */
export interface HarnessVerdict {
  correct: boolean | null;
  /** The value as the harness wrote it (`"C"`, `1.0`, `0`). */
  raw: unknown;
  /** The metric or scorer it comes from (`acc`, `exact_match`, `match`, `quasi_exact_match`). */
  metric: string;
  /** How the harness's scorer compares an answer with the target (documented per format in
   * docs/import.md). The importer applies it to the row's label, to every gold and to the run's
   * `labels`, and WRITES the normalised values: the board grades `label ∈ gold` exactly, so the
   * written row must already be in the scorer's terms. Readers give the raw label and gold. */
  normalise: (s: string) => string;
}

/**
 * What the harness recorded of one response's cost (docs/import.md, "Tokens and latency"): each
 * field only when the harness wrote it, never computed or defaulted; an absent field is unknown.
 */
export interface RowUsage {
  input_tokens?: number;
  output_tokens?: number;
  latency_ms?: number;
}

export interface ImportedRow {
  /** The item id written to the corpus: `<task>/<sample id>` (a harness's ids are per task). */
  item: string;
  model: string;
  gold: string | string[];
  /** The extracted label; null when no label could be read (unparsed, never scored as wrong). */
  label: string | null;
  item_hash?: string;
  /** The item's cluster, read with `--cluster` from the harness's record of it. */
  cluster?: string;
  /**
   * What the harness records the item is about (issue 41: lm-eval's groups of the task, a field
   * the operator names); absent when it records nothing, never guessed.
   */
  tags?: string[];
  /** When the item was written, from a field the operator names (`YYYY-MM-DD` or `YYYY-MM`). */
  item_date?: string;
  /** Tokens and latency as the harness recorded them for this response (issue 40). */
  usage?: RowUsage;
  provenance: Provenance;
  verdict?: HarnessVerdict;
  /** Where the row came from, for messages: `file:line` or `file!entry`. */
  at: string;
}

/** The aggregate the harness itself reports for the run (compared with the imported rows). */
export interface ReportedAggregate {
  metric: string;
  value: number;
  /** What the harness divides by: every row (unparsed counted wrong) or only scored rows. */
  denominator: 'all' | 'scored';
  /** Where it was read: `results_….json results.copa["acc,none"]`. */
  source: string;
}

/**
 * One run: one task, one model, one source file. `format`, `task`, `model` and `source` are read
 * before the rows; every other field (`as_of`, `labels`, `reported`, `notes`) is read only once
 * `rows` is exhausted, so a streaming reader may fill them while it reads (lm-eval learns the
 * filter, hence the reported metric, and the choices from the rows themselves).
 * Throwing from `rows` refuses the whole import: nothing is written.
 */
export interface ImportedRun {
  format: HarnessFormat;
  task: string;
  /** The model id, from the file or `--model`; a run without one is refused by the reader. */
  model: string;
  source: { file: string; sha256: string };
  /** When the run was measured (ISO 8601 UTC ending in Z), or null when the input does not say. */
  as_of: string | null;
  /** The task's own answer options (Inspect choices, HELM references, lm-eval choices), or null when the input has none. */
  labels: string[] | null;
  reported: ReportedAggregate | null;
  /** Things the reader decided and says aloud (the split it chose, the filter it took). */
  notes: string[];
  rows: AsyncIterable<ImportedRow> | Iterable<ImportedRow>;
  /** Optional: the fraction (0–1) of the source read so far, for the progress bar on a TTY. */
  progress?: () => number;
  /**
   * What the harness itself recorded about the model (`models.json`, issue 40), with where it was
   * read (`results_….json config`); absent when it recorded nothing. Never guessed from a name.
   */
  card?: { fields: RecordedCard; source: string };
  /**
   * How the harness says it ran this model on this task (`runs.json`, issue 40 item 2): shots,
   * generation and template settings, limit, harness and version, date, each only as recorded,
   * with where it was read. Absent when it recorded nothing.
   */
  settings?: { fields: RunSettings; source: string };
}

/** Options every reader accepts (each uses the ones that apply to its format). */
export interface ReadOptions {
  /** Model id when the file names none (lm-eval samples without results, GSM8K fixture). */
  model?: string;
  /** lm-eval: the filter to take (default: the task's first). */
  filter?: string;
  /** HELM: the split (default `test`, else the only evaluated split). */
  split?: string;
  /** Inspect: how epochs reduce to one binary value per item. */
  epochs?: 'first' | 'majority';
  /** Inspect: import a cancelled or errored run anyway. */
  allowIncomplete?: boolean;
  /** Whether the target axis is MEASURED (a model-judged run is refused for a MEASURED axis). */
  measured?: boolean;
  /** `--cluster`: the field of each item's record that names its cluster (cluster-field.ts). */
  cluster?: ClusterField;
  /** `--tag-field`, `--date-field`: the fields of each item's record that give its tags and date (facet-fields.ts). */
  facets?: FacetFields;
}

/** A reader: the runs in the given files (a directory may hold several). Refusals are thrown as GspcError('import_refused', reason). */
export type HarnessReader = (paths: readonly string[], opts: ReadOptions) => AsyncIterable<ImportedRun>;
