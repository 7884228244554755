/**
 * Reported figures (`svc.reported-figures/0.1`, served at `GET /api/reported`): numbers others
 * have published about models (vendor model cards, papers), shown with their citation. They are
 * REPORTED, never MEASURED: not measurements of this service, never quotable as board results
 * and never counted in the board's totals (specification, "What the service does" §5).
 */

export const REPORTED_FIGURES_SCHEMA = 'svc.reported-figures/0.1';

/** One figure of corpus `status/reported.json`. */
export interface ReportedFigure {
  subject: string;
  metric: string;
  value: number;
  unit: string;
  /** Who published the figure (a vendor, the authors of a paper). */
  reported_by: string;
  /** Citation text. */
  source: string;
  /** The cited location as text; never fetched. */
  url?: string;
  /** ISO date the figure was published or read. */
  as_of: string;
  note: string;
}

/** Corpus `status/reported.json`, validated (src/corpus/status/reported.ts). */
export interface ReportedFile {
  figures: ReportedFigure[];
  note?: string;
}

export const REPORTED_NOTE =
  'Figures reported by others (vendor model cards, papers), quoted with their source. They are not measurements of this service: ' +
  "never MEASURED, never quotable as board results, and never counted in the board's totals. Measured figures are at /api/gspc.";
export const REPORTED_ABSENT_REASON =
  "unread: this release's corpus has no status/reported.json, so no reported figures are published; this is not a statement that none exist";

/** How many figures the release publishes, or null (unread) when it has no file: never 0 for "absent". */
export function reportedCount(file: ReportedFile | undefined): number | null {
  return file ? file.figures.length : null;
}

/** The served document; every figure is labelled `kind: 'REPORTED'`. */
export function reportedFigures(file: ReportedFile | undefined): Record<string, unknown> {
  const head = { schema: REPORTED_FIGURES_SCHEMA, kind: 'REPORTED', quotable_as_measured: false, note: REPORTED_NOTE };
  if (!file) return { ...head, figures: null, reason: REPORTED_ABSENT_REASON };
  return {
    ...head,
    ...(file.note !== undefined && { corpus_note: file.note }),
    // `kind` last, so nothing in a figure can relabel it.
    figures: file.figures.map((f) => ({ ...f, kind: 'REPORTED' as const })),
  };
}
