/**
 * Slices of an axis (issue 41 item 2, decisions SL1-SL6): the table restricted to a tag's items
 * gives the whole axis's document when the tag covers every item (every count, p, interval, mdd,
 * SE, hash conflict and settings alike); the slices share ONE Holm family, so a pair SEPARATED
 * within its slice alone is a TIE once another slice's testable pair joins the family, while a
 * slice whose tests cannot reject (b + c < 6) neither joins nor dilutes it and is too small.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { itemsByTag, sliceTable } from '../../src/core/board/item-slice.js';
import { ItemTable } from '../../src/core/board/item-table.js';
import type { ModelComparisonAxis, PerItemRow } from '../../src/core/board/model.js';
import { modelsDocument } from '../../src/core/board/models-document.js';
import { slicedAxisSteps, type SlicedAxis } from '../../src/core/board/slice-family.js';
import { mcnemarExact } from '../../src/core/stats/index.js';

const def = (labels?: string[]): ModelComparisonAxis =>
  ({
    axis: 'quiz',
    family: 'test',
    kind: 'model-comparison',
    status: 'MEASURED',
    bench: 'quiz',
    task: 'a quiz',
    dataset: 'quiz',
    ...(labels && { labels }),
  }) as ModelComparisonAxis;

function tableOf(rows: PerItemRow[]): ItemTable {
  const t = new ItemTable();
  rows.forEach((r, i) => assert.equal(t.add(r, i + 1), undefined));
  return t;
}

function sliced(d: ModelComparisonAxis, t: ItemTable, own: string[] = []): SlicedAxis {
  const steps = slicedAxisSteps(d, t, own, modelsDocument(d, t, own));
  for (;;) {
    const s = steps.next();
    if (s.done) return s.value;
  }
}

/** Deterministic rows: 6 models × 240 items with clusters, hashes (one conflict) and unparsed labels. */
function wholeRows(tags: (i: number) => string[] | undefined): PerItemRow[] {
  const rows: PerItemRow[] = [];
  const skill = [0.9, 0.8, 0.7, 0.62, 0.6, 0.4];
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 240; i++) {
    const gold = i % 3 === 0 ? 'B' : 'A';
    skill.forEach((s, m) => {
      const model = `m/${m}`;
      const r = rand();
      const label = r < 0.03 ? null : r < s ? gold : gold === 'A' ? 'B' : 'A';
      const tg = tags(i);
      rows.push({
        item: `q${i}`,
        model,
        gold,
        label,
        cluster: `c${i % 17}`,
        item_hash: i === 5 && m === 2 ? 'h5-other' : `h${i}`,
        ...(tg && { tags: tg }),
      });
    });
  }
  return rows;
}

describe('a slice covering every item is the whole axis', () => {
  const t = tableOf(wholeRows(() => ['all']));
  t.columns.get('m/1')!.settings = { harness: 'x', shots: 0 };
  t.columns.get('m/3')!.settings = { harness: 'y', shots: 0 };
  const own = ['m/5'];
  const whole = modelsDocument(def(), t, own);
  const { documents, list } = sliced(def(), t, own);
  const doc = documents.get('all')!;

  it('sliceTable copies every column, gold, cluster, hash conflict and setting', () => {
    const s = sliceTable(t, itemsByTag(t).get('all')!);
    assert.deepEqual(s.items, t.items);
    assert.deepEqual([...s.hashConflicts], [...t.hashConflicts]);
    assert.equal(s.rowCount, t.rowCount);
    assert.deepEqual(s.clusterRows.with, t.clusterRows.with);
    for (const [m, col] of t.columns) {
      const c = s.columns.get(m)!;
      assert.deepEqual([...c.outcome], [...col.outcome.subarray(0, 240)], m);
      assert.equal(c.rows, col.rows);
      assert.equal(c.settings, col.settings);
      assert.equal(s.labelOf(c, 7), t.labelOf(col, 7));
    }
  });

  it('models and pairs equal the whole document (every pair can reject: same family, same states)', () => {
    assert.ok(
      whole.pairs.some((p) => p.reason?.startsWith('item content hashes differ')),
      'a hash conflict refuses a pair',
    );
    assert.ok(
      whole.pairs.some((p) => p.like_for_like === false),
      'a pair is not like for like',
    );
    assert.ok(whole.pairs.some((p) => p.state === 'SEPARATED') && whole.pairs.some((p) => p.state === 'TIE'));
    assert.ok(whole.pairs.every((p) => p.state === 'UNTESTED' || p.b! + p.c! >= 6));
    assert.deepEqual(doc.models, whole.models);
    assert.equal(doc.pairs.length, whole.pairs.length);
    doc.pairs.forEach((p, k) => {
      const { p_holm_slice, in_family, ...rest } = p;
      const w = whole.pairs[k]!;
      // An own pair is adjusted in the own family across slices (SL3), not left unadjusted.
      assert.deepEqual(
        rest,
        w.own && w.state !== 'UNTESTED' ? { ...w, p_holm: rest.p_holm } : w,
        `${p.first} ${p.second}`,
      );
      if (w.state !== 'UNTESTED') assert.equal(in_family, true);
      if (!w.own && w.state !== 'UNTESTED') assert.equal(p_holm_slice, w.p_holm);
    });
    for (const k of ['n', 'groups', 'leader_group', 'leader_untested', 'untested_pairs', 'm'] as const)
      assert.deepEqual(doc[k], whole[k], k);
    assert.deepEqual(
      [doc.slice, doc.too_small, doc.family.m, doc.family.excluded, doc.m_slice],
      [{ tag: 'all', items: 240 }, false, whole.m, 0, whole.m],
    );
    assert.deepEqual(
      list.models,
      whole.models.map((m) => m.model),
    );
    assert.deepEqual(
      list.slices[0]!.n,
      whole.models.map((m) => m.parsed),
    );
    assert.equal(list.slices[0]!.leader, whole.leader_group[0]);
    assert.equal(list.slices[0]!.document, '/api/models?axis=quiz&slice=all');
  });
});

/** Two models; per tag: [A right only, B right only, both right]. */
function familyRows(spec: Record<string, [number, number, number]>): PerItemRow[] {
  const rows: PerItemRow[] = [];
  for (const [tag, [b, c, a]] of Object.entries(spec))
    for (let i = 0; i < b + c + a; i++) {
      const item = `${tag}/${i}`;
      const aRight = i < b || i >= b + c;
      const bRight = i >= b;
      rows.push({ item, model: 'A', gold: 'A', label: aRight ? 'A' : 'B', tags: [tag] });
      rows.push({ item, model: 'B', gold: 'A', label: bRight ? 'A' : 'B', tags: [tag] });
    }
  return rows;
}

describe('one Holm family across slices', () => {
  const p10v2 = mcnemarExact(10, 2).p; // 158/4096 = 0.0386
  it('a slice SEPARATED within itself is a TIE once another slice can reject too', () => {
    assert.ok(Math.abs(p10v2 - 158 / 4096) < 1e-12);
    const { documents, list } = sliced(
      def(['A', 'B']),
      tableOf(familyRows({ x: [10, 2, 5], y: [3, 3, 2], z: [2, 1, 0] })),
    );
    const x = documents.get('x')!.pairs[0]!;
    assert.equal(x.p_holm_slice, p10v2);
    assert.ok(x.p_holm_slice! < 0.05, 'within x alone it would be SEPARATED');
    assert.equal(x.p_holm, 2 * p10v2);
    assert.equal(x.state, 'TIE');
    assert.equal(x.better, undefined);
    assert.deepEqual(list.family.m, 2);
    assert.deepEqual(list.family.excluded, 1);
    assert.deepEqual(
      documents.get('x')!.models.map((m) => m.tie_groups),
      [['a'], ['a']],
    );
    assert.equal(list.slices.find((s) => s.tag === 'x')!.separated, 0);
  });

  it('an excluded test (b + c < 6) does not dilute the family', () => {
    const { documents, list } = sliced(def(['A', 'B']), tableOf(familyRows({ x: [10, 2, 5], z: [2, 1, 0] })));
    const x = documents.get('x')!.pairs[0]!;
    assert.deepEqual(
      [x.p_holm, x.state, x.better, list.family.m, list.family.excluded],
      [p10v2, 'SEPARATED', 'A', 1, 1],
    );
    assert.deepEqual(
      documents.get('x')!.models.map((m) => m.tie_groups),
      [['a'], ['b']],
    );
    const z = documents.get('z')!;
    assert.deepEqual([z.pairs[0]!.in_family, z.pairs[0]!.p_holm, z.pairs[0]!.state], [false, null, 'TIE']);
  });

  it('a slice that cannot reject is too small: no letters or ranges, every model in the leader group', () => {
    const { documents, list } = sliced(def(['A', 'B']), tableOf(familyRows({ x: [10, 2, 5], z: [2, 1, 0] })));
    const z = documents.get('z')!;
    assert.equal(z.too_small, true);
    assert.match(z.too_small_reason!, /b \+ c = 3, whose smallest attainable p is 0\.25/);
    assert.equal(z.groups, null);
    assert.match(z.groups_reason!, /^too small to separate anything/);
    assert.deepEqual(
      z.models.map((m) => [m.tie_groups, m.not_separated]),
      [
        [null, null],
        [null, null],
      ],
    );
    assert.deepEqual(z.leader_group, ['A', 'B']);
    const s = list.slices.find((e) => e.tag === 'z')!;
    assert.deepEqual([s.too_small, s.tie_groups, s.items, s.n, s.leader], [true, null, 3, [3, 3], 'A']);
    assert.equal(documents.get('x')!.too_small, false);
  });

  it("one model on a slice is too small; a slice of one gold label keeps the axis's menu (not refused)", () => {
    const rows = familyRows({ x: [10, 2, 5] });
    rows.push({ item: 'solo/0', model: 'A', gold: 'A', label: 'A', tags: ['solo'] });
    rows.push({ item: 'other/0', model: 'B', gold: 'B', label: 'B', tags: ['other'] });
    const { documents, list } = sliced(def(), tableOf(rows));
    const solo = documents.get('solo')!;
    assert.equal(solo.bank_state, undefined, 'every gold of x and solo is A, yet the axis menu is not refused');
    assert.match(solo.too_small_reason!, /only one public model has a parsed response/);
    assert.deepEqual(list.slices.find((e) => e.tag === 'solo')!.n, [1, 0]);
    assert.equal(solo.models.length, 1);
  });
});

describe('content hashes on a slice', () => {
  it("a pair is refused on a slice only where its own two models' hashes differ on the slice's items", () => {
    const t = tableOf(wholeRows((i) => [i < 120 ? 'first' : 'second']));
    const { documents } = sliced(def(), t);
    // Item q5 (in `first`) carries another hash for m/2 only: m/2's pairs are refused there alone.
    const pair = (tag: string, x: string, y: string) =>
      documents.get(tag)!.pairs.find((p) => p.first === x && p.second === y) ??
      documents.get(tag)!.pairs.find((p) => p.first === y && p.second === x)!;
    assert.equal(pair('first', 'm/0', 'm/2').state, 'UNTESTED');
    assert.match(pair('first', 'm/0', 'm/2').reason!, /^item content hashes differ on 1 paired item/);
    assert.notEqual(pair('second', 'm/0', 'm/2').state, 'UNTESTED');
    assert.notEqual(pair('first', 'm/0', 'm/1').state, 'UNTESTED');
  });
});
