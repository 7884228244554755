/**
 * When an entry's error was detected and when its correction became public, as spans of
 * possible instants with a plain description of how each was read. The latency block and the
 * corpus checks share this one reading, so what is refused and what is bounded agree.
 */
import type { CorrectionEntry } from './corrections-entry.js';
import { instantsOf, intersect, readRecordedTime, type Instants } from './corrections-time.js';

/** A span with how it was read; `exact` when it is one instant. */
export interface Span extends Instants {
  exact: boolean;
  /** How the upper and lower bounds use it, for the latency's `basis`. */
  describe: string;
}

export type SpanRead =
  | { ok: true; span: Span }
  | { ok: false; unmeasured: string }
  | { ok: false; contradiction: string; field: string };

type Timing = Pick<CorrectionEntry, 'detected_at' | 'detected_window' | 'published_at'>;

/** The detection span: detected_at, narrowed by detected_window when both are recorded. */
export function detectionSpan(e: Timing): SpanRead {
  const at = readRecordedTime(e.detected_at, true);
  if (at === undefined)
    return {
      ok: false,
      contradiction: 'is not an ISO 8601 UTC datetime, an ISO date or UNRECORDED',
      field: 'detected_at',
    };
  let window: Instants | undefined;
  let windowText = '';
  if (e.detected_window !== undefined) {
    const w = e.detected_window;
    const nb = readRecordedTime(w.not_before, false);
    const na = readRecordedTime(w.not_after, false);
    if (nb === undefined)
      return {
        ok: false,
        contradiction: 'is not an ISO 8601 UTC datetime or an ISO date',
        field: 'detected_window.not_before',
      };
    if (na === undefined)
      return {
        ok: false,
        contradiction: 'is not an ISO 8601 UTC datetime or an ISO date',
        field: 'detected_window.not_after',
      };
    const lo = instantsOf(nb)!;
    const hi = instantsOf(na)!;
    window = { lo: lo.lo, hi: hi.hi, hiOpen: hi.hiOpen };
    if (window.lo > window.hi || (window.lo === window.hi && window.hiOpen))
      return { ok: false, contradiction: 'not_after is earlier than not_before', field: 'detected_window' };
    windowText = `detected_window ${w.not_before} to ${w.not_after} (${w.basis})`;
  }
  if (at.kind === 'datetime') {
    if (window && intersect(window, instantsOf(at)!) === undefined)
      return { ok: false, contradiction: `${at.text} lies outside detected_window`, field: 'detected_at' };
    return { ok: true, span: { ...instantsOf(at)!, exact: true, describe: `detected_at ${at.text}` } };
  }
  if (at.kind === 'date') {
    const day = instantsOf(at)!;
    if (!window) {
      return {
        ok: true,
        span: {
          ...day,
          exact: false,
          describe: `detection recorded only to the day ${at.text}: the upper bound counts from its start (${at.text}T00:00:00Z), the lower bound from its end (24:00:00Z)`,
        },
      };
    }
    const both = intersect(day, window);
    if (both === undefined)
      return { ok: false, contradiction: `the day ${at.text} lies outside detected_window`, field: 'detected_at' };
    return {
      ok: true,
      span: {
        ...both,
        exact: false,
        describe: `detection recorded only to the day ${at.text}, within ${windowText}: the upper bound counts from the earliest instant both allow, the lower bound from the latest`,
      },
    };
  }
  if (!window) return { ok: false, unmeasured: 'detected_at is UNRECORDED and no detected_window is recorded' };
  return {
    ok: true,
    span: {
      ...window,
      exact: false,
      describe: `detection known only within ${windowText}: the upper bound counts from not_before, the lower bound from not_after`,
    },
  };
}

/** The publication span: one instant, one UTC day, or unmeasured when UNRECORDED. */
export function publicationSpan(e: Timing): SpanRead {
  const at = readRecordedTime(e.published_at, true);
  if (at === undefined)
    return {
      ok: false,
      contradiction: 'is not an ISO 8601 UTC datetime, an ISO date or UNRECORDED',
      field: 'published_at',
    };
  if (at.kind === 'unrecorded') return { ok: false, unmeasured: 'published_at is UNRECORDED' };
  if (at.kind === 'datetime')
    return { ok: true, span: { ...instantsOf(at)!, exact: true, describe: `published_at ${at.text}` } };
  return {
    ok: true,
    span: {
      ...instantsOf(at)!,
      exact: false,
      describe: `published_at recorded only to the day ${at.text}: the upper bound runs to the end of that day (24:00:00Z), the lower bound from its start (00:00:00Z)`,
    },
  };
}
