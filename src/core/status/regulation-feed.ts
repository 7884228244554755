/**
 * The regulation deadline feed (`svc.regulation-feed/0.1`, served at `GET /api/regulation`):
 * the corpus's version-pinned deadlines with their verified-as-of date, re-verified quarterly
 * and on amendment (specification, "Versioning" §5), plus enforcement signals and the per-
 * instrument first-fine watch. Capability action `svc.regulation.deadlines.read` requires
 * `schema` and `deadlines`. Pure: the clock is passed in; sources are citations, never fetched.
 */

/** Schema id of the served document. */
export const REGULATION_FEED_SCHEMA = 'svc.regulation-feed/0.1';
/** "Re-verified quarterly": the longest quarter (92 days) after `verified_as_of`. */
export const REVERIFY_PERIOD_DAYS = 92;
/** Where the feed is served (a path relative to the base URL). */
export const REGULATION_FEED_PATH = '/api/regulation';

export const DEADLINE_STATUSES = ['ADOPTED', 'AMENDED', 'PROPOSED', 'POSTPONED', 'REPEALED'] as const;
export type DeadlineStatus = (typeof DEADLINE_STATUSES)[number];
export const SIGNAL_KINDS = ['fine', 'guidance', 'investigation', 'decision', 'consultation'] as const;
export type SignalKind = (typeof SIGNAL_KINDS)[number];

/** A citation: text and URL as text. The service never fetches the URL. */
export interface RegulationSource {
  citation: string;
  url: string;
}

/** One deadline of corpus `status/regulation.json`. */
export interface RegulationDeadline {
  id: string;
  instrument: string;
  provision: string;
  obligation: string;
  /** ISO date (YYYY-MM-DD) from which the provision applies. */
  applies_from: string;
  source: RegulationSource;
  /** SHA-256 hex of the pinned provision text (UTF-8 bytes). */
  provision_text_sha256: string;
  /** The pinned provision text itself, when included; its SHA-256 is checked at load. */
  provision_text?: string;
  verified_as_of: string;
  status: DeadlineStatus;
}

/** An enforcement signal (a fine, guidance, an investigation, ...). */
export interface EnforcementSignal {
  id: string;
  date: string;
  authority: string;
  instrument: string;
  kind: SignalKind;
  summary: string;
  source: RegulationSource;
}

/** The first-fine watch of one instrument: null until a fine signal is recorded. */
export interface FirstFineWatchEntry {
  instrument: string;
  watching_since: string;
  first_fine: string | null;
}

/** Corpus `status/regulation.json`, validated (src/corpus/status/regulation.ts). */
export interface RegulationFile {
  version: string;
  verified_as_of: string;
  reverify_policy: string;
  deadlines: RegulationDeadline[];
  signals?: EnforcementSignal[];
  first_fine_watch?: FirstFineWatchEntry[];
  note?: string;
}

/** A stream in the eunomia feed's shape: a value, or null with why it was not read. */
export interface Stream<T> {
  value: T | null;
  unreadable: string | null;
}

export type ReverificationState = 'CURRENT' | 'OVERDUE';

export interface ServedDeadline extends RegulationDeadline {
  /** Whole UTC days from the observation day to `applies_from`; ≤ 0 once in force. */
  days_until: number;
  in_force: boolean;
}

export interface ServedWatchEntry extends FirstFineWatchEntry {
  state: 'NO_FINE_RECORDED' | 'FIRST_FINE_RECORDED';
  /** Date of the first fine signal, when one is recorded. */
  first_fine_date?: string;
}

export const ABSENT_REASON =
  "unread: this release's corpus has no status/regulation.json, so the regulation feed is not published; this is not a statement that there are no deadlines";
const SOURCES_NOTE =
  'Sources are citations (text and URL as text); this service never fetches them. provision_text_sha256 pins the provision text the deadline was verified against.';

const DAY_MS = 86_400_000;
/** Days since 1970-01-01 of an ISO date (YYYY-MM-DD). */
export function epochDay(isoDate: string): number {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d) / DAY_MS;
}
/** The ISO date `days` after `isoDate`. */
export function addDays(isoDate: string, days: number): string {
  return new Date((epochDay(isoDate) + days) * DAY_MS).toISOString().slice(0, 10);
}
/** True when `s` is a real calendar date written YYYY-MM-DD. */
export function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const t = epochDay(s) * DAY_MS;
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === s;
}

/**
 * Reverification of the feed: due `REVERIFY_PERIOD_DAYS` after `verified_as_of`; CURRENT up to
 * and including the due day (UTC), OVERDUE from the day after.
 */
export function reverification(file: RegulationFile, now: Date) {
  const due_by = addDays(file.verified_as_of, REVERIFY_PERIOD_DAYS);
  const today = Math.floor(now.getTime() / DAY_MS);
  const overdue = today - epochDay(due_by);
  return {
    policy: file.reverify_policy,
    period_days: REVERIFY_PERIOD_DAYS,
    due_by,
    state: (overdue > 0 ? 'OVERDUE' : 'CURRENT') as ReverificationState,
    ...(overdue > 0 && { days_overdue: overdue }),
  };
}

function servedDeadline(d: RegulationDeadline, today: number): ServedDeadline {
  const days_until = epochDay(d.applies_from) - today;
  return { ...d, days_until, in_force: days_until <= 0 };
}

function servedWatch(w: FirstFineWatchEntry, signals: readonly EnforcementSignal[]): ServedWatchEntry {
  if (w.first_fine === null) return { ...w, state: 'NO_FINE_RECORDED' };
  const s = signals.find((x) => x.id === w.first_fine);
  return { ...w, state: 'FIRST_FINE_RECORDED', ...(s && { first_fine_date: s.date }) };
}

const byDateThenId =
  <T extends { id: string }>(date: (x: T) => string) =>
  (a: T, b: T) =>
    date(a) < date(b) ? -1 : date(a) > date(b) ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * The served feed at `now`. Without a corpus file every block is null with `reason` (an unread
 * source, never an empty list); a file without `signals` or `first_fine_watch` gives that block
 * null with its own reason, while an empty list in the file is served as read and empty.
 */
export function regulationFeed(file: RegulationFile | undefined, now: Date): Record<string, unknown> {
  const head = { schema: REGULATION_FEED_SCHEMA, observed_at: now.toISOString() };
  if (!file) {
    return {
      ...head,
      version: null,
      verified_as_of: null,
      reverification: null,
      deadlines: null,
      signals: null,
      first_fine_watch: null,
      reason: ABSENT_REASON,
    };
  }
  const today = Math.floor(now.getTime() / DAY_MS);
  const deadlines = [...file.deadlines]
    .sort(byDateThenId<RegulationDeadline>((d) => d.applies_from))
    .map((d) => servedDeadline(d, today));
  const signals = file.signals ? [...file.signals].sort(byDateThenId<EnforcementSignal>((s) => s.date)) : null;
  const watch = file.first_fine_watch ? file.first_fine_watch.map((w) => servedWatch(w, file.signals ?? [])) : null;
  return {
    ...head,
    version: file.version,
    verified_as_of: file.verified_as_of,
    reverification: reverification(file, now),
    deadlines,
    counts: {
      deadlines: deadlines.length,
      in_force: deadlines.filter((d) => d.in_force).length,
      upcoming: deadlines.filter((d) => !d.in_force).length,
    },
    signals,
    ...(signals === null && {
      signals_reason: `unread: regulation feed version ${file.version} carries no signals block`,
    }),
    first_fine_watch: watch,
    ...(watch === null && {
      first_fine_watch_reason: `unread: regulation feed version ${file.version} carries no first_fine_watch block`,
    }),
    sources_note: SOURCES_NOTE,
    ...(file.note !== undefined && { note: file.note }),
  };
}

/** The value of a regulation stream in the eunomia feed: version-pinned entries and where they come from. */
export interface RegulationStreamValue<T> {
  url: string;
  version: string;
  verified_as_of: string;
  entries: T[];
}

/**
 * The `signals` and `first_fine_watch` streams of the eunomia feed (specification, "Product
 * eunomia_data") read from the regulation feed. `null` file: the release publishes none, so
 * both are unread with the reason; a file without a block leaves that stream unread.
 */
export function regulationStreams(
  file: RegulationFile | null,
  baseUrl: string,
): {
  signals: Stream<RegulationStreamValue<EnforcementSignal>>;
  first_fine_watch: Stream<RegulationStreamValue<ServedWatchEntry>>;
} {
  const url = `${baseUrl}${REGULATION_FEED_PATH}`;
  if (file === null) {
    return {
      signals: { value: null, unreadable: ABSENT_REASON },
      first_fine_watch: { value: null, unreadable: ABSENT_REASON },
    };
  }
  const pin = { url, version: file.version, verified_as_of: file.verified_as_of };
  const missing = (block: string) => ({
    value: null,
    unreadable: `unread: regulation feed version ${file.version} carries no ${block} block`,
  });
  return {
    signals: file.signals
      ? {
          value: { ...pin, entries: [...file.signals].sort(byDateThenId<EnforcementSignal>((s) => s.date)) },
          unreadable: null,
        }
      : missing('signals'),
    first_fine_watch: file.first_fine_watch
      ? {
          value: { ...pin, entries: file.first_fine_watch.map((w) => servedWatch(w, file.signals ?? [])) },
          unreadable: null,
        }
      : missing('first_fine_watch'),
  };
}
