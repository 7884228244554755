/**
 * The provider canary document `svc.provider-canary/0.1` (specification, "Capability fabric":
 * rails model-hub-provider-execution and pod-execution at `/api/provider-canary`; Errors: 'provider
 * adapter is unconfigured'). The service makes no provider call: the only adapter is a file of
 * canary observations the operator's own runner writes (JSONL, one run per line). Pure: the
 * file's bytes (or why they could not be read) and the time are passed in.
 *
 * A canary observation shows that a provider call ran; it is never a measurement.
 */
import { createHash } from 'node:crypto';

export const PROVIDER_CANARY_SCHEMA = 'svc.provider-canary/0.1';
import { NO_ADAPTER } from '../fabric/rails.js';

export { NO_ADAPTER };
/** An observation older than this does not show the rail running now (decision in docs). */
export const CANARY_FRESHNESS_SECONDS = 3600;
/** The largest observation file read; the runner rotates or truncates it. */
export const CANARY_MAX_BYTES = 1024 * 1024;
/** A runner clock this far ahead is tolerated; further, the observation is not believed. */
const CLOCK_SKEW_SECONDS = 300;
const MAX_TEXT = 500;

export type CanaryOutcome = 'PASS' | 'FAIL';

/** One line of the observation file, exactly these keys. */
export interface CanaryObservation {
  provider: string;
  model: string;
  ran_at: string;
  outcome: CanaryOutcome;
  latency_ms: number;
  note: string;
}

/** What the I/O side could read of the configured adapter. */
export type CanaryFileRead =
  | { kind: 'unconfigured' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'read'; bytes: Uint8Array };

export type CanaryState = 'RUNTIME_OBSERVED' | 'UNCHECKABLE' | 'UNREACHABLE';

export interface ProviderCanaryDocument {
  schema: typeof PROVIDER_CANARY_SCHEMA;
  observed_at: string;
  rails: ['model-hub-provider-execution', 'pod-execution'];
  state: CanaryState;
  last_error: string | null;
  /** null: no adapter is configured. */
  adapter: null | { kind: 'operator-canary-file'; sha256: string | null; observations: number | null };
  measurement: false;
  measurement_note: string;
  egress: string;
  freshness_window_seconds: number;
  /** The most recent observation by `ran_at`; null when none was read. */
  latest: (CanaryObservation & { age_seconds: number }) | null;
}

const KEYS = ['provider', 'model', 'ran_at', 'outcome', 'latency_ms', 'note'] as const;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const NAME = /^[^\s\u0000-\u001f][^\u0000-\u001f]{0,199}$/;

function checkObservation(v: unknown): string | null {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'must be a JSON object';
  const r = v as Record<string, unknown>;
  const extra = Object.keys(r).find((k) => !(KEYS as readonly string[]).includes(k));
  if (extra !== undefined) return `unknown field '${extra.slice(0, 40)}'`;
  const missing = KEYS.find((k) => !(k in r));
  if (missing !== undefined) return `${missing}: is required`;
  if (typeof r.provider !== 'string' || !NAME.test(r.provider))
    return 'provider: must be a non-empty name of at most 200 characters';
  if (typeof r.model !== 'string' || !NAME.test(r.model))
    return 'model: must be a non-empty name of at most 200 characters';
  if (typeof r.ran_at !== 'string' || !ISO_UTC.test(r.ran_at) || Number.isNaN(Date.parse(r.ran_at)))
    return 'ran_at: must be an ISO 8601 UTC datetime ending in Z';
  if (r.outcome !== 'PASS' && r.outcome !== 'FAIL') return 'outcome: must be PASS or FAIL';
  if (typeof r.latency_ms !== 'number' || !Number.isSafeInteger(r.latency_ms) || r.latency_ms < 0)
    return 'latency_ms: must be a non-negative integer';
  if (typeof r.note !== 'string' || r.note.length > MAX_TEXT)
    return `note: must be a string of at most ${MAX_TEXT} characters`;
  return null;
}

/** Parses the observation file strictly: one bad line refuses the whole file, naming the line. */
export function parseCanaryObservations(
  text: string,
): { ok: true; observations: CanaryObservation[] } | { ok: false; reason: string } {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const observations: CanaryObservation[] = [];
  for (const [i, raw] of lines.entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { ok: false, reason: `line ${i + 1}: invalid JSON` };
    }
    const wrong = checkObservation(value);
    if (wrong) return { ok: false, reason: `line ${i + 1}: ${wrong}` };
    observations.push(value as CanaryObservation);
  }
  return { ok: true, observations };
}

/** The latest observation by `ran_at`; a tie goes to the later line (the runner appends). */
function latestOf(observations: readonly CanaryObservation[]): CanaryObservation | undefined {
  let best: CanaryObservation | undefined;
  for (const o of observations) if (!best || Date.parse(o.ran_at) >= Date.parse(best.ran_at)) best = o;
  return best;
}

const clip = (s: string) => (s.length > 200 ? `${s.slice(0, 199)}…` : s);

/**
 * Builds the document: UNCHECKABLE with 'provider adapter is unconfigured' without an adapter;
 * UNREACHABLE when the configured file cannot be read or the latest run FAILED; UNCHECKABLE
 * when it is invalid, empty, stale or dated ahead of the clock; RUNTIME_OBSERVED only for a
 * recent PASS. Never MEASURED.
 */
export function buildProviderCanary(read: CanaryFileRead, now: Date): ProviderCanaryDocument {
  const base = {
    schema: PROVIDER_CANARY_SCHEMA as typeof PROVIDER_CANARY_SCHEMA,
    observed_at: now.toISOString(),
    rails: ['model-hub-provider-execution', 'pod-execution'] as ProviderCanaryDocument['rails'],
  };
  const tail = {
    measurement: false as const,
    measurement_note:
      "A canary observation shows that the operator's runner reached a provider and how long it took; it is never a measurement and grades nothing.",
    egress: "none: the service makes no provider call; it reads the observations the operator's own runner records",
    freshness_window_seconds: CANARY_FRESHNESS_SECONDS,
  };
  const doc = (
    state: CanaryState,
    last_error: string | null,
    adapter: ProviderCanaryDocument['adapter'],
    latest: ProviderCanaryDocument['latest'] = null,
  ): ProviderCanaryDocument => ({ ...base, state, last_error, adapter, ...tail, latest });

  if (read.kind === 'unconfigured') return doc('UNCHECKABLE', NO_ADAPTER, null);
  if (read.kind === 'unreadable') {
    return doc('UNREACHABLE', `canary observation file unreadable: ${read.reason}`, {
      kind: 'operator-canary-file',
      sha256: null,
      observations: null,
    });
  }
  const sha256 = createHash('sha256').update(read.bytes).digest('hex');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    return doc('UNCHECKABLE', 'canary observation file is not UTF-8', {
      kind: 'operator-canary-file',
      sha256,
      observations: null,
    });
  }
  const parsed = parseCanaryObservations(text);
  if (!parsed.ok)
    return doc('UNCHECKABLE', `canary observation file invalid: ${parsed.reason}`, {
      kind: 'operator-canary-file',
      sha256,
      observations: null,
    });
  const adapter = { kind: 'operator-canary-file' as const, sha256, observations: parsed.observations.length };
  const latest = latestOf(parsed.observations);
  if (!latest) return doc('UNCHECKABLE', 'no canary observation recorded yet', adapter);
  const age = Math.floor((now.getTime() - Date.parse(latest.ran_at)) / 1000);
  const shown = { ...latest, age_seconds: age };
  if (age < -CLOCK_SKEW_SECONDS)
    return doc('UNCHECKABLE', `the latest observation (${latest.ran_at}) is dated after observed_at`, adapter, shown);
  if (age > CANARY_FRESHNESS_SECONDS) {
    return doc(
      'UNCHECKABLE',
      `the latest observation is ${age} s old (freshness window ${CANARY_FRESHNESS_SECONDS} s)`,
      adapter,
      shown,
    );
  }
  // A recent failed run is an observation that the provider could not be reached, not a running rail.
  if (latest.outcome === 'FAIL')
    return doc(
      'UNREACHABLE',
      clip(`latest canary run FAILED at ${latest.ran_at}${latest.note ? `: ${latest.note}` : ''}`),
      adapter,
      shown,
    );
  return doc('RUNTIME_OBSERVED', null, adapter, shown);
}
