/**
 * Issue 41, "Done when": a random corpus with tags, dates and cutoffs re-derives every slice and
 * window figure in an independent re-derivation that shares no code with src/. Corpora are written
 * from a seeded PRNG (models of different skill, an own model, unparsed and missing rows, one or
 * several tags per item, untagged items, tiny tags, item dates by day and by month, undated items,
 * cutoffs by day and by month, a card without a cutoff, a model without a card, item-hash conflicts,
 * runs not like for like, clusters), loaded through the real app, and every document is rebuilt
 * from the rows by test/helpers/slices-windows-rederive.ts and compared key by key:
 * `/api/slices?axis=`, every `/api/models?axis=&slice=`, `/api/windows?axis=`. Then a corpus worked
 * out by hand, and the board (and `/api/models`) unchanged by a byte with and without tags, dates
 * and cutoffs.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { prng } from '../../demo/generate.js';
import { demoApp, testSigning } from '../helpers/app.js';
import { writeQuizCorpus } from '../helpers/quiz-corpus.js';
import { slicesCorpus } from '../helpers/slices-corpus.js';
import { windowsCorpus } from '../helpers/windows-corpus.js';
import {
  ALPHA,
  ANY_TEXT,
  ANY_WORDS,
  after,
  type Axis,
  type Card,
  type Counts,
  close,
  countPair,
  figures,
  holm,
  earliest,
  latest,
  likeFields,
  match,
  modelFigures,
  pairFigures,
  picture,
  readAxis,
  type Row,
  type Settings,
  tallies,
  wilson,
} from '../helpers/slices-windows-rederive.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */

interface Spec {
  rows: Row[];
  own: string[];
  /** models.json's cards; none written when null. */
  cards: Card[] | null;
  /** runs.json's records (model → settings); none written when empty. */
  runs: Map<string, Settings>;
}

function write(spec: Spec): string {
  const dir = writeQuizCorpus({
    rows: spec.rows.map((r) => JSON.stringify(r)),
    own: spec.own,
    labels: ['A', 'B', 'C'],
  });
  if (spec.cards !== null)
    writeFileSync(join(dir, 'models.json'), JSON.stringify({ schema: 'svc.gspc-corpus-models/1', models: spec.cards }));
  if (spec.runs.size > 0) {
    const runs = [...spec.runs].map(([model, s]) => ({ model, axis: 'quiz', ...s }));
    writeFileSync(join(dir, 'runs.json'), JSON.stringify({ schema: 'svc.gspc-corpus-runs/1', runs }));
  }
  return dir;
}

async function getJson(app: FastifyInstance, url: string): Promise<any> {
  const r = await app.inject({ url });
  assert.equal(r.statusCode, 200, `${url}: ${r.body.slice(0, 300)}`);
  return r.json();
}

const key = (x: string, y: string) => (x < y ? `${x}\n${y}` : `${y}\n${x}`);
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const itemsWhere = (ax: Axis, keep: (item: string) => boolean) => new Set(ax.items.filter(keep));

/** The whole axis, derived as §9 says: tallies, pairs, Holm over the public tested pairs. */
function wholeAxis(ax: Axis) {
  const all = new Set(ax.items);
  const t = tallies(ax, all);
  const counts = new Map<string, Counts>();
  const withResult = t.all.filter((x) => x.parsed > 0).map((x) => x.model);
  for (let i = 0; i < withResult.length; i++)
    for (let j = i + 1; j < withResult.length; j++)
      counts.set(key(withResult[i]!, withResult[j]!), countPair(ax, withResult[i]!, withResult[j]!, all));
  const family = [...counts.values()].filter((p) => !p.own && !p.untested);
  const pHolm = new Map<Counts, number>();
  holm(family.map((p) => p.p)).forEach((h, k) => pHolm.set(family[k]!, h));
  const state = (p: Counts) =>
    p.untested ? 'UNTESTED' : (p.own ? p.p : pHolm.get(p)!) < ALPHA && p.b !== p.c ? 'SEPARATED' : 'TIE';
  // Every model with a row, best first: accuracy (exact fractions), more parsed, id.
  const order = [...t.all]
    .sort((x, y) => y.k * x.parsed - x.k * y.parsed || y.parsed - x.parsed || (x.model < y.model ? -1 : 1))
    .map((x) => x.model);
  return { ...t, counts, pHolm, state, order };
}

/** Every slice document and the list, rebuilt (the documents' method; decisions SL1-SL8). */
function expectSlices(ax: Axis, wholeOrder: string[]) {
  const tags = [...new Set([...ax.tagsOf.values()].flat())].sort();
  const slices = tags.map((tag) => {
    const items = itemsWhere(ax, (i) => ax.tagsOf.get(i)?.includes(tag) === true);
    const t = tallies(ax, items);
    const withResult = t.all.filter((x) => x.parsed > 0).map((x) => x.model);
    const counts = new Map<string, Counts>();
    for (let i = 0; i < withResult.length; i++)
      for (let j = i + 1; j < withResult.length; j++)
        counts.set(key(withResult[i]!, withResult[j]!), countPair(ax, withResult[i]!, withResult[j]!, items));
    return { tag, items, t, counts };
  });
  // One family across every slice: tested pairs with b + c ≥ 6; public and own apart.
  const tested = slices.flatMap((s) => [...s.counts.values()].filter((p) => !p.untested));
  const inFamily = (p: Counts) => p.b + p.c >= 6;
  const pub = tested.filter((p) => !p.own && inFamily(p));
  const own = tested.filter((p) => p.own && inFamily(p));
  const adjusted = new Map<Counts, number>();
  for (const fam of [pub, own]) holm(fam.map((p) => p.p)).forEach((h, k) => adjusted.set(fam[k]!, h));
  const family = {
    scope: 'across slices',
    alpha: ALPHA,
    m: pub.length,
    excluded: tested.filter((p) => !p.own && !inFamily(p)).length,
    m_own: own.length,
    slices: tags.length,
    rule: ANY_TEXT,
  };
  const documents = new Map<string, { expected: any; counts: Map<string, Counts> }>();
  const summaries = slices.map(({ tag, items, t, counts }) => {
    const publicTested = [...counts.values()].filter((p) => !p.own && !p.untested);
    const withinSlice = new Map<Counts, number>();
    holm(publicTested.map((p) => p.p)).forEach((h, k) => withinSlice.set(publicTested[k]!, h));
    const state = (p: Counts) =>
      p.untested ? 'UNTESTED' : (adjusted.get(p) ?? 1) < ALPHA && p.b !== p.c ? 'SEPARATED' : 'TIE';
    const mSliceFamily = publicTested.filter(inFamily).length;
    const ranked = t.ranked.map((x) => x.model);
    // SL4: the reason names, when every test is too small, the largest b + c and its smallest attainable p.
    const widest = Math.max(0, ...publicTested.map((p) => p.b + p.c));
    const tooSmall =
      ranked.length < 2
        ? /public model/
        : publicTested.length === 0
          ? /no public pair was tested/
          : mSliceFamily === 0
            ? new RegExp(
                `6 or more discordant items.*b \\+ c = ${widest}\\b.*\\b${esc(String(Math.min(1, 2 * 0.5 ** widest)))}\\b`,
              )
            : undefined;
    const separated = (x: string, y: string) => state(counts.get(key(x, y))!) === 'SEPARATED';
    const pic = picture(ranked, separated, tooSmall === undefined);
    const untestedWith = (m: string) => state(counts.get(key(ranked[0]!, m))!) === 'UNTESTED';
    const models = t.all.map((x) => ({
      ...modelFigures(ax, x, items),
      rank: t.rankOf.get(x.model) ?? null,
      tie_groups: tooSmall !== undefined ? null : (pic.tieGroups.get(x.model) ?? []),
      not_separated: pic.notSep.get(x.model) ?? null,
    }));
    const expected = {
      schema: 'svc.gspc-models/0.4',
      axis: 'quiz',
      status: 'MEASURED',
      n: items.size,
      method: ANY_WORDS,
      m: family.m,
      groups: pic.groups,
      groups_reason: tooSmall === undefined ? undefined : /^too small to separate anything: /,
      leader_group: pic.leaderGroup,
      leader_untested: pic.leaderGroup.filter((m) => m !== ranked[0] && untestedWith(m)),
      untested_pairs: [...counts.values()].filter((p) => !p.own && p.untested).length,
      slice: { tag, items: items.size },
      family,
      m_slice: publicTested.length,
      m_slice_family: mSliceFamily,
      too_small: tooSmall !== undefined,
      too_small_reason: tooSmall,
      models,
      pairs: (served: any) =>
        servedPair(ax, served, counts, (p) => ({
          state: state(p),
          better: state(p) === 'SEPARATED' ? (p.b > p.c ? p.first : p.second) : undefined,
          p_holm: inFamily(p) ? adjusted.get(p)! : null,
          p_holm_slice: p.own ? null : withinSlice.get(p)!,
          in_family: inFamily(p),
        })),
    };
    documents.set(tag, { expected, counts });
    const byModel = new Map(t.all.map((x) => [x.model, x]));
    return {
      tag,
      items: items.size,
      n: wholeOrder.map((m) => byModel.get(m)?.parsed ?? 0),
      leader: pic.leaderGroup[0] ?? null,
      leader_group: pic.leaderGroup,
      leader_untested: pic.leaderGroup.filter((m) => m !== ranked[0] && untestedWith(m)),
      tie_groups:
        pic.groups === null || ranked.length === 0
          ? null
          : wholeOrder.map((m) => (t.rankOf.has(m) ? pic.tieGroups.get(m)! : null)),
      groups: pic.groups,
      separated: publicTested.filter((p) => state(p) === 'SEPARATED').length,
      m_slice: publicTested.length,
      m_slice_family: mSliceFamily,
      too_small: tooSmall !== undefined,
      too_small_reason: tooSmall,
      document: `/api/models?axis=quiz&slice=${encodeURIComponent(tag)}`,
    };
  });
  const list = {
    schema: 'svc.gspc-slices/0.1',
    axis: 'quiz',
    status: 'MEASURED',
    n: ax.items.length,
    tagged_items: ax.items.filter((i) => ax.tagsOf.has(i)).length,
    models: wholeOrder,
    family,
    method: ANY_WORDS,
    slices: summaries,
  };
  return { list, documents, family };
}

/** A served pair with every figure rebuilt: counts, p, d, interval, power, like for like, and `extra`. */
function servedPair(ax: Axis, served: any, counts: Map<string, Counts>, extra: (p: Counts) => object) {
  const c = counts.get(key(served.first, served.second));
  assert.ok(c, `${served.first} ~ ${served.second}: a pair the rows do not give`);
  // Which model is first is the document's order; the figures follow it (b: first right).
  const p = c.first === served.first ? c : { ...c, first: c.second, second: c.first, b: c.c, c: c.b };
  const head = { first: p.first, second: p.second, own: p.own, ...likeFields(ax, p.first, p.second) };
  if (p.untested) return { ...head, state: 'UNTESTED', reason: p.why };
  return { ...head, ...pairFigures(p), ...extra(c) };
}

/** Matches a served every-model document (whole axis or slice) whose `pairs` is rebuilt per served pair. */
function matchModelsDoc(served: any, expected: any, counts: Map<string, Counts>, path: string) {
  const { pairs, ...rest } = expected;
  const { pairs: servedPairs, ...servedRest } = served;
  // The models in any order (their order is not part of the contract), the rest key by key.
  const byModel = new Map(servedRest.models.map((m: any) => [m.model, m]));
  assert.deepEqual([...byModel.keys()].sort(), rest.models.map((m: any) => m.model).sort(), `${path} models`);
  match({ ...servedRest, models: rest.models.map((m: any) => byModel.get(m.model)) }, rest, path);
  assert.equal(servedPairs.length, counts.size, `${path}: every pair of models with a parsed response`);
  const seen = new Set<string>();
  for (const sp of servedPairs) {
    seen.add(key(sp.first, sp.second));
    match(sp, pairs(sp), `${path} ${sp.first} ~ ${sp.second}`);
  }
  assert.equal(seen.size, counts.size, `${path}: no pair twice`);
}

/** `/api/windows` rebuilt (docs/methodology.md §13, decisions CW1-CW10). */
function expectWindows(ax: Axis, cards: Card[] | null, whole: ReturnType<typeof wholeAxis>, servedPairs: any[]) {
  const cardOf = new Map((cards ?? []).map((c) => [c.model, c]));
  const cutoff = (m: string) => cardOf.get(m)?.knowledge_cutoff;
  const dates = [...new Set(ax.dateOf.values())];
  const dated = dates.length > 0;
  const byTally = new Map(whole.all.map((t) => [t.model, t]));
  const models = whole.order.map((m) => {
    const c = cutoff(m);
    const head = { model: m, own: ax.own.has(m), rank: whole.rankOf.get(m) ?? null, knowledge_cutoff: c ?? null };
    if (c === undefined) {
      const why = cardOf.has(m) ? /does not state/ : /no card/;
      return { ...head, cutoff_reason: why, after_cutoff: null, after_cutoff_reason: why };
    }
    if (!dated) return { ...head, after_cutoff: null, after_cutoff_reason: /^no item dates on this axis/ };
    const window = itemsWhere(ax, (i) => after(ax.dateOf.get(i), c));
    const o = ax.outcome.get(m)!;
    const parsed = [...window].filter((i) => o.has(i) && o.get(i) !== 'unparsed').length;
    const k = [...window].filter((i) => o.get(i) === 'right').length;
    assert.ok(byTally.has(m));
    return {
      ...head,
      after_cutoff: {
        items: window.size,
        parsed,
        k,
        accuracy: parsed > 0 ? k / parsed : null,
        interval: parsed > 0 ? wilson(k, parsed) : null,
      },
    };
  });
  // Pairs: in /api/models's order; each on the items after the later cutoff.
  const built = servedPairs.map((fp) => {
    const [cx, cy] = [cutoff(fp.first), cutoff(fp.second)];
    const later = cx !== undefined && cy !== undefined ? (latest(cy) > latest(cx) ? cy : cx) : undefined;
    const base = { first: fp.first, second: fp.second, own: ax.own.has(fp.first) || ax.own.has(fp.second) };
    const untested = (reason: RegExp | string) => ({
      counts: null,
      exp: { ...base, later_cutoff: later, state: 'UNTESTED', reason },
    });
    const w = whole.counts.get(key(fp.first, fp.second))!;
    if (w.untested) return untested(`untested on the whole axis: ${fp.reason}`);
    if (!dated) return untested(/^no item dates on this axis/);
    const missing = [cx === undefined && fp.first, cy === undefined && fp.second].filter((m) => m !== false);
    if (missing.length > 0) return untested(`no knowledge cutoff for ${missing.join(' or ')}: no window to test`);
    const p = countPair(
      ax,
      fp.first,
      fp.second,
      itemsWhere(ax, (i) => after(ax.dateOf.get(i), later!)),
    );
    if (p.n === 0)
      return untested(`the window is empty: no item dated after ${later} (the later cutoff) was parsed by both`);
    const { mdd: _m, mdd_reason: _r, n_needed: _n, n_needed_reason: _q, ...figs } = pairFigures(p);
    return { counts: p, exp: { ...base, later_cutoff: later, ...figs } as any };
  });
  const family = built.filter((x) => x.counts !== null && !x.counts.own);
  holm(family.map((x) => x.counts!.p)).forEach((h, k) => {
    family[k]!.exp.p_holm = h;
  });
  for (const x of built)
    if (x.counts !== null) {
      const p = x.counts;
      if (p.own) x.exp.p_holm = null;
      const sep = (p.own ? p.p : x.exp.p_holm) < ALPHA && p.b !== p.c;
      x.exp.state = sep ? 'SEPARATED' : 'TIE';
      if (sep) x.exp.better = p.b > p.c ? p.first : p.second;
    }
  const pairs = built.map((x) => x.exp);
  const leader = whole.ranked[0]?.model ?? null;
  const lead =
    leader === null
      ? []
      : whole.ranked.slice(1).map((t) => {
          const i = servedPairs.findIndex((p) => key(p.first, p.second) === key(leader, t.model));
          const [fp, w] = [whole.counts.get(key(leader, t.model))!, pairs[i]];
          // d as the leader minus the other: the whole axis's from my counts, the window's as served.
          const oriented = (d: number) => (fp.first === leader ? d : -d) || 0;
          const sign = servedPairs[i].first === leader ? 1 : -1;
          const turned = (d: number) => sign * d || 0;
          return {
            model: t.model,
            rank: whole.rankOf.get(t.model)!,
            full: fp.untested
              ? { state: 'UNTESTED', reason: fp.why }
              : {
                  state: whole.state(fp),
                  difference: oriented((fp.b - fp.c) / fp.n),
                  n_pairs: fp.n,
                  p_holm: whole.pHolm.get(fp)!,
                },
            window: {
              state: w.state,
              reason: w.reason,
              later_cutoff: w.later_cutoff,
              ...(w.difference !== undefined && {
                difference: turned(w.difference),
                difference_interval:
                  sign === 1
                    ? w.difference_interval
                    : [turned(w.difference_interval[1]), turned(w.difference_interval[0])],
                n_pairs: w.n_pairs,
                p_holm: w.p_holm,
              }),
            },
          };
        });
  // docs/formats.md: the date (as written) with the earliest possible day, and the one with the
  // latest possible day; ties go to the first in code-unit order.
  const tie = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const first = [...dates].sort((a, b) => earliest(a) - earliest(b) || tie(a, b))[0];
  const last = [...dates].sort((a, b) => latest(b) - latest(a) || tie(a, b))[0];
  return {
    schema: 'svc.gspc-windows/0.1',
    axis: 'quiz',
    status: 'MEASURED',
    n: ax.items.length,
    dated_items: ax.items.filter((i) => ax.dateOf.has(i)).length,
    date_range: dated ? [first, last] : null,
    dates_reason: dated ? undefined : /^no item dates on this axis/,
    sources: { models: '/api/models?axis=quiz', cards: cards === null ? null : '/peritem/models.json' },
    method: ANY_WORDS,
    m: family.length,
    leader,
    lead,
    summary: summaryOf(leader, lead, family.length, dated, cutoff),
    models,
    pairs,
  };
}

const points = (v: number) => `${v > 0 ? '+' : ''}${(v * 100).toFixed(1)}`;
const items = (n: number) => `${n} item${n === 1 ? '' : 's'}`;

/** The summary sentence, as the worked example of §13 words it when both sides are tested; else what it must say. */
function summaryOf(leader: string | null, lead: any[], m: number, dated: boolean, cutoff: (m: string) => unknown) {
  if (leader === null) return ANY_TEXT;
  if (!dated || cutoff(leader) === undefined) return /none is called clean/;
  const row = lead[0];
  if (row === undefined) return ANY_TEXT;
  const w = row.window;
  if (w.difference === undefined)
    return new RegExp(`^${esc(`${leader} against ${row.model} (rank ${row.rank})`)}.*UNTESTED`);
  if (row.full.difference === undefined) return new RegExp(`^${esc(`${leader} against ${row.model}`)}`);
  return `${leader} against ${row.model} (rank ${row.rank}) on the ${items(w.n_pairs)} dated after both knowledge cutoffs (after ${w.later_cutoff}) that both answered: ${points(w.difference)} points (95% interval ${points(w.difference_interval[0])} to ${points(w.difference_interval[1])}), ${w.state} after Holm over ${m} window pair${m === 1 ? '' : 's'}; on the whole axis, ${points(row.full.difference)} points over ${items(row.full.n_pairs)} (${row.full.state}).`;
}

/** Every document of the corpus, fetched and compared with its rebuilt self. What it saw, for the coverage test. */
async function rederive(app: FastifyInstance, spec: Spec, seen = new Set<string>()) {
  const ax = readAxis(spec.rows, spec.own, spec.runs);
  const whole = wholeAxis(ax);
  const full = await getJson(app, '/api/models?axis=quiz');
  assert.deepEqual(
    full.models.map((m: any) => m.model),
    whole.order,
    '/api/models: every model, best first',
  );
  const { list, documents, family } = expectSlices(ax, whole.order);
  const tagged = list.slices.length > 0;
  if (tagged) match(await getJson(app, '/api/slices?axis=quiz'), list, '/api/slices');
  else assert.equal((await app.inject({ url: '/api/slices?axis=quiz' })).statusCode, 404, 'no tags: no slices');
  for (const [tag, { expected, counts }] of documents) {
    const url = `/api/models?axis=quiz&slice=${encodeURIComponent(tag)}`;
    const doc = await getJson(app, url);
    matchModelsDoc(doc, expected, counts, url);
    assert.deepEqual(
      Object.keys(doc.method).sort(),
      [...new Set([...Object.keys(full.method), 'slice', 'pairs', 'own_pairs', 'too_small', 'bank'])].sort(),
      `${url}: method keeps §9's entries and adds or replaces slice, pairs, own_pairs, too_small, bank`,
    );
    for (const p of doc.pairs) if (p.reason) seen.add(`slice UNTESTED: ${p.reason.slice(0, 17)}`);
    if (doc.models.some((m: any) => m.parsed === 0)) seen.add('a slice model without a parsed response');
  }
  const windows = await getJson(app, '/api/windows?axis=quiz');
  assert.deepEqual(
    windows.pairs.map((p: any) => [p.first, p.second]),
    full.pairs.map((p: any) => [p.first, p.second]),
    '/api/windows: the pairs of /api/models, in its order',
  );
  match(windows, expectWindows(ax, spec.cards, whole, full.pairs), '/api/windows');
  return { list, family, windows };
}

// ---------------------------------------------------------------- the random corpora

/** Item dates at the random cutoffs' edges (decision CW1: earliest item day after latest cutoff day). */
const BOUNDARY = [
  '2024-05-15',
  '2024-05-16',
  '2024-05',
  '2024-01-10',
  '2024-01-11',
  '2023-12-31',
  '2024-01-01',
  '2024-01',
  '2024-03-31',
  '2024-04-01',
  '2024-03',
  '2023-12',
  '2024-02-29',
  '2024-03-01',
  '2024-09-30',
  '2024-10',
  '2023-06-30',
  '2023-07',
  '2024-04-30',
  '2024-05-01',
  '2024-02',
  '2024-04',
];

function randomSpec(seed: number): Spec {
  const next = prng(seed * 7919 + 13);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  const models = [
    'r/alpha',
    'r/beta',
    'r/gamma',
    'r/delta',
    'r/eps',
    'r/zeta',
    'r/own',
    ...(seed === 2 ? ['r/mute'] : []),
    // Seed 7: ten more models of closely spaced skill, so tie groups overlap (models in two letters).
    ...(seed === 7 ? Array.from({ length: 10 }, (_, k) => `r/m${k}`) : []),
  ];
  // Skills spread so that some pairs separate and some do not; r/zeta answers about half the items.
  const base = (i: number) =>
    [0.92, 0.88, 0.7, 0.68, 0.45, 0.6, 0.8][i] ?? (i >= 8 || seed === 7 ? 0.35 + 0.055 * (i - 7) : 0);
  const skill = new Map(models.map((m, i) => [m, base(i) - next() * 0.1]));
  const rows: Row[] = [];
  const noDates = seed === 4;
  const nItems = seed === 7 ? 400 : 140 + Math.floor(next() * 60);
  for (let i = 0; i < nItems; i++) {
    const item = `q${String(i).padStart(3, '0')}`;
    const gold = pick(['A', 'B', 'C']);
    const tags = new Set<string>();
    if (i < nItems - 10) tags.add('all');
    if (next() < 0.45) tags.add('algebra');
    if (next() < 0.3) tags.add('geometry');
    if (next() < 0.25) tags.add('lang:es');
    if (next() < 0.15) tags.add('hard & long +100%');
    if (next() < 0.12) tags.add('ñandú/β');
    if (i % 50 === 7) tags.add('tiny');
    if (i === 3) tags.add('one item');
    // q005 alone carries 'solo', answered by r/alpha and the own model only: one public model.
    if (i === 5) tags.add('solo');
    // q011 alone carries 'apart', answered by r/alpha and r/beta only, whose hashes differ on it
    // in even seeds: two public models and no pair tested.
    if (i === 11) tags.add('apart');
    // Dates: by day or by month, 2023-01 to 2025-06, some on a cutoff's own month; some undated.
    const y = 2023 + Math.floor(next() * 3);
    const mo = y === 2025 ? 1 + Math.floor(next() * 6) : 1 + Math.floor(next() * 12);
    const ym = `${y}-${String(mo).padStart(2, '0')}`;
    const drawn = next() < 0.5 ? ym : `${ym}-${String(1 + Math.floor(next() * 28)).padStart(2, '0')}`;
    // Every sixth item on a boundary: a cutoff's own day, the day after, its month, a leap day.
    const date = i % 6 === 0 ? BOUNDARY[(i / 6 + seed) % BOUNDARY.length]! : drawn;
    const dated = !noDates && next() < 0.85;
    for (const [k, model] of models.entries()) {
      if (model === 'r/zeta' && next() < 0.5) continue;
      if (i === 5 && model !== 'r/alpha' && model !== 'r/own') continue;
      if (i === 11 && model !== 'r/alpha' && model !== 'r/beta') continue;
      if (next() < 0.04) continue;
      const right = next() < skill.get(model)!;
      const label =
        model === 'r/mute' || next() < 0.05 ? null : right ? gold : pick(['A', 'B', 'C'].filter((l) => l !== gold));
      rows.push({
        item,
        model,
        gold,
        label,
        // Even seeds: r/beta's copy of two items differs, so its pairs are refused wherever those are.
        item_hash:
          seed % 2 === 0 && k === 1 && (i === 11 || i === 90) ? 'e'.repeat(64) : i.toString(16).padStart(64, '0'),
        ...(seed % 3 === 0 && { cluster: `passage-${Math.floor(i / 5)}` }),
        ...(tags.size > 0 && { tags: [...tags] }),
        ...(dated && { item_date: date }),
      });
    }
  }
  // 2025-09 is after every item date: its windows are empty.
  // 2024-02: a leap February (its last day the 29th); 2024-04: a month of 30 days.
  const cutoffs = [
    '2023-06',
    '2023-12-31',
    '2024-03',
    '2024-05-15',
    '2024-09',
    '2024-01-10',
    '2025-09',
    '2024-02',
    '2024-04',
  ];
  const cards: Card[] = [
    { model: 'r/alpha', knowledge_cutoff: pick(cutoffs) },
    { model: 'r/beta', knowledge_cutoff: pick(cutoffs) },
    { model: 'r/gamma', knowledge_cutoff: '2024-05' },
    { model: 'r/delta', organisation: 'Lab D' }, // a card without a cutoff
    // r/eps has no card
    { model: 'r/zeta', knowledge_cutoff: pick(cutoffs) },
    { model: 'r/own', knowledge_cutoff: '2023-12' },
    ...(seed === 2 ? [{ model: 'r/mute', knowledge_cutoff: '2024-02-29' }] : []),
    ...models
      .filter((m, k) => m.startsWith('r/m') && k % 2 === 0)
      .map((model) => ({ model, knowledge_cutoff: pick(cutoffs) })),
  ];
  const runs = new Map<string, Settings>();
  if (seed % 3 === 1)
    for (const m of models.filter((x) => x !== 'r/eps'))
      runs.set(m, { harness: 'lm-eval', shots: m === 'r/delta' ? 5 : 0 });
  return { rows, own: ['r/own'], cards: seed === 5 ? null : cards, runs };
}

describe('slices and windows re-derived from the rows, on random corpora', () => {
  const seen = new Set<string>();
  for (const seed of [1, 2, 3, 4, 5, 6, 7])
    it(`seed ${seed}`, async () => {
      const spec = randomSpec(seed);
      const { app } = demoApp(write(spec));
      const before = figures.compared;
      const { list, windows } = await rederive(app, spec, seen);
      assert.ok(figures.compared - before > 500, `seed ${seed}: ${figures.compared - before} figures compared`);
      for (const s of list.slices as any[]) {
        seen.add(s.too_small ? 'a slice too small' : 'a slice with letters');
        if (s.too_small)
          seen.add(
            `too small: ${/public model/.test(s.too_small_reason) ? 'models' : /6 or more/.test(s.too_small_reason) ? 'b + c' : /was tested/.test(s.too_small_reason) ? 'nothing tested' : s.too_small_reason}`,
          );
        if (s.separated > 0) seen.add('a slice with a separation');
        if (s.n.includes(0)) seen.add('a model absent from a slice');
        if (s.tie_groups?.some((g: string[] | null) => g !== null && g.length > 1))
          seen.add('a model in two tie groups');
      }
      if (list.family.excluded > 0) seen.add('pairs left out of the family');
      if (list.family.m_own > 0) seen.add('an own family');
      for (const p of windows.pairs) {
        seen.add(`window ${p.state}`);
        if (p.reason) seen.add(`window ${p.reason.replace(/:.*| for .*/, '')}`);
      }
      for (const m of windows.models)
        seen.add(
          m.after_cutoff ? 'a model after its cutoff' : `no after_cutoff: ${m.after_cutoff_reason.slice(0, 30)}`,
        );
      for (const m of windows.models) if (m.after_cutoff?.parsed === 0) seen.add('none parsed after a cutoff');
    });

  it('a tag no item carries, and an axis without tags: 404 not_found (docs/formats.md)', async () => {
    const spec = randomSpec(1);
    const { app } = demoApp(write(spec));
    const r = await app.inject({ url: '/api/models?axis=quiz&slice=nope' });
    assert.equal(r.statusCode, 404);
    const tags = [...new Set(spec.rows.flatMap((x) => x.tags ?? []))].sort();
    assert.deepEqual([r.json().code, r.json().known, r.json().known_total], ['not_found', tags, tags.length]);
    const { app: plain } = demoApp(write(stripped(spec)));
    for (const url of ['/api/slices?axis=quiz', '/api/models?axis=quiz&slice=all']) {
      const q = await plain.inject({ url });
      assert.equal(q.statusCode, 404, url);
      assert.deepEqual([q.json().code, q.json().known], ['not_found', []], url);
    }
    const w = await getJson(plain, '/api/windows?axis=quiz');
    assert.ok(
      w.pairs.every((p: any) => p.state === 'UNTESTED' && /^untested on the whole axis|^no item dates/.test(p.reason)),
    );
  });

  it('every figure compared, counted', (t) => {
    t.diagnostic(`${figures.compared} served figures compared with their re-derivation`);
    assert.ok(figures.compared > 20000, `${figures.compared}`);
  });

  it('the random corpora exercised every rule', () => {
    for (const want of [
      'a slice too small',
      'too small: models',
      'too small: b + c',
      'too small: nothing tested',
      'a slice with letters',
      'a slice with a separation',
      'a model in two tie groups',
      'a model absent from a slice',
      'pairs left out of the family',
      'an own family',
      'window SEPARATED',
      'window TIE',
      'window UNTESTED',
      'window untested on the whole axis',
      'window no knowledge cutoff',
      'window no item dates on this axis',
      'window the window is empty',
      'a model after its cutoff',
      'none parsed after a cutoff',
      'slice UNTESTED: not like for like',
      'slice UNTESTED: item content hash',
      'a slice model without a parsed response',
    ])
      assert.ok(seen.has(want), `${want} (seen: ${[...seen].sort().join(' | ')})`);
  });
});

// ---------------------------------------------------------------- worked by hand

/**
 * 20 items q00-q19, gold A; `h/own` is the board's own model. Right on:
 *   h/a: every item · h/b: q00-q03, q12-q19 · h/c: q00-q17 · h/own: q00-q09.
 * Tags: x on q00-q11, y on q08-q19, z on q00-q02. Dates: q00-q05 2023-06, q06-q11 2024-02-10,
 * q12-q15 2024-05, q16-q18 2024-07-01, q19 undated. Cutoffs: h/a 2024-01, h/b 2024-05-15, h/c a
 * card without one, h/own 2023-12-31.
 */
function handSpec(): Spec {
  const right: Record<string, (i: number) => boolean> = {
    'h/a': () => true,
    'h/b': (i) => i <= 3 || i >= 12,
    'h/c': (i) => i <= 17,
    'h/own': (i) => i <= 9,
  };
  const rows: Row[] = [];
  for (let i = 0; i < 20; i++) {
    const tags = [...(i <= 11 ? ['x'] : []), ...(i >= 8 ? ['y'] : []), ...(i <= 2 ? ['z'] : [])];
    const date = i <= 5 ? '2023-06' : i <= 11 ? '2024-02-10' : i <= 15 ? '2024-05' : i <= 18 ? '2024-07-01' : undefined;
    for (const [model, ok] of Object.entries(right))
      rows.push({
        item: `q${String(i).padStart(2, '0')}`,
        model,
        gold: 'A',
        label: ok(i) ? 'A' : 'B',
        tags,
        ...(date && { item_date: date }),
      });
  }
  const cards: Card[] = [
    { model: 'h/a', knowledge_cutoff: '2024-01' },
    { model: 'h/b', knowledge_cutoff: '2024-05-15' },
    { model: 'h/c', organisation: 'Lab C' },
    { model: 'h/own', knowledge_cutoff: '2023-12-31' },
  ];
  return { rows, own: ['h/own'], cards, runs: new Map() };
}

describe('the corpus worked by hand', async () => {
  const spec = handSpec();
  const { app } = demoApp(write(spec));
  const list = await getJson(app, '/api/slices?axis=quiz');
  const x = await getJson(app, '/api/models?axis=quiz&slice=x');
  const y = await getJson(app, '/api/models?axis=quiz&slice=y');
  const z = await getJson(app, '/api/models?axis=quiz&slice=z');
  const w = await getJson(app, '/api/windows?axis=quiz');
  const pair = (doc: any, s: string, t: string) =>
    doc.pairs.find((p: any) => (p.first === s && p.second === t) || (p.first === t && p.second === s));

  it('every figure re-derived (as the random corpora)', async () => {
    await rederive(app, spec);
  });

  it('slice x (q00-q11): h/a 12/12, h/c 12/12, h/own 10/12, h/b 4/12', () => {
    assert.deepEqual(
      x.models.map((m: any) => [m.model, m.k, m.parsed, m.rank]),
      [
        ['h/a', 12, 12, 1],
        ['h/c', 12, 12, 2], // tied with h/a on accuracy and n: by id
        ['h/own', 10, 12, null],
        ['h/b', 4, 12, 3],
      ],
    );
    // h/a ~ h/b: a = 4 (q00-q03), b = 8 (q04-q11), c = 0: p = 2·2⁻⁸ = 0.0078125; h/c ~ h/b the same.
    // Family across slices (b + c ≥ 6): x's two, y's h/c ~ h/b (p 0.6875): m = 3.
    // Holm: 3·0.0078125 = 0.0234375 twice, then 0.6875: both of x's SEPARATED.
    for (const other of ['h/a', 'h/c']) {
      const p = pair(x, other, 'h/b');
      assert.deepEqual([p.a, p.b + p.c, p.state, p.better, p.in_family], [4, 8, 'SEPARATED', other, true]);
      close(p.p, 0.0078125, 'p');
      close(p.p_holm, 0.0234375, 'p_holm across slices');
      close(p.p_holm_slice, 0.0234375, 'p_holm within x: 3·p, then 1 for h/a ~ h/c');
    }
    // h/a ~ h/c: no discordant item: tested, p = 1, out of the family (cannot reject).
    const ac = pair(x, 'h/a', 'h/c');
    assert.deepEqual([ac.state, ac.p, ac.p_holm, ac.p_holm_slice, ac.in_family], ['TIE', 1, null, 1, false]);
    // Own family: x's h/own ~ h/b (a 4, b 6 (q04-q09), c 0, d 2: p = 2/64 = 0.03125) with y's
    // h/a ~ h/own (b 10: 2/1024), h/c ~ h/own (b 8: 2/256), h/b ~ h/own (b 8, c 2: 112/1024):
    // m_own = 4; Holm 4/512 = 0.0078125, 3/128 = 0.0234375, 2·0.03125 = 0.0625, 0.109375.
    const ob = pair(x, 'h/own', 'h/b');
    assert.deepEqual([ob.a, ob.first === 'h/own' ? ob.b : ob.c, ob.state], [4, 6, 'TIE']);
    close(ob.p, 0.03125, 'own p');
    close(ob.p_holm, 0.0625, 'own p_holm: 0.03125 unadjusted would separate; in the own family it does not');
    assert.equal(ob.p_holm_slice, null);
    // Letters: h/a and h/c share a; h/b alone in b.
    assert.deepEqual(
      x.models.map((m: any) => [m.model, m.tie_groups, m.not_separated]),
      [
        ['h/a', ['a'], [[1, 2]]],
        ['h/c', ['a'], [[1, 2]]],
        ['h/own', [], null],
        ['h/b', ['b'], [[3, 3]]],
      ],
    );
    assert.deepEqual(
      [x.leader_group, x.groups, x.m, x.m_slice, x.m_slice_family, x.too_small],
      [['h/a', 'h/c'], 2, 3, 3, 2, false],
    );
  });

  it('slice y (q08-q19): nothing separates across slices; the own pairs do', () => {
    // h/c ~ h/b: a 6 (q12-q17), b 4 (q08-q11), c 2 (q18, q19): p = 2·(1 + 6 + 15)/64 = 0.6875.
    const cb = pair(y, 'h/c', 'h/b');
    assert.deepEqual([cb.a, cb.b, cb.c, cb.state], [6, 4, 2, 'TIE']);
    close(cb.p, 0.6875, 'p');
    close(cb.p_holm, 0.6875, 'p_holm: the largest of the family, 1·p');
    // Within y alone: 0.125 (h/a ~ h/b, b 4) ·3 = 0.375; 0.5 (h/a ~ h/c, b 2) ·2 = 1; then 1.
    close(pair(y, 'h/a', 'h/b').p_holm_slice, 0.375, 'within y');
    assert.equal(pair(y, 'h/a', 'h/b').p_holm, null, 'b + c = 4: out of the family');
    close(pair(y, 'h/a', 'h/own').p_holm, 0.0078125, 'own family');
    assert.equal(pair(y, 'h/a', 'h/own').state, 'SEPARATED');
    close(pair(y, 'h/c', 'h/own').p_holm, 0.0234375, 'own family');
    close(pair(y, 'h/b', 'h/own').p_holm, 0.109375, 'own family');
    assert.deepEqual([y.groups, y.leader_group, y.m_slice_family, y.too_small], [1, ['h/a', 'h/c', 'h/b'], 1, false]);
  });

  it('slice z (q00-q02): every model right on all three: too small, no letters, every public model leads', () => {
    assert.deepEqual([z.too_small, z.groups, z.m_slice, z.m_slice_family], [true, null, 3, 0]);
    assert.match(z.too_small_reason, /6 or more discordant items/);
    assert.deepEqual(z.leader_group, ['h/a', 'h/b', 'h/c'], 'all 3/3: by id');
    assert.ok(z.models.every((m: any) => m.tie_groups === null && m.not_separated === null));
  });

  it('the list: the family, each slice in a line', () => {
    assert.deepEqual(list.family.m, 3);
    assert.deepEqual([list.family.excluded, list.family.m_own, list.family.slices], [6, 4, 3]);
    assert.deepEqual(list.models, ['h/a', 'h/c', 'h/b', 'h/own']);
    assert.deepEqual(
      list.slices.map((s: any) => [s.tag, s.items, s.n, s.leader, s.tie_groups, s.separated, s.too_small]),
      [
        ['x', 12, [12, 12, 12, 12], 'h/a', [['a'], ['a'], ['b'], null], 2, false],
        ['y', 12, [12, 12, 12, 12], 'h/a', [['a'], ['a'], ['a'], null], 0, false],
        ['z', 3, [3, 3, 3, 3], 'h/a', null, 0, true],
      ],
    );
  });

  it('windows: after each cutoff, each pair after the later one', () => {
    // After h/a's 2024-01 (latest day 2024-01-31): q06-q18, 13 items, all right. After h/b's
    // 2024-05-15: q16-q18 only (q12-q15 are of 2024-05: maybe before the 15th), 3 of 3. After
    // h/own's 2023-12-31: q06-q18, right on q06-q09: 4 of 13.
    assert.deepEqual(
      w.models.map((m: any) => [
        m.model,
        m.knowledge_cutoff,
        m.after_cutoff && [m.after_cutoff.items, m.after_cutoff.k],
      ]),
      [
        ['h/a', '2024-01', [13, 13]],
        ['h/c', null, null],
        ['h/b', '2024-05-15', [3, 3]],
        ['h/own', '2023-12-31', [13, 4]],
      ],
    );
    close(w.models[3].after_cutoff.accuracy, 4 / 13, 'h/own after its cutoff');
    // h/a ~ h/b on q16-q18: both right on all three: n 3, b = c = 0, p 1; the only window pair
    // tested among public models (m = 1). Newcombe with p₁ = p₂ = 1, φ = 0: ±(1 − l), l the
    // Wilson lower bound of 3/3 = 3/(3 + z²), so ±z²/(3 + z²) = ±0.56150.
    const ab = pair(w, 'h/a', 'h/b');
    assert.deepEqual(
      [ab.later_cutoff, ab.n_pairs, ab.b, ab.c, ab.p, ab.p_holm, ab.state, w.m],
      ['2024-05-15', 3, 0, 0, 1, 1, 'TIE', 1],
    );
    close(ab.difference_interval[1], 1.959963984540054 ** 2 / (3 + 1.959963984540054 ** 2), 'Newcombe upper');
    close(ab.difference_interval[1], 0.5615, 'as printed', 1e-4);
    // h/a ~ h/own: later cutoff h/a's (2024-01-31 after 2023-12-31): q06-q18, b = 9 (q10-q18),
    // a = 4: p = 2·2⁻⁹ = 0.00390625, unadjusted (own): SEPARATED.
    const ao = pair(w, 'h/a', 'h/own');
    assert.deepEqual(
      [ao.later_cutoff, ao.n_pairs, ao.a, ao.p_holm, ao.state, ao.better],
      ['2024-01', 13, 4, null, 'SEPARATED', 'h/a'],
    );
    close(ao.p, 0.00390625, 'p');
    // Every pair with h/c: UNTESTED, never clean.
    for (const other of ['h/a', 'h/b', 'h/own']) {
      const p = pair(w, 'h/c', other);
      assert.equal(p.state, 'UNTESTED');
      assert.match(p.reason, /^no knowledge cutoff for h\/c/);
      assert.equal(p.n_pairs, undefined);
    }
    // The lead: h/c (rank 2) TIE on the whole axis (b 2, c 0, p 0.5, Holm over 3: 0.5), +10.0
    // points over 20; its window UNTESTED. h/b: whole +40.0 points SEPARATED (p_holm 3/128).
    assert.deepEqual(
      w.lead.map((r: any) => [r.model, r.full.state, r.full.n_pairs, r.window.state]),
      [
        ['h/c', 'TIE', 20, 'UNTESTED'],
        ['h/b', 'SEPARATED', 20, 'TIE'],
      ],
    );
    close(w.lead[0].full.difference, 0.1, 'd');
    close(w.lead[0].full.p_holm, 0.5, 'Holm: 3/128, 2·0.109375, max(0.21875, 0.5)');
    close(w.lead[1].full.p_holm, 0.0234375, 'Holm');
    assert.match(
      w.summary,
      /^h\/a against h\/c \(rank 2\) .*UNTESTED.*no knowledge cutoff for h\/c.*\+10\.0 points over 20 items \(TIE\)/,
    );
    assert.doesNotMatch(w.summary, /\bclean\b(?! )/);
  });
});

// ---------------------------------------------------------------- the board unchanged

/** The same rows without tags and dates, and the same cards without cutoffs. */
function stripped(spec: Spec): Spec {
  return {
    ...spec,
    rows: spec.rows.map(({ tags: _t, item_date: _d, ...r }) => r),
    cards: spec.cards && spec.cards.map(({ knowledge_cutoff: _k, ...c }) => c),
  };
}

describe('the board does not change by a byte (issue 41 item 6)', () => {
  for (const [name, spec] of [
    ['random, seed 1', randomSpec(1)],
    ['by hand', handSpec()],
  ] as const)
    it(`${name}: /api/gspc and /api/models, with and without tags, dates and cutoffs`, async () => {
      const signing = testSigning();
      const served = async (s: Spec) => {
        const { app } = demoApp(write(s), signing);
        const board = (await app.inject({ url: '/api/gspc' })).body;
        return { board, models: (await app.inject({ url: '/api/models?axis=quiz' })).body };
      };
      const [a, b] = [await served(spec), await served(stripped(spec))];
      assert.equal(a.models, b.models, '/api/models: the same bytes');
      // The published rows and cards differ, so the hash over the published files does (MC6), and
      // the site attestation's signature over the board: those two strings, and not a byte more.
      const moving = (body: string) => {
        const doc = JSON.parse(body);
        return [doc.measured_on.peritem_sha256 as string, doc.site_attestation.sig as string];
      };
      const [ma, mb] = [moving(a.board), moving(b.board)];
      assert.ok(ma[0] !== mb[0] && ma[1] !== mb[1]);
      const blank = (body: string, strings: string[]) =>
        strings.reduce((text, x) => text.split(`"${x}"`).join('""'), body);
      assert.equal(blank(a.board, ma), blank(b.board, mb), 'the board, byte for byte, but the hash and its signature');
    });
});

// ---------------------------------------------------------------- the docs' own corpora

/** A one-axis `quiz` corpus directory read back as rows, own models, cards and runs. */
function specOf(dir: string): Spec {
  const rows = readFileSync(join(dir, 'peritem', 'quiz.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Row);
  const board = JSON.parse(readFileSync(join(dir, 'board.json'), 'utf8')) as { own_models: string[] };
  const cardsFile = join(dir, 'models.json');
  const cards = existsSync(cardsFile) ? (JSON.parse(readFileSync(cardsFile, 'utf8')).models as Card[]) : null;
  return { rows, own: board.own_models, cards, runs: new Map() };
}

describe('the corpora the documents are tested on, re-derived', () => {
  it('docs/methodology.md §13 worked example (test/helpers/windows-corpus.ts)', async () => {
    const dir = windowsCorpus();
    const { app } = demoApp(dir);
    const { windows } = await rederive(app, specOf(dir));
    assert.match(windows.summary, /^w\/a against w\/b \(rank 2\) on the 16 items .*\+50\.0 points/);
  });
  it('the same without dates, and with a markup model id', async () => {
    const dir = windowsCorpus({ dates: false, third: '<b>w/"c"</b>' });
    const { app } = demoApp(dir);
    await rederive(app, specOf(dir));
  });
  it('the tagged corpus of the slice tests (test/helpers/slices-corpus.ts): 61 tags, 60 of them too small', async () => {
    const dir = slicesCorpus(true);
    const { app } = demoApp(dir);
    const { list } = await rederive(app, specOf(dir));
    assert.equal(list.slices.filter((x: any) => x.too_small).length, 60);
  });
});
