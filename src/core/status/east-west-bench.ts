/**
 * The east-west bench (`svc.east-west-bench/0.1`, served at `GET /api/east-west-bench`):
 * derived from the served release, never typed. For each MEASURED model-comparison axis, the
 * best public model of each group (the service's own models removed, as on the board), its k/n
 * accuracy and Wilson interval, and an exact McNemar test between the two group leaders on the
 * items both parsed: SEPARATED (p < 0.05), TIE (a tie is not a win) or UNTESTED (no per-item
 * rows, a group with no model on the axis, no shared items, a refused bank, item hashes that
 * differ). Same ranking, tallies and statistics as the board (docs/methodology.md §3-§5).
 */
import type { ModelEvidence, Separation } from '../board/axis-row.js';
import type { ItemTable } from '../board/item-table.js';
import { pairedOutcomes } from '../board/paired-outcomes.js';
import type { AxisDefinition, ModelComparisonAxis } from '../board/model.js';
import { rank, tallyResults, tallyTable, type ModelRoles, type ModelTally } from '../board/model-tally.js';
import { mcnemarExact, SEPARATION_ALPHA, wilsonInterval } from '../stats/index.js';

export const EAST_WEST_SCHEMA = 'svc.east-west-bench/0.1';
export const GROUPS = ['east', 'west'] as const;
export type Group = (typeof GROUPS)[number];

/** Corpus `status/east-west.json`, validated (src/corpus/status/east-west.ts). */
export interface EastWestFile {
  groups: Record<Group, string[]>;
  /** Why the models are grouped this way (served verbatim). */
  basis: string;
  note?: string;
}

/** What the bench is derived from: the served release's corpus. */
export interface EastWestSource {
  /** The release's as-of (ISO 8601 UTC), never the clock. */
  as_of: string;
  /** Board-level own models (`board.json`); each axis may add its own. */
  own_models: readonly string[];
  definitions: readonly AxisDefinition[];
  tables: ReadonlyMap<string, ItemTable>;
}

export interface EastWestTest {
  test: 'exact McNemar, two-sided';
  alpha: number;
  /** Items both leaders parsed. */
  paired_items: number;
  /** East leader right and west leader wrong. */
  b: number;
  /** East leader wrong and west leader right. */
  c: number;
  p: number;
  p_mid: number;
  log10_p: number;
}

export interface EastWestAxis {
  axis: string;
  bench: string;
  dataset: string;
  n: number;
  leaders: Partial<Record<Group, ModelEvidence>>;
  /** Public models of each group with at least one parsed response here, and models in no group. */
  models_on_axis: Record<Group | 'ungrouped', number>;
  excluded_own_models?: string[];
  separation: Separation;
  separation_basis?: string;
  test?: EastWestTest;
  /** SEPARATED only: the group whose leader won more of the discordant items. */
  ahead?: Group;
}

export const EAST_WEST_RULE =
  "For each MEASURED model-comparison axis: the service's own models are removed; within each group, models are ranked as on the board " +
  '(accuracy = correct/parsed as exact fractions, then more parsed, then model id); the two group leaders are compared by an exact two-sided McNemar test ' +
  'on the items both parsed (b = east right and west wrong, c = east wrong and west right). p < 0.05 is SEPARATED and `ahead` names the group with more ' +
  'discordant wins; otherwise TIE (a tie is not a win). UNTESTED (never a tie) when the axis publishes no per-item rows, a group has no model on the axis, ' +
  'no item was parsed by both, the item hashes differ, or the bank is refused.';
export const EAST_WEST_ABSENT_REASON =
  "unread: this release's corpus has no status/east-west.json, so no model groups are defined and no bench is derived";

function evidenceOf(t: ModelTally): ModelEvidence {
  return {
    model: t.model,
    k: t.correct,
    n: t.parsed,
    accuracy: t.correct / t.parsed,
    interval: wilsonInterval(t.correct, t.parsed),
    unparsed: t.unparsed,
  };
}

function axisEntry(
  def: ModelComparisonAxis,
  table: ItemTable | undefined,
  boardOwn: readonly string[],
  file: EastWestFile,
): EastWestAxis {
  const roles: ModelRoles = { own: new Set([...boardOwn, ...(def.own_models ?? [])]), base: null };
  const tallies = table ? tallyTable(table, roles) : tallyResults(def.results ?? [], roles);
  const groupOf = new Map<string, Group>();
  for (const g of GROUPS) for (const m of file.groups[g]) groupOf.set(m, g);
  const ranked = rank(tallies.filter((t) => !t.own));
  const leaders: Partial<Record<Group, ModelTally>> = {};
  const counts = { east: 0, west: 0, ungrouped: 0 };
  for (const t of ranked) {
    const g = groupOf.get(t.model);
    if (g === undefined) {
      counts.ungrouped++;
      continue;
    }
    counts[g]++;
    leaders[g] ??= t;
  }
  const excluded = tallies
    .filter((t) => t.own && groupOf.has(t.model))
    .map((t) => t.model)
    .sort();
  const entry: EastWestAxis = {
    axis: def.axis,
    bench: def.bench,
    dataset: def.dataset,
    n: table && table.items.length > 0 ? table.items.length : (def.n ?? 0),
    leaders: Object.fromEntries(GROUPS.filter((g) => leaders[g]).map((g) => [g, evidenceOf(leaders[g]!)])),
    models_on_axis: counts,
    ...(excluded.length > 0 && { excluded_own_models: excluded }),
    separation: 'UNTESTED',
  };
  const untested = (basis: string): EastWestAxis => ({ ...entry, separation_basis: basis });
  // A refused bank names no leader on the board (its cards are withdrawn): none here either.
  if (table && new Set(def.labels ?? [...table.distinctGoldLabels()]).size < 2) {
    return {
      ...untested(
        'refused: the exact-label menu has fewer than two distinct labels, so accuracy cannot separate models',
      ),
      leaders: {},
    };
  }
  const missing = GROUPS.filter((g) => !leaders[g]);
  if (missing.length > 0) return untested(`no public ${missing.join(' or ')} model has a parsed response on this axis`);
  if (!table) return untested('no published per-item rows: aggregate results cannot be paired');

  const east = leaders.east!;
  const west = leaders.west!;
  const { b, c, paired, conflicts } = pairedOutcomes(table, east.model, west.model);
  if (conflicts > 0) return untested(`item content hashes differ on ${conflicts} paired items: the pairing is refused`);
  if (paired === 0) return untested(`no item was parsed by both ${east.model} and ${west.model}`);
  const m = mcnemarExact(b, c);
  const test: EastWestTest = {
    test: 'exact McNemar, two-sided',
    alpha: SEPARATION_ALPHA,
    paired_items: paired,
    b,
    c,
    p: m.p,
    p_mid: m.pMid,
    log10_p: m.log10P,
  };
  if (m.decision === 'SEPARATED') return { ...entry, separation: 'SEPARATED', test, ahead: b > c ? 'east' : 'west' };
  return { ...entry, separation: 'TIE', test };
}

/**
 * The bench over a release. Without a groups file the axes and counts are null with the
 * reason (nothing is derived, and nothing is reported as zero).
 */
export function eastWestBench(file: EastWestFile | undefined, source: EastWestSource): Record<string, unknown> {
  const head = { schema: EAST_WEST_SCHEMA, as_of: source.as_of };
  if (!file) return { ...head, groups: null, basis: null, axes: null, counts: null, reason: EAST_WEST_ABSENT_REASON };
  const axes = source.definitions
    .filter((d): d is ModelComparisonAxis => d.kind === 'model-comparison' && d.status === 'MEASURED')
    .map((d) => axisEntry(d, source.tables.get(d.axis), source.own_models, file));
  const count = (s: Separation) => axes.filter((a) => a.separation === s).length;
  return {
    ...head,
    groups: file.groups,
    basis: file.basis,
    ...(file.note !== undefined && { note: file.note }),
    rule: EAST_WEST_RULE,
    counts: {
      axes: axes.length,
      separated: count('SEPARATED'),
      ties: count('TIE'),
      untested: count('UNTESTED'),
      east_ahead: axes.filter((a) => a.ahead === 'east').length,
      west_ahead: axes.filter((a) => a.ahead === 'west').length,
    },
    axes,
    limitations: [
      'A TIE is not a win; UNTESTED is not a tie.',
      'Each group is represented by its best public model on each axis, so different axes may compare different models.',
      "Measurement, not certification: the grouping is the operator's (see basis), and the bench ranks no country or vendor.",
    ],
  };
}
