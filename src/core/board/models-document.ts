/**
 * Every model of one model-comparison axis, and how sure the board is (issue 29): each model's
 * counts, accuracy, Wilson interval, rank and tie groups; every pair of models tested by the exact
 * McNemar test on the items both parsed, Holm-adjusted over the public pairs; the size of each
 * difference with Newcombe's interval and, where the normal approximation holds, what the pair
 * could have detected. Added beside the board (`svc.gspc-models/0.4`); the board and its
 * separation rule do not change. A refused one-label bank lists every model with its counts and
 * nothing presented as a result (no accuracy, interval, rank or group: issue 39). Formulas and a
 * worked example: docs/methodology.md §9.
 */
import { holmAdjust } from '../stats/holm.js';
import { pairedDifference } from '../stats/paired-difference.js';
import { pairedPower } from '../stats/power.js';
import { mcnemarExact, SEPARATION_ALPHA, wilsonInterval } from '../stats/index.js';
import { OUTCOME_CORRECT, OUTCOME_WRONG, type ItemTable } from './item-table.js';
import type { ModelComparisonAxis } from './model.js';
import { axisRoles, compareTallies, tallyResults, tallyTable, type ModelTally } from './model-tally.js';
import { PairCounter } from './paired-bitsets.js';
import { separationOf } from './models-separation.js';
import { compareRuns, notLikeForLike, type RunSettings } from './run-settings.js';
import {
  MAX_TIE_GROUPS,
  MODELS_SCHEMA,
  type ModelEntry,
  type ModelsDocument,
  type PairEntry,
} from './models-document-shape.js';

export { MAX_TIE_GROUPS, MODELS_SCHEMA };
export type { ModelEntry, ModelsDocument, PairEntry };

/** What a refused one-label bank means, in the document and on the page. */
export const REFUSED_BANK_REASON =
  'the exact-label menu has fewer than two distinct labels: always answering that one label scores 100%, so accuracy cannot rank or separate models, and no accuracy, interval, rank or tie group is given';

/** The naive and the clustered standard error of a model's accuracy over its parsed items. */
function standardErrors(table: ItemTable, t: ModelTally): Pick<ModelEntry, 'se' | 'se_clustered' | 'clusters'> {
  if (t.parsed === 0) return { se: null, se_clustered: null, clusters: 0 };
  const mean = t.correct / t.parsed;
  const outcome = table.columns.get(t.model)!.outcome;
  const residual = new Map<string, number>();
  for (let i = 0; i < table.items.length; i++) {
    const o = outcome[i];
    if (o !== OUTCOME_CORRECT && o !== OUTCOME_WRONG) continue;
    const c = table.cluster[i]!;
    residual.set(c, (residual.get(c) ?? 0) + (o === OUTCOME_CORRECT ? 1 : 0) - mean);
  }
  let sum = 0;
  for (const r of residual.values()) sum += r * r;
  return {
    se: Math.sqrt((mean * (1 - mean)) / t.parsed),
    se_clustered: Math.sqrt(sum) / t.parsed,
    clusters: residual.size,
  };
}

const METHOD = {
  accuracy: 'k / parsed, with the Wilson 95% interval exactly as on the board',
  rank: "the board's ranking rule among public models: accuracy (exact fractions), then more parsed, then model id",
  pairs:
    'exact McNemar, two-sided, on the items both models parsed; Holm-Bonferroni over the public tested pairs (m); SEPARATED when p_holm < 0.05',
  own_pairs: 'a pair with an own model is shown for honesty, outside the Holm family: its state reads its unadjusted p',
  tie_groups:
    'compact letter display (Piepho 2004): the maximal groups of public models no two of which are separated, labelled a, …, z, aa, ab, … in rank order; two public models share a label exactly when they are not separated; not given (null) past 702 groups',
  not_separated:
    'per public model, the ranks of the public models it is not separated from (itself included) as inclusive ranges [first, last]: rank r is in them exactly when the pair is not SEPARATED; given at any number of tie groups',
  leader_group:
    'the rank-1 public model and every public model whose pair with it is not SEPARATED (TIE or UNTESTED), in rank order; leader_untested lists those whose pair with it is UNTESTED',
  untested:
    'an UNTESTED public pair (no rows to pair, different item hashes, no shared item, not like for like) counts as not separated in tie_groups, not_separated and leader_group, and is counted in untested_pairs; when no public pair is tested (m = 0) no tie group or range is given at all',
  difference: 'd = (b − c) / n_pairs, first minus second; 95% interval by Newcombe (1998) method 10',
  se: 'on an axis whose rows carry a cluster: se = √(s̄(1 − s̄)/parsed) and se_clustered = √(Σ_c (Σ_{i∈c}(sᵢ − s̄))²) / parsed (Miller 2024), over the parsed responses, no small-sample factor',
  power:
    'mdd and n_needed are normal approximations: (z0.975 + z0.80)·√(p_disc/n_pairs) and (z0.975 + z0.80)²·p_disc/d², p_disc = (b + c)/n_pairs; given only with b + c ≥ 20 (and n_needed only where n_needed·p_disc ≥ 20), otherwise null with mdd_reason / n_needed_reason',
  refused:
    'a refused one-label bank (bank_state) lists every model with its counts only: no accuracy, interval, rank or tie group, and every pair UNTESTED',
  like_for_like:
    "from each model's recorded run settings (runs.json): false when the harness, the shots or a generation or template setting is recorded for both and differs (the pair is then UNTESTED and outside the Holm family); null when one is recorded for one model only or a model has none; true otherwise; the harness version, the date and the limit are not compared",
};

/** Pairs built between two yields of {@link modelsDocumentSteps} (a few ms of work). */
export const PAIRS_PER_STEP = 2048;

export function modelsDocument(
  def: ModelComparisonAxis,
  table: ItemTable | undefined,
  boardOwn: readonly string[],
): ModelsDocument {
  const steps = modelsDocumentSteps(def, table, boardOwn);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same document, built in steps: it yields after every {@link PAIRS_PER_STEP} pairs, so a
 * server can build an axis of 1,000 models (500,500 pairs, seconds of work) between requests
 * instead of stopping every other request until it is done (issue 39). Same result, same order.
 */
export function* modelsDocumentSteps(
  def: ModelComparisonAxis,
  table: ItemTable | undefined,
  boardOwn: readonly string[],
): Generator<void, ModelsDocument, void> {
  const roles = axisRoles(def, boardOwn);
  const tallies =
    def.status !== 'MEASURED' ? [] : table ? tallyTable(table, roles) : tallyResults(def.results ?? [], roles);
  const menu = new Set(def.labels ?? (table ? [...table.distinctGoldLabels()] : []));
  // A one-label menu, declared (def.labels) or read from the rows, with or without rows (review of
  // issue 39: an aggregate-only axis declaring one label was ranked).
  const refused = (table !== undefined || def.labels !== undefined) && def.status === 'MEASURED' && menu.size < 2;
  const ordered = [...tallies].sort(compareTallies);
  const publicRanked = ordered.filter((t) => !t.own && t.parsed > 0);
  const rankOf = new Map(publicRanked.map((t, i) => [t.model, i + 1]));

  const pairs: PairEntry[] = [];
  // Many pairs share their (b, c): at 1,000 models, 499,500 pairs over a few thousand distinct
  // tables, and the exact test's BigInt sum is most of a pair's time (issue 39).
  const pByTable = new Map<number, number>();
  const exactP = (b: number, c: number): number => {
    if (b >= 0x4000000 || c >= 0x4000000) return mcnemarExact(b, c).p;
    const key = b * 0x4000000 + c;
    let p = pByTable.get(key);
    if (p === undefined) pByTable.set(key, (p = mcnemarExact(b, c).p));
    return p;
  };
  const withResult = ordered.filter((t) => t.parsed > 0);
  const counter = table && !refused ? new PairCounter(table) : undefined;
  const settingsOf = (model: string) => table?.columns.get(model)?.settings;
  for (let i = 0; i < withResult.length; i++)
    for (let j = i + 1; j < withResult.length; j++) {
      const [x, y] = [withResult[i]!, withResult[j]!];
      pairs.push(pairOf(x, y, counter, table === undefined, refused, exactP, settingsOf(x.model), settingsOf(y.model)));
      if (pairs.length % PAIRS_PER_STEP === 0) yield;
    }
  const family = pairs.filter((p) => !p.own && p.state !== 'UNTESTED');
  holmAdjust(family.map((p) => p.p!)).forEach((h, k) => {
    const p = family[k]!;
    p.p_holm = h;
    if (h < SEPARATION_ALPHA && p.b !== p.c) {
      p.state = 'SEPARATED';
      p.better = p.b! > p.c! ? p.first : p.second;
    }
  });
  yield;
  // A pair with an own model is tested for honesty, outside the family: its p is not adjusted.
  for (const p of pairs)
    if (p.own && p.state !== 'UNTESTED') {
      p.p_holm = null;
      if (p.p! < SEPARATION_ALPHA && p.b !== p.c) {
        p.state = 'SEPARATED';
        p.better = p.b! > p.c! ? p.first : p.second;
      }
    }

  yield;
  // With two or more public models and not one pair tested, letters and ranges would only say
  // that nothing was compared ("tie group a" for all): none is given, and the reason says why.
  const count = publicRanked.length;
  const nothingTested = !refused && count >= 2 && family.length === 0;
  const sep = separationOf(
    publicRanked.map((t) => t.model),
    pairs,
    refused,
    nothingTested ? nothingTestedReason(pairs.filter((p) => !p.own)) : undefined,
  );
  const letterOf = new Map(publicRanked.map((t, i) => [t.model, sep.letters?.[i] ?? null]));
  const rangesOf = new Map(publicRanked.map((t, i) => [t.model, sep.ranges[i] ?? null]));

  // A refused bank's accuracy is 100% by construction: no figure of it is given as a result.
  const result = (t: ModelTally) => t.parsed > 0 && !refused;
  const clustered = table !== undefined && !refused && table.clusterRows.with > 0 && table.clusterRows.without === 0;
  const models: ModelEntry[] = ordered.map((t) => ({
    model: t.model,
    own: t.own,
    base: t.base,
    rows: t.rows,
    unparsed: t.unparsed,
    parsed: t.parsed,
    k: t.correct,
    accuracy: result(t) ? t.correct / t.parsed : null,
    interval: result(t) ? wilsonInterval(t.correct, t.parsed) : null,
    rank: refused ? null : (rankOf.get(t.model) ?? null),
    tie_groups: sep.letters === null ? null : letterOf.has(t.model) ? letterOf.get(t.model)! : [],
    not_separated: rangesOf.get(t.model) ?? null,
    ...(clustered && standardErrors(table!, t)),
    settings: settingsOf(t.model) ?? null,
  }));
  return {
    schema: MODELS_SCHEMA,
    axis: def.axis,
    status: def.status,
    n: table && table.items.length > 0 ? table.items.length : (def.n ?? 0),
    ...(refused && { bank_state: 'REFUSED_ONE_LABEL_MENU' as const, bank_reason: REFUSED_BANK_REASON }),
    method: METHOD,
    m: family.length,
    groups: sep.groups,
    ...(sep.groups_reason !== undefined && { groups_reason: sep.groups_reason }),
    leader_group: sep.leader_group,
    leader_untested: sep.leader_untested,
    untested_pairs: sep.untested_pairs,
    models,
    pairs,
  };
}

/** Why no tie group is given when no public pair was tested: the pairs' own reasons. */
function nothingTestedReason(publicPairs: readonly PairEntry[]): string {
  const reasons = [...new Set(publicPairs.map((p) => p.reason ?? 'untested'))];
  return `no public pair was tested (${reasons.slice(0, 2).join('; ')}${reasons.length > 2 ? '; …' : ''}): a letter or a range would only say that nothing was compared`;
}

function pairOf(
  x: ModelTally,
  y: ModelTally,
  counter: PairCounter | undefined,
  aggregate: boolean,
  refused: boolean,
  exactP: (b: number, c: number) => number,
  xs: RunSettings | undefined,
  ys: RunSettings | undefined,
): PairEntry {
  const base = { first: x.model, second: y.model, own: x.own || y.own };
  const runs = compareRuns(xs, ys);
  const alike = {
    like_for_like: runs.like,
    ...(runs.like === false && { settings_differ: runs.differ }),
    ...(runs.like === null && (xs !== undefined || ys !== undefined) && { settings_unknown: runs.unknown }),
  };
  const untested = (reason: string): PairEntry => ({ ...base, state: 'UNTESTED', reason, ...alike });
  if (refused) return untested('refused: the exact-label menu has fewer than two distinct labels');
  if (aggregate || !counter) return untested('no published per-item rows: aggregate results cannot be paired');
  // Run with settings that change the task: not compared at all (decision RS4), before any count.
  if (runs.like === false) return untested(notLikeForLike(x.model, y.model, runs));
  const o = counter.count(x.model, y.model);
  if (o.conflicts > 0)
    return untested(
      `item content hashes differ on ${o.conflicts} paired item${o.conflicts === 1 ? '' : 's'}: the pairing is refused`,
    );
  if (o.paired === 0) return untested('no item was parsed by both');
  const p = exactP(o.b, o.c);
  const diff = pairedDifference({
    both: o.both,
    firstOnly: o.b,
    secondOnly: o.c,
    neither: o.paired - o.both - o.b - o.c,
  });
  const power = pairedPower(o.b, o.c, o.paired);
  return {
    ...base,
    state: 'TIE',
    n_pairs: o.paired,
    a: o.both,
    b: o.b,
    c: o.c,
    p,
    difference: diff.difference,
    difference_interval: diff.interval,
    ...power,
    // Set here, in its place, then adjusted: a double written later into 500,500 objects already
    // in the old generation allocated a young number for each, and collecting them (old objects
    // pointing at young ones) held the event loop for seconds at 1,000 models (issue 39).
    p_holm: base.own ? null : p,
    ...alike,
  };
}
