/**
 * The hub-cards aggregate (`/api/hub-cards`): the signed-card cells of this board and of the
 * peer boards the operator names, under the null rule (specification, Invariants §2 and §3):
 * withdrawn cards are listed under `withdrawn_cells`, never in `cells` or the counts; counts are
 * totals only when every hub's index was read, else null with a floor and the unread hubs named.
 */
import { applyNullRule, type SourceRead } from './null-rule.js';

export const HUB_CARDS_SCHEMA = 'svc.hub-cards/0.1';
/** Limits: hub-cards cache window, ten minutes. */
export const HUB_INDEX_CACHE_SECONDS = 600;

export interface HubCell {
  subject: string;
  axis: string;
  surface: string;
  sha256: string;
  url: string;
  signed: boolean;
}
export interface HubWithdrawn {
  subject: string;
  axis: string;
  sha256: string;
  url: string;
  reason: string;
}
export interface HubIndex {
  cells: HubCell[];
  withdrawn: HubWithdrawn[];
}

/** One hub's read, with where and when it was read. */
export interface HubRead {
  hub: string;
  kind: 'self' | 'peer';
  /** Where the index was read: a path of this release, or the peer's index URL. */
  index: string;
  /** When the index in use was read (a cached read keeps its time); null when unread. */
  read_at: string | null;
  from_cache: boolean;
  /** Reads tried for this request: 2 when the first failed and was retried outside the cache. */
  attempts: number;
  result: { ok: true; index: HubIndex } | { ok: false; reason: string };
}

export interface HubCounts {
  cells: number;
  signed_cells: number;
  subjects: number;
  axes: number;
  hubs_read: number;
}

function counts(indexes: ReadonlyMap<string, HubIndex>): HubCounts {
  const cells = [...indexes.values()].flatMap((i) => i.cells);
  return {
    cells: cells.length,
    signed_cells: cells.filter((c) => c.signed).length,
    subjects: new Set(cells.map((c) => c.subject)).size,
    axes: new Set(cells.map((c) => c.axis)).size,
    hubs_read: indexes.size,
  };
}

/** A hub that lists a card it has also withdrawn: the withdrawal wins (listed apart, never counted). */
function withoutWithdrawn(i: HubIndex): HubIndex {
  const gone = new Set(i.withdrawn.map((w) => w.sha256));
  return { cells: i.cells.filter((c) => !gone.has(c.sha256)), withdrawn: i.withdrawn };
}

export function hubCardsDocument(reads: readonly HubRead[], now: Date) {
  const clean = reads.map((r) => ({
    ...r,
    result: r.result.ok ? { ok: true as const, index: withoutWithdrawn(r.result.index) } : r.result,
  }));
  const agg = applyNullRule(
    clean.map(
      (r): SourceRead<HubIndex> =>
        r.result.ok
          ? { source: r.hub, read: true, value: r.result.index }
          : { source: r.hub, read: false, reason: r.result.reason },
    ),
    counts,
  );
  return {
    schema: HUB_CARDS_SCHEMA,
    observed_at: now.toISOString(),
    cache_window_seconds: HUB_INDEX_CACHE_SECONDS,
    sources: clean.map((r) => ({
      hub: r.hub,
      kind: r.kind,
      index: r.index,
      read: r.result.ok,
      read_at: r.read_at,
      from_cache: r.from_cache,
      attempts: r.attempts,
      cells: r.result.ok ? r.result.index.cells.length : null,
      reason: r.result.ok ? null : r.result.reason,
    })),
    cells: clean.flatMap((r) => (r.result.ok ? r.result.index.cells.map((c) => ({ hub: r.hub, ...c })) : [])),
    withdrawn_cells: clean.flatMap((r) =>
      r.result.ok ? r.result.index.withdrawn.map((w) => ({ hub: r.hub, ...w })) : [],
    ),
    counts: agg.totals,
    counts_floor: agg.totals_floor,
    unread_sources: agg.unread_sources,
    note: 'Counts cover every hub only when every hub index was read; otherwise counts is null and counts_floor is a lower bound over the hubs read. Withdrawn cards are listed apart and never counted.',
  };
}
