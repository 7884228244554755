/**
 * `correction_latency` (specification, "Corrections ledger"): how long a correction took from
 * detection to publication. Never stored and never signed: computed from the entry's recorded
 * times on every request.
 *
 * - EXACT: detected_at and published_at are both UTC datetimes; `seconds` = published − detected
 *   (and both bounds equal it).
 * - UPPER_BOUND: detection is known only to a day (counted from its start) or a window (from
 *   not_before), or publication only to a day (to its end). `upper_bound_seconds` always; a
 *   `lower_bound_seconds` only when one above zero can be stated (from the end of the detection
 *   day or not_after, to the start of the publication day); `seconds` is null (not measured).
 * - UNMEASURED: detection UNRECORDED without a window, or publication UNRECORDED; every figure
 *   null and the reason given.
 */
import type { CorrectionEntry } from './corrections-entry.js';
import { detectionSpan, publicationSpan } from './corrections-spans.js';

export type LatencyKind = 'EXACT' | 'UPPER_BOUND' | 'UNMEASURED';

export interface CorrectionLatency {
  /** Always false: computed per request, outside any signature. */
  signed: false;
  kind: LatencyKind;
  /** The exact latency; null unless EXACT. */
  seconds: number | null;
  /** The latency is at most this; null when UNMEASURED. */
  upper_bound_seconds: number | null;
  /** The latency is at least this; null when no bound above zero can be stated. */
  lower_bound_seconds: number | null;
  /** How the figures were computed (EXACT and UPPER_BOUND). */
  basis?: string;
  /** Why nothing could be computed (UNMEASURED). */
  reason?: string;
}

const unmeasured = (reason: string): CorrectionLatency => ({
  signed: false,
  kind: 'UNMEASURED',
  seconds: null,
  upper_bound_seconds: null,
  lower_bound_seconds: null,
  reason,
});

/** The latency block of one entry, from its recorded detection and publication times. */
export function correctionLatency(
  entry: Pick<CorrectionEntry, 'detected_at' | 'detected_window' | 'published_at'>,
): CorrectionLatency {
  const detected = detectionSpan(entry);
  const published = publicationSpan(entry);
  // Publication is named first when both are missing: without it no bound exists at all.
  if (!published.ok)
    return unmeasured(
      'unmeasured' in published ? published.unmeasured : `${published.field} ${published.contradiction}`,
    );
  if (!detected.ok)
    return unmeasured('unmeasured' in detected ? detected.unmeasured : `${detected.field} ${detected.contradiction}`);
  const d = detected.span;
  const p = published.span;
  // Instants are whole milliseconds, so the difference in ms is exact before dividing.
  const secs = (ms: number) => ms / 1000;
  if (p.hi < d.lo) return unmeasured('published_at is earlier than every instant the detection allows');
  if (d.exact && p.exact) {
    const s = secs(p.lo - d.lo);
    return {
      signed: false,
      kind: 'EXACT',
      seconds: s,
      upper_bound_seconds: s,
      lower_bound_seconds: s,
      basis: `published_at − detected_at, both recorded as UTC datetimes (${d.describe}; ${p.describe})`,
    };
  }
  const upper = secs(p.hi - d.lo);
  const lowerMs = p.lo - d.hi;
  const lower = lowerMs > 0 ? secs(lowerMs) : null;
  const lowerText =
    lower === null
      ? '; no lower bound above zero can be stated: the detection may have been as late as the publication'
      : '';
  return {
    signed: false,
    kind: 'UPPER_BOUND',
    seconds: null,
    upper_bound_seconds: upper,
    lower_bound_seconds: lower,
    basis: `${d.describe}; ${p.describe}${lowerText}`,
  };
}
