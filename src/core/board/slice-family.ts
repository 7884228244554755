/**
 * Every slice of an axis (one per tag, issue 41 item 2) and the one multiplicity family they
 * share (decisions SL2-SL4, docs/methodology.md §13). Each slice's every-model document is built
 * by the same derivation as the whole axis's, on the axis's table restricted to the tag's items
 * (item-slice.ts). Then every public tested pair of every slice whose discordant count lets an
 * exact test reject at all (b + c ≥ 6: smallest attainable p = 2·0.5^(b+c) < 0.05; Tarone 1990)
 * joins ONE Holm family, and each slice's states, letters, ranges and leader group are drawn from
 * that family's adjusted p: a reader cannot go fishing across slices for one that flatters a
 * model, since a slice shows no separation that only holds within itself. Pairs with an own model
 * form a second family by the same rule, apart, so an operator's own models never change a public
 * state (as on the whole axis). Pure: a function of the definition and the table.
 */
import { holmAdjust } from '../stats/holm.js';
import { canReject, smallestAttainableP } from '../stats/attainable.js';
import { SEPARATION_ALPHA } from '../stats/index.js';
import { itemsByTag, sliceTable } from './item-slice.js';
import type { ItemTable } from './item-table.js';
import type { ModelComparisonAxis } from './model.js';
import type { ModelsDocument, PairEntry } from './models-document-shape.js';
import { modelsDocumentSteps } from './models-document.js';
import { separationOf } from './models-separation.js';
import {
  MIN_DISCORDANT,
  SLICES_SCHEMA,
  type SliceDocument,
  type SliceFamily,
  type SlicesDocument,
  type SliceSummary,
} from './slices-document-shape.js';

const RULE = `one Holm family across every slice of the axis: every public pair tested on any slice whose discordant count b + c is at least ${MIN_DISCORDANT} (the smallest p an exact two-sided McNemar test can reach is 2·0.5^(b+c), below 0.05 only from b + c = ${MIN_DISCORDANT}; a test that cannot reject is left out, which cannot add a false rejection: Tarone 1990); a pair is SEPARATED on a slice when its p adjusted in that family is below 0.05 and b ≠ c; letters, ranges and the leader group follow those states; pairs with an own model form their own family by the same rule`;

const SLICE_METHOD = {
  slice:
    "the axis's rows on the items carrying the tag, and nothing else: every count, interval, pair and mdd is the whole axis's method on those items; a model with no row on them is not in the document",
  pairs: `exact McNemar on the items both parsed, as on the whole axis; p_holm is adjusted in the family across slices (family.m), null for a tested pair outside it (in_family false: b + c < ${MIN_DISCORDANT}); p_holm_slice, the Holm adjustment within this slice alone (m_slice), is shown beside it and drives nothing`,
  own_pairs:
    'a pair with an own model is adjusted in the own-model family across slices (family.m_own), apart from the public family, so it never changes a public state; its state reads that adjusted p',
  too_small: `a slice none of whose public pairs can reject (fewer than two public models with a parsed response, no public pair tested, or every tested public pair with b + c < ${MIN_DISCORDANT}) is too_small: no tie group or range is given, and every public model is in leader_group`,
  bank: "a slice's label menu is the whole axis's (declared labels, else every gold label of the axis): a slice whose items all have one gold label is not a refused bank, since every model still chose from the axis's menu",
};

export interface SlicedAxis {
  /** Each tag's document, in tag order (sorted by code unit). */
  documents: Map<string, SliceDocument>;
  list: SlicesDocument;
}

/** The path of a slice document (query values percent-encoded). */
export function sliceDocumentPath(axis: string, tag: string): string {
  return `/api/models?axis=${encodeURIComponent(axis)}&slice=${encodeURIComponent(tag)}`;
}

const tested = (p: PairEntry) => p.state !== 'UNTESTED';

/**
 * Every slice's document and the list, in steps: a step per slice built and the steps of each
 * slice's own derivation, so a server builds 1,000 slices between requests (issue 41 item 5).
 * `whole`: the whole axis's document (its model order heads the list).
 */
export function* slicedAxisSteps(
  def: ModelComparisonAxis,
  table: ItemTable,
  boardOwn: readonly string[],
  whole: ModelsDocument,
): Generator<void, SlicedAxis, void> {
  // The axis's menu, not the slice's: a slice of one gold label is not a refused bank (SL5).
  const sliceDef: ModelComparisonAxis = { ...def, labels: def.labels ?? [...table.distinctGoldLabels()] };
  const byTag = itemsByTag(table);
  const docs = new Map<string, ModelsDocument>();
  for (const [tag, items] of byTag) {
    docs.set(tag, yield* modelsDocumentSteps(sliceDef, sliceTable(table, items), boardOwn));
    yield;
  }
  // The two families over every slice, in tag order then pair order (Holm's result does not
  // depend on the order). Read into typed arrays, and each slice's pairs written anew when it is
  // restated: setting new fields on 45,000 pair objects already in the old generation held the
  // event loop for 370 ms at 1,000 slices (bench §17), as in issue 39.
  const adjusted = new Map<string, Adjusted>();
  const publicP: number[] = [];
  const ownP: number[] = [];
  const publicAt: Array<[Float64Array, number]> = [];
  const ownAt: Array<[Float64Array, number]> = [];
  let excluded = 0;
  for (const [tag, doc] of docs) {
    const a: Adjusted = {
      across: new Float64Array(doc.pairs.length).fill(Number.NaN),
      inFamily: new Uint8Array(doc.pairs.length),
    };
    adjusted.set(tag, a);
    doc.pairs.forEach((p, k) => {
      if (!tested(p)) return;
      if (!canReject(p.b! + p.c!, SEPARATION_ALPHA)) {
        if (!p.own) excluded++;
        return;
      }
      a.inFamily[k] = 1;
      (p.own ? ownP : publicP).push(p.p!);
      (p.own ? ownAt : publicAt).push([a.across, k]);
    });
    if (adjusted.size % 64 === 0) yield;
  }
  for (const [ps, at] of [
    [publicP, publicAt],
    [ownP, ownAt],
  ] as const)
    holmAdjust(ps).forEach((h, k) => {
      const [arr, i] = at[k]!;
      arr[i] = h;
    });
  yield;
  const family: SliceFamily = {
    scope: 'across slices',
    alpha: SEPARATION_ALPHA,
    m: publicP.length,
    excluded,
    m_own: ownP.length,
    slices: docs.size,
    rule: RULE,
  };
  const documents = new Map<string, SliceDocument>();
  const summaries: SliceSummary[] = [];
  for (const [tag, doc] of docs) {
    const sliced = yield* restate(doc, adjusted.get(tag)!, tag, byTag.get(tag)!.length, family);
    documents.set(tag, sliced);
    summaries.push(summaryOf(sliced, whole.models, def.axis));
    yield;
  }
  let tagged = 0;
  for (let i = 0; i < table.items.length; i++) if (table.facets.tagsOf(i) !== undefined) tagged++;
  return {
    documents,
    list: {
      schema: SLICES_SCHEMA,
      axis: def.axis,
      status: def.status,
      n: table.items.length,
      tagged_items: tagged,
      models: whole.models.map((m) => m.model),
      family,
      method: {
        family: RULE,
        n: "per model, in the order of models: its parsed responses on the slice's items",
        tie_groups:
          'per model, in the order of models: its tie-group labels on the slice (from the family across slices), null for a model without a rank on the slice; null for the whole slice when it is too_small or has more than 702 groups',
        too_small: SLICE_METHOD.too_small,
        document: "the slice's own document, with every pair",
      },
      slices: summaries,
    },
  };
}

/** Each pair of a slice: its p adjusted in the family across slices (NaN: not in it), and whether it is in it. */
interface Adjusted {
  across: Float64Array;
  inFamily: Uint8Array;
}

/** Pairs restated between two yields: 19,900 pairs of a 200-model slice in one step held the event loop 80-260 ms (review R1). */
const RESTATED_PER_STEP = 2_048;

/** A slice's document with each pair's state from the family across slices, and what follows from it. */
function* restate(
  doc: ModelsDocument,
  a: Adjusted,
  tag: string,
  items: number,
  family: SliceFamily,
): Generator<void, SliceDocument, void> {
  let mSlice = 0;
  let mSliceFamily = 0;
  let widest = 0;
  const pairs: PairEntry[] = new Array(doc.pairs.length);
  for (let k = 0; k < doc.pairs.length; k++) {
    pairs[k] = restated(doc.pairs[k]!, k);
    if ((k + 1) % RESTATED_PER_STEP === 0) yield;
  }
  yield;
  function restated(p: PairEntry, k: number): PairEntry {
    if (!tested(p)) return p;
    if (!p.own) {
      mSlice++;
      widest = Math.max(widest, p.b! + p.c!);
      if (a.inFamily[k] === 1) mSliceFamily++;
    }
    const { better: _, ...rest } = p;
    const h = a.across[k]!;
    const separated = !Number.isNaN(h) && h < SEPARATION_ALPHA && p.b !== p.c;
    return {
      ...rest,
      state: separated ? 'SEPARATED' : 'TIE',
      p_holm: Number.isNaN(h) ? null : h,
      p_holm_slice: p.own ? null : (p.p_holm ?? null),
      in_family: a.inFamily[k] === 1,
      ...(separated && { better: p.b! > p.c! ? p.first : p.second }),
    };
  }
  const ranked = doc.models.filter((m) => m.rank !== null).sort((a, b) => a.rank! - b.rank!);
  const refused = doc.bank_state !== undefined;
  const tooSmallReason = refused ? undefined : tooSmall(ranked.length, mSlice, mSliceFamily, widest);
  const sep = separationOf(
    ranked.map((m) => m.model),
    pairs,
    refused,
    tooSmallReason === undefined ? undefined : `too small to separate anything: ${tooSmallReason}`,
  );
  const position = new Map(ranked.map((m, i) => [m.model, i]));
  for (const m of doc.models) {
    const i = position.get(m.model);
    m.tie_groups = sep.letters === null ? null : i === undefined ? [] : sep.letters[i]!;
    m.not_separated = i === undefined ? null : (sep.ranges[i] ?? null);
  }
  const { pairs: _pairs, models, groups_reason: _reason, ...head } = doc;
  return {
    ...head,
    slice: { tag, items },
    method: { ...doc.method, ...SLICE_METHOD },
    m: family.m,
    family,
    m_slice: mSlice,
    m_slice_family: mSliceFamily,
    too_small: tooSmallReason !== undefined,
    ...(tooSmallReason !== undefined && { too_small_reason: tooSmallReason }),
    groups: sep.groups,
    ...(sep.groups_reason !== undefined && { groups_reason: sep.groups_reason }),
    leader_group: sep.leader_group,
    leader_untested: sep.leader_untested,
    untested_pairs: sep.untested_pairs,
    models,
    pairs,
  };
}

/** Why no public pair of a slice can reject, or undefined when one can. */
function tooSmall(ranked: number, tested: number, inFamily: number, widest: number): string | undefined {
  if (ranked < 2)
    return `${ranked === 0 ? 'no public model has' : 'only one public model has'} a parsed response on the slice`;
  if (tested === 0) return 'no public pair was tested on the slice';
  if (inFamily === 0)
    return `no public pair has ${MIN_DISCORDANT} or more discordant items (the most is b + c = ${widest}, whose smallest attainable p is ${smallestAttainableP(widest)}): no exact test can reach p < 0.05`;
  return undefined;
}

function summaryOf(doc: SliceDocument, axisModels: ModelsDocument['models'], axis: string): SliceSummary {
  const byModel = new Map(doc.models.map((m) => [m.model, m]));
  const ranked = doc.models.filter((m) => m.rank !== null);
  return {
    tag: doc.slice.tag,
    items: doc.slice.items,
    n: axisModels.map((m) => byModel.get(m.model)?.parsed ?? 0),
    leader: doc.leader_group[0] ?? null,
    leader_group: doc.leader_group,
    leader_untested: doc.leader_untested,
    tie_groups:
      doc.groups === null || ranked.length === 0
        ? null
        : axisModels.map((m) => {
            const x = byModel.get(m.model);
            return x === undefined || x.rank === null ? null : x.tie_groups;
          }),
    groups: doc.groups,
    separated: doc.pairs.filter((p) => !p.own && p.state === 'SEPARATED').length,
    m_slice: doc.m_slice,
    m_slice_family: doc.m_slice_family,
    too_small: doc.too_small,
    ...(doc.too_small_reason !== undefined && { too_small_reason: doc.too_small_reason }),
    ...(doc.bank_state !== undefined && { bank_state: doc.bank_state }),
    document: sliceDocumentPath(axis, doc.slice.tag),
  };
}
