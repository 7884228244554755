/**
 * Contamination windows (issue 41 item 3, docs/methodology.md §13): each pair of an axis tested
 * again on the items dated strictly after **both** models' knowledge cutoffs, the items neither
 * could have seen in training if the cutoffs and dates are true. The full-axis document
 * (`/api/models`) is read, never derived again: its pairs fix the order, its UNTESTED pairs stay
 * UNTESTED (a pairing refused on the whole axis is refused on every window), and its ranks name
 * the leader. Each pair is counted on its window by a bitset mask, one per distinct later cutoff,
 * built once (PairCounter), tested by the exact McNemar test with Newcombe's interval, and the
 * public pairs tested in windows are Holm-adjusted as their own family (decision CW4). Where a
 * model has no cutoff, the items carry no date, or the window is empty, the pair is UNTESTED
 * with the reason in words: nothing here is called clean that was not tested as such.
 */
import { holmAdjust } from '../stats/holm.js';
import { pairedDifference } from '../stats/paired-difference.js';
import { mcnemarExact, SEPARATION_ALPHA, wilsonInterval } from '../stats/index.js';
import { earliestDay, itemEarliestDays, latestDay, windowMask } from './contamination-window.js';
import type { ItemTable } from './item-table.js';
import { plural } from './lead-sentence.js';
import type { ModelCard } from './model-card.js';
import type { ModelComparisonAxis } from './model.js';
import type { ModelsDocument, PairEntry } from './models-document-shape.js';
import { PairCounter } from './paired-bitsets.js';
import {
  type LeadRow,
  type WindowModel,
  type WindowPair,
  type WindowsDocument,
  WINDOWS_SCHEMA,
} from './windows-document-shape.js';

export { WINDOWS_SCHEMA };
export type { LeadRow, WindowsDocument };

/**
 * Bitset words counted between two yields of {@link windowsDocumentSteps}: a few ms of popcounts
 * (about 80,000 words per ms on the bench machine). A fixed number of pairs would not do: a pair's
 * cost grows with the items (2,048 pairs over 100,000 items held the event loop for 80 ms).
 */
const WORDS_PER_STEP = 400_000;
/**
 * What testing a counted pair costs beyond its popcounts, in the same words: the exact p of a new
 * (b, c) (a BigInt sum), Newcombe's interval and the entry, about 50 µs (400 models × 2,000 items:
 * 5,000 pairs a step held the event loop for 250 ms when only the words were counted).
 */
const PAIR_COST = 4_000;
/** Pairs given their Holm-adjusted p and state between two yields. */
const ADJUSTED_PER_STEP = 16_384;

export const NO_DATES = 'no item dates on this axis: no item can be placed after a knowledge cutoff';

const METHOD = {
  after:
    "an item is after a knowledge cutoff when its earliest possible day (the day given, or the first of the month given) is later than the cutoff's latest possible day (the day given, or the last of the month given); an item without item_date is after no cutoff",
  window:
    "a pair's window is the items dated after both models' cutoffs, i.e. after the later of the two (later_cutoff: the one with the later latest possible day, the first model's when the two days are equal); the pair is tested on the window's items both models parsed (n_pairs)",
  pairs:
    'exact McNemar, two-sided, on the window (a = both right, b = first right and second wrong, c = the reverse); d = (b − c) / n_pairs with its Newcombe (1998) method 10 95% interval, as /api/models',
  holm: "Holm-Bonferroni over the m public pairs tested in their windows, a family of its own (separate from /api/models's): SEPARATED when p_holm < 0.05 and b ≠ c; a pair with an own model reads its unadjusted p",
  untested:
    "UNTESTED, never clean, when: the pair is UNTESTED on the whole axis (the same reason, held for every window, even a window without the items whose hashes differ); the axis's items carry no item_date; either model has no knowledge_cutoff in models.json; no item of the window was parsed by both",
  after_cutoff:
    "per model: k / parsed over the items dated after its own cutoff that it parsed, with the Wilson 95% interval as on the board; items counts the axis's items dated after the cutoff",
  lead: 'the leader is rank 1 of /api/models; each lead row gives the leader against another ranked public model, d oriented leader minus that model, on the whole axis (from /api/models) and on the window',
  sources:
    "cutoffs: the corpus models.json knowledge_cutoff, as the operator or vendor states it; item dates: the rows' item_date, as the item states it; neither is checked against anything",
};

/** Why a model has no cutoff, in words. */
function cutoffReason(card: ModelCard | undefined): string {
  return card === undefined
    ? 'no knowledge cutoff: the model has no card in models.json'
    : 'no knowledge cutoff: its card in models.json does not state one';
}

/** The cutoff whose latest day is later (the later of two cutoffs; the first on a tie). */
function laterOf(x: string, y: string): string {
  return latestDay(y) > latestDay(x) ? y : x;
}

export function windowsDocument(
  def: ModelComparisonAxis,
  table: ItemTable | undefined,
  models: ModelsDocument,
  cards: readonly ModelCard[],
  cardsUrl: string | null,
): WindowsDocument {
  const steps = windowsDocumentSteps(def, table, models, cards, cardsUrl);
  for (;;) {
    const s = steps.next();
    if (s.done) return s.value;
  }
}

/**
 * The document in steps: it yields after every {@link WORDS_PER_STEP} words of counting (a model's
 * tally, a pair's popcounts and test, a mask) and every {@link ADJUSTED_PER_STEP} pairs restated
 * after Holm, so a server builds a large axis between requests (as /api/models; decision CW6).
 * Same result as one call.
 */
export function* windowsDocumentSteps(
  def: ModelComparisonAxis,
  table: ItemTable | undefined,
  full: ModelsDocument,
  cards: readonly ModelCard[],
  cardsUrl: string | null,
): Generator<void, WindowsDocument, void> {
  const cardOf = new Map(cards.map((c) => [c.model, c]));
  const cutoffOf = (m: string) => cardOf.get(m)?.knowledge_cutoff;
  const refused = full.bank_state !== undefined;
  const earliest = table ? itemEarliestDays(table) : [];
  const datedItems = earliest.filter((d) => d !== '').length;
  const dated = datedItems > 0;
  const counter = table && dated && !refused ? new PairCounter(table) : undefined;
  yield;
  // Work since the last yield, in bitset words; a pair or model that counts nothing costs one.
  const words = Math.max(1, earliest.length >>> 5);
  let work = 0;
  const spent = (w: number) => {
    work += w;
    if (work < WORDS_PER_STEP) return false;
    work = 0;
    return true;
  };
  // One mask per distinct latest cutoff day, built when first needed, each with its item count.
  const masks = new Map<string, { mask: Uint32Array; items: number }>();
  const maskFor = (cutoff: string) => {
    const end = latestDay(cutoff);
    let m = masks.get(end);
    if (m === undefined) {
      const mask = windowMask(earliest, cutoff);
      work += earliest.length; // a pass over the items: counted toward the next yield
      masks.set(end, (m = { mask, items: earliest.filter((d) => d > end).length }));
    }
    return m;
  };

  const modelsOut: WindowModel[] = [];
  for (const m of full.models) {
    const cutoff = cutoffOf(m.model);
    const head = { model: m.model, own: m.own, rank: m.rank, knowledge_cutoff: cutoff ?? null };
    if (cutoff === undefined) {
      const reason = cutoffReason(cardOf.get(m.model));
      modelsOut.push({ ...head, cutoff_reason: reason, after_cutoff: null, after_cutoff_reason: reason });
    } else if (refused || !dated || !counter) {
      const reason = refused ? `refused bank: ${full.bank_reason ?? ''}` : NO_DATES;
      modelsOut.push({ ...head, after_cutoff: null, after_cutoff_reason: reason });
    } else {
      const w = maskFor(cutoff);
      if (spent(words * 3 + earliest.length)) yield; // its first use also builds its bitsets: a pass over the items
      const t = counter.tally(m.model, w.mask);
      modelsOut.push({
        ...head,
        after_cutoff: {
          items: w.items,
          parsed: t.parsed,
          k: t.correct,
          accuracy: t.parsed > 0 ? t.correct / t.parsed : null,
          interval: t.parsed > 0 ? wilsonInterval(t.correct, t.parsed) : null,
        },
      });
    }
  }

  const pByTable = new Map<number, number>();
  const exactP = (b: number, c: number): number => {
    if (b >= 0x4000000 || c >= 0x4000000) return mcnemarExact(b, c).p;
    const key = b * 0x4000000 + c;
    let p = pByTable.get(key);
    if (p === undefined) pByTable.set(key, (p = mcnemarExact(b, c).p));
    return p;
  };
  const pairs: WindowPair[] = [];
  for (const fp of full.pairs) {
    const pair = windowPair(fp, cutoffOf(fp.first), cutoffOf(fp.second), dated, counter, maskFor, exactP);
    pairs.push(pair);
    if (
      spent(pair.n_pairs !== undefined ? words + PAIR_COST : pair.reason?.startsWith('the window is empty') ? words : 1)
    )
      yield;
  }
  // The family by index into pairs; its states are then written as new pair objects, not set on
  // the old ones: at 499,500 pairs, fields set on objects already in the old generation held the
  // event loop for 1.5-1.9 s a step (the young numbers and the shape change of each).
  const family: number[] = [];
  pairs.forEach((p, i) => {
    if (!p.own && p.state !== 'UNTESTED') family.push(i);
  });
  const adjusted = holmAdjust(family.map((i) => pairs[i]!.p!));
  yield;
  const restate = (i: number, pHolm: number | null, reject: boolean) => {
    const p = pairs[i]!;
    const separated = reject && p.b !== p.c;
    pairs[i] = {
      ...p,
      state: separated ? 'SEPARATED' : 'TIE',
      p_holm: pHolm,
      ...(separated && { better: p.b! > p.c! ? p.first : p.second }),
    };
  };
  for (let k = 0; k < family.length; k++) {
    restate(family[k]!, adjusted[k]!, adjusted[k]! < SEPARATION_ALPHA);
    if ((k + 1) % ADJUSTED_PER_STEP === 0) yield;
  }
  for (let i = 0; i < pairs.length; i++) {
    const p = pairs[i]!;
    // A pair with an own model: shown with its unadjusted p, outside the family.
    if (p.own && p.state !== 'UNTESTED') restate(i, null, p.p! < SEPARATION_ALPHA);
  }
  yield;

  const leader = full.leader_group[0] ?? null;
  const lead = leader === null ? [] : leadRows(leader, full, pairs);
  const dates = earliest.length > 0 && table && table.facets.dated ? table.facets.dates : [];
  // As written, but ordered by the days they may stand for: a month reaches its last day, so
  // 2024-05 ends the range after 2024-05-20 (a string sort put the day last).
  const byDay = (day: (d: string) => string, sign: 1 | -1) => (a: string, b: string) =>
    day(a) < day(b) ? -sign : day(a) > day(b) ? sign : a < b ? -1 : a > b ? 1 : 0;
  const first = dates.length > 0 ? [...dates].sort(byDay(earliestDay, 1))[0]! : undefined;
  const last = dates.length > 0 ? [...dates].sort(byDay(latestDay, -1))[0]! : undefined;
  const doc: WindowsDocument = {
    schema: WINDOWS_SCHEMA,
    axis: def.axis,
    status: def.status,
    n: full.n,
    dated_items: datedItems,
    date_range: first !== undefined && last !== undefined ? [first, last] : null,
    ...(!dated && { dates_reason: NO_DATES }),
    sources: { models: `/api/models?axis=${def.axis}`, cards: cardsUrl },
    method: METHOD,
    m: family.length,
    leader,
    ...(leader === null && {
      lead_reason: refused ? `refused bank: ${full.bank_reason ?? ''}` : 'no public model has a parsed response',
    }),
    lead,
    summary: '',
    models: modelsOut,
    pairs,
  };
  doc.summary = summary(doc);
  return doc;
}

function windowPair(
  fp: PairEntry,
  cx: string | undefined,
  cy: string | undefined,
  dated: boolean,
  counter: PairCounter | undefined,
  maskFor: (cutoff: string) => { mask: Uint32Array },
  exactP: (b: number, c: number) => number,
): WindowPair {
  const base = { first: fp.first, second: fp.second, own: fp.own };
  const later = cx !== undefined && cy !== undefined ? laterOf(cx, cy) : undefined;
  const untested = (reason: string): WindowPair => ({
    ...base,
    ...(later !== undefined && { later_cutoff: later }),
    state: 'UNTESTED',
    reason,
  });
  // A pairing refused on the whole axis (not like for like, item hashes, a refused bank) is refused here too.
  if (fp.state === 'UNTESTED') return untested(`untested on the whole axis: ${fp.reason ?? 'untested'}`);
  if (!dated || counter === undefined) return untested(NO_DATES);
  const missing = [cx === undefined && fp.first, cy === undefined && fp.second].filter((m) => m !== false);
  if (missing.length > 0) return untested(`no knowledge cutoff for ${missing.join(' or ')}: no window to test`);
  const o = counter.count(fp.first, fp.second, maskFor(later!).mask);
  if (o.paired === 0)
    return untested(`the window is empty: no item dated after ${later} (the later cutoff) was parsed by both`);
  const diff = pairedDifference({
    both: o.both,
    firstOnly: o.b,
    secondOnly: o.c,
    neither: o.paired - o.both - o.b - o.c,
  });
  const p = exactP(o.b, o.c);
  return {
    ...base,
    later_cutoff: later!,
    state: 'TIE',
    n_pairs: o.paired,
    a: o.both,
    b: o.b,
    c: o.c,
    p,
    p_holm: fp.own ? null : p,
    difference: diff.difference,
    difference_interval: diff.interval,
  };
}

/** The leader against every other ranked public model, in rank order, d as leader minus it. */
function leadRows(leader: string, full: ModelsDocument, pairs: readonly WindowPair[]): LeadRow[] {
  const at = new Map<string, number>();
  full.pairs.forEach((p, i) => {
    if (p.first === leader) at.set(p.second, i);
    else if (p.second === leader) at.set(p.first, i);
  });
  const ranked = full.models.filter((m) => !m.own && m.rank !== null && m.model !== leader);
  ranked.sort((x, y) => x.rank! - y.rank!);
  return ranked.flatMap((m) => {
    const i = at.get(m.model);
    if (i === undefined) return [];
    const [f, w] = [full.pairs[i]!, pairs[i]!];
    const sign = f.first === leader ? 1 : -1;
    // `|| 0`: never -0, which JSON writes as 0 (the served bytes and the object must agree).
    const oriented = (d: number) => sign * d || 0;
    const flip = (iv: [number, number]): [number, number] => (sign === 1 ? iv : [oriented(iv[1]), oriented(iv[0])]);
    return [
      {
        model: m.model,
        rank: m.rank!,
        full: {
          state: f.state,
          ...(f.reason !== undefined && { reason: f.reason }),
          ...(f.difference !== undefined && {
            difference: oriented(f.difference),
            n_pairs: f.n_pairs!,
            p_holm: f.p_holm!,
          }),
        },
        window: {
          state: w.state,
          ...(w.reason !== undefined && { reason: w.reason }),
          ...(w.later_cutoff !== undefined && { later_cutoff: w.later_cutoff }),
          ...(w.difference !== undefined && {
            difference: oriented(w.difference),
            difference_interval: flip(w.difference_interval!),
            n_pairs: w.n_pairs!,
            p_holm: w.p_holm!,
          }),
        },
      },
    ];
  });
}

const points = (v: number) => `${v > 0 ? '+' : ''}${(v * 100).toFixed(1)}`;

/** The lead on the window beside the lead on the whole axis, for the leader and the rank-2 model; or why not. */
function summary(doc: WindowsDocument): string {
  if (doc.leader === null) return `No lead to test on this axis: ${doc.lead_reason}.`;
  if (doc.dates_reason !== undefined)
    return `No item dates on this axis: no lead can be tested on items after the models' knowledge cutoffs, so none is called clean.`;
  const leaderCard = doc.models.find((m) => m.model === doc.leader);
  if (leaderCard?.knowledge_cutoff === null)
    return `No knowledge cutoff for ${doc.leader} (the leader): its lead cannot be tested on items after its cutoff, so none is called clean.`;
  const row = doc.lead[0];
  if (row === undefined) return `${doc.leader} is the only ranked public model: no lead to test.`;
  const full =
    row.full.difference === undefined
      ? `on the whole axis the pair is UNTESTED (${row.full.reason})`
      : `on the whole axis, ${points(row.full.difference)} points over ${plural(row.full.n_pairs!, 'item')} (${row.full.state})`;
  const w = row.window;
  if (w.difference === undefined)
    return `${doc.leader} against ${row.model} (rank ${row.rank}) on items dated after both knowledge cutoffs: UNTESTED, ${w.reason}; ${full}.`;
  const [lo, hi] = w.difference_interval!;
  const tested =
    w.p_holm === null
      ? `${w.state}, unadjusted: an own model is outside the Holm family`
      : `${w.state} after Holm over ${plural(doc.m, 'window pair')}`;
  return `${doc.leader} against ${row.model} (rank ${row.rank}) on the ${plural(w.n_pairs!, 'item')} dated after both knowledge cutoffs (after ${w.later_cutoff}) that both answered: ${points(w.difference)} points (95% interval ${points(lo)} to ${points(hi)}), ${tested}; ${full}.`;
}
