/**
 * The `/api/oracle-fleet` document (`svc.oracle-fleet/0.1`; specification, "Capability
 * fabric": rail oracle-fleet, action svc.compute.heartbeat.read, whose output requires
 * `source`; "Limits": watchdog period 10 minutes, external dead-man's switch). The body beyond
 * `source` is not shown; docs/drafts/action-jobs.md lists every field.
 *
 * Heartbeats are recorded in the ledger by `gspc heartbeat --source <slug>`; the external
 * watchdog's cron runs it with source `watchdog` at least every 10 minutes. A beat older than
 * the period means the dead-man's switch missed its check-in: STALE. Ages come from the clock
 * passed in; an unread ledger gives nulls and UNREAD with the reason, never NEVER_SEEN.
 */

export const ORACLE_FLEET_SCHEMA = 'svc.oracle-fleet/0.1';
export const WATCHDOG_SOURCE = 'watchdog';
/** The watchdog period (specification, Limits: 10 minutes); also the freshness period of every source. */
export const WATCHDOG_PERIOD_SECONDS = 600;
/**
 * A beat dated up to this far after the service's clock counts as a small clock difference;
 * one further ahead cannot show the source is alive (else a single far-future beat would keep
 * the dead-man's switch "fresh" for ever).
 */
export const FUTURE_TOLERANCE_SECONDS = 60;

/** Heartbeat source names: short lowercase slugs. */
export const HEARTBEAT_SOURCE = /^[a-z0-9][a-z0-9._-]{0,62}$/;

/** The latest beat of one source, as the ledger summarises it. */
export interface HeartbeatLatest {
  source: string;
  /** The `at` of the source's most recently recorded beat (ISO 8601 UTC). */
  last_seen: string;
  /** Beats recorded for the source, all time. */
  beats: number;
  note: string | null;
}

/** What the route read: the latest beat per source, or why nothing was read. */
export type HeartbeatRead =
  | { ok: true; source: string; latest: readonly HeartbeatLatest[] }
  | { ok: false; source: string; reason: string };

export type Freshness = 'FRESH' | 'STALE' | 'NEVER_SEEN' | 'UNREAD';

export interface HeartbeatView {
  source: string;
  last_seen: string;
  /** Seconds from last_seen to observed_at (millisecond precision; negative when dated ahead); null when unreadable. */
  age_seconds: number | null;
  state: Freshness;
  beats: number;
  note?: string;
  reason: string;
}

export interface WatchdogView {
  source: typeof WATCHDOG_SOURCE;
  period_seconds: number;
  /** null: never seen, or unread (see state). */
  last_seen: string | null;
  age_seconds: number | null;
  state: Freshness;
  reason: string;
}

export interface OracleFleetDocument {
  schema: typeof ORACLE_FLEET_SCHEMA;
  observed_at: string;
  /** Where the heartbeats are read from (required by the heartbeat read action's output). */
  source: string;
  watchdog: WatchdogView;
  /** One entry per source, by name; null when the ledger was not read. */
  heartbeats: HeartbeatView[] | null;
  /** Sources that could not be read, each with its reason; empty when everything was read. */
  unread: { source: string; reason: string }[];
}

/** FRESH while the beat is at most one period old (and not implausibly far ahead), else STALE. */
export function freshness(
  lastSeen: string,
  now: Date,
): { age_seconds: number | null; state: Freshness; reason: string } {
  const at = Date.parse(lastSeen);
  if (Number.isNaN(at))
    return {
      age_seconds: null,
      state: 'UNREAD',
      reason: `the recorded time ${JSON.stringify(lastSeen)} is not a time`,
    };
  const ageMs = now.getTime() - at;
  const age_seconds = ageMs / 1000;
  if (ageMs > WATCHDOG_PERIOD_SECONDS * 1000) {
    return {
      age_seconds,
      state: 'STALE',
      reason: `the last beat is ${age_seconds} s old, older than the ${WATCHDOG_PERIOD_SECONDS} s period: a check-in was missed`,
    };
  }
  if (-ageMs > FUTURE_TOLERANCE_SECONDS * 1000) {
    return {
      age_seconds,
      state: 'STALE',
      reason: `the last beat is dated ${-age_seconds} s after this service's clock (more than ${FUTURE_TOLERANCE_SECONDS} s): the clocks disagree, so it cannot show the source is alive`,
    };
  }
  return {
    age_seconds,
    state: 'FRESH',
    reason: `the last beat is ${age_seconds} s old, within the ${WATCHDOG_PERIOD_SECONDS} s period`,
  };
}

function heartbeatView(h: HeartbeatLatest, now: Date): HeartbeatView {
  const f = freshness(h.last_seen, now);
  return {
    source: h.source,
    last_seen: h.last_seen,
    age_seconds: f.age_seconds,
    state: f.state,
    beats: h.beats,
    ...(h.note !== null && { note: h.note }),
    reason: f.reason,
  };
}

/** Builds the document from one read of the ledger; `now` is the request's clock. */
export function oracleFleetDocument(read: HeartbeatRead, now: Date): OracleFleetDocument {
  const base = { schema: ORACLE_FLEET_SCHEMA, observed_at: now.toISOString(), source: read.source } as const;
  const period = { source: WATCHDOG_SOURCE, period_seconds: WATCHDOG_PERIOD_SECONDS } as const;
  if (!read.ok) {
    return {
      ...base,
      watchdog: {
        ...period,
        last_seen: null,
        age_seconds: null,
        state: 'UNREAD',
        reason: `heartbeats were not read: ${read.reason}`,
      },
      heartbeats: null,
      unread: [{ source: read.source, reason: read.reason }],
    };
  }
  const heartbeats = [...read.latest]
    .sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0))
    .map((h) => heartbeatView(h, now));
  const dog = heartbeats.find((h) => h.source === WATCHDOG_SOURCE);
  const watchdog: WatchdogView =
    dog === undefined
      ? {
          ...period,
          last_seen: null,
          age_seconds: null,
          state: 'NEVER_SEEN',
          reason: `no heartbeat from source '${WATCHDOG_SOURCE}' has been recorded: the external dead-man's switch has never checked in`,
        }
      : { ...period, last_seen: dog.last_seen, age_seconds: dog.age_seconds, state: dog.state, reason: dog.reason };
  return { ...base, watchdog, heartbeats, unread: [] };
}
