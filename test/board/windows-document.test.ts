/**
 * Contamination windows (issue 41 item 3, docs/methodology.md §13): the partial-date rule at its
 * boundaries; PairCounter's masked count and tally against a brute-force pass; the worked example
 * of the methodology (its figures by hand); the window family's Holm apart from the full axis's;
 * every UNTESTED reason, and nothing tested (never "clean") where dates or cutoffs are missing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  earliestDay,
  isAfterCutoff,
  itemEarliestDays,
  latestDay,
  windowMask,
} from '../../src/core/board/contamination-window.js';
import { ItemTable, OUTCOME_CORRECT, OUTCOME_WRONG } from '../../src/core/board/item-table.js';
import type { ModelCard } from '../../src/core/board/model-card.js';
import type { ModelComparisonAxis } from '../../src/core/board/model.js';
import { modelsDocument } from '../../src/core/board/models-document.js';
import { PairCounter } from '../../src/core/board/paired-bitsets.js';
import { NO_DATES, windowsDocument, type WindowsDocument } from '../../src/core/board/windows-document.js';
import { holmAdjust } from '../../src/core/stats/holm.js';

const def: ModelComparisonAxis = {
  axis: 'quiz',
  kind: 'model-comparison',
  family: 'test',
  status: 'MEASURED',
  bench: 'quiz',
  task: 'a quiz',
  dataset: 'quiz',
  labels: ['A', 'B'],
} as ModelComparisonAxis;

interface Row {
  item: string;
  model: string;
  right: boolean | null;
  date?: string;
  hash?: string;
}

function tableOf(rows: readonly Row[]): ItemTable {
  const t = new ItemTable();
  rows.forEach((r, i) => {
    const bad = t.add(
      {
        item: r.item,
        model: r.model,
        gold: 'A',
        label: r.right === null ? null : r.right ? 'A' : 'B',
        ...(r.date !== undefined && { item_date: r.date }),
        ...(r.hash !== undefined && { item_hash: r.hash }),
      },
      i + 1,
    );
    assert.equal(bad, undefined);
  });
  return t;
}

function docOf(rows: readonly Row[], cards: ModelCard[], own: string[] = []): WindowsDocument {
  const table = tableOf(rows);
  const full = modelsDocument(def, table, own);
  return windowsDocument(def, table, full, cards, '/peritem/models.json');
}

/**
 * The worked example of docs/methodology.md §13: 31 items; q00-q09 dated 2023-12, q10-q13
 * 2024-05, q14-q29 2024-06-10, q30 undated. w/a (cutoff 2024-03) is right on every item but
 * q28 and q29; w/b (cutoff 2024-05-15) on q00-q11 and q14-q19; w/c (no cutoff) on q00-q15.
 */
function workedRows(): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i <= 30; i++) {
    const item = `q${String(i).padStart(2, '0')}`;
    const date = i <= 9 ? '2023-12' : i <= 13 ? '2024-05' : i <= 29 ? '2024-06-10' : undefined;
    const d = date === undefined ? {} : { date };
    rows.push({ item, model: 'w/a', right: i !== 28 && i !== 29, ...d });
    rows.push({ item, model: 'w/b', right: i <= 11 || (i >= 14 && i <= 19), ...d });
    rows.push({ item, model: 'w/c', right: i <= 15, ...d });
  }
  return rows;
}
const workedCards: ModelCard[] = [
  { model: 'w/a', knowledge_cutoff: '2024-03' },
  { model: 'w/b', knowledge_cutoff: '2024-05-15', organisation: 'B' },
  { model: 'w/c', organisation: 'C' },
];

describe('the partial-date rule (decision CW1)', () => {
  it('an item is after a cutoff only when its earliest day is after the cutoff latest day', () => {
    const cases: [string, string, boolean][] = [
      ['2024-05', '2024-05-15', false],
      ['2024-05', '2024-05', false],
      ['2024-05', '2024-04', true],
      ['2024-05', '2024-04-30', true],
      ['2024-05-01', '2024-04', true],
      ['2024-04-30', '2024-04', false],
      ['2024-05-16', '2024-05-15', true],
      ['2024-05-15', '2024-05-15', false],
      ['2024-05-31', '2024-05', false],
      ['2024-06-01', '2024-05', true],
      ['2024-03-01', '2024-02', true],
      ['2024-02-29', '2024-02', false],
      ['2025-01', '2024-12', true],
      ['2024-12-31', '2025-01', false],
    ];
    for (const [item, cutoff, after] of cases)
      assert.equal(isAfterCutoff(item, cutoff), after, `${item} after ${cutoff}`);
    assert.deepEqual(['2023-02', '2024-02', '2024-04', '2024-12', '2024-05-15'].map(latestDay), [
      '2023-02-28',
      '2024-02-29',
      '2024-04-30',
      '2024-12-31',
      '2024-05-15',
    ]);
    assert.deepEqual(['2024-05', '2024-05-15'].map(earliestDay), ['2024-05-01', '2024-05-15']);
  });
});

describe('PairCounter with a mask', () => {
  it('counts and tallies exactly as a brute-force pass over the items dated after the cutoff', () => {
    const cell = fc.constantFrom('missing', 'unparsed', 'right', 'wrong');
    const date = fc.option(fc.constantFrom('2024-04', '2024-04-30', '2024-05', '2024-05-01', '2024-05-15', '2024-06'));
    const cutoff = fc.constantFrom(
      '2024-04',
      '2024-04-30',
      '2024-05',
      '2024-05-14',
      '2024-05-15',
      '2023-01',
      '2025-01',
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 90 }),
        fc.array(date, { minLength: 90, maxLength: 90 }),
        fc.array(fc.array(cell, { minLength: 90, maxLength: 90 }), { minLength: 2, maxLength: 3 }),
        cutoff,
        (items, dates, models, cut) => {
          const rows: Row[] = [];
          models.forEach((cells, m) => {
            for (let i = 0; i < items; i++) {
              const v = cells[i]!;
              if (v === 'missing') continue;
              const d = dates[i];
              rows.push({
                item: `i${i}`,
                model: `m${m}`,
                right: v === 'unparsed' ? null : v === 'right',
                ...(d !== null && d !== undefined && { date: d }),
              });
            }
          });
          const table = tableOf(rows);
          const counter = new PairCounter(table);
          const mask = windowMask(itemEarliestDays(table), cut);
          const inWindow = (i: number) => {
            const d = table.facets.dateOf(i);
            return d !== undefined && isAfterCutoff(d, cut);
          };
          const names = [...table.columns.keys()];
          for (const x of names) {
            const ox = table.columns.get(x)!.outcome;
            let parsed = 0;
            let correct = 0;
            for (let i = 0; i < table.items.length; i++)
              if (inWindow(i) && (ox[i] === OUTCOME_CORRECT || ox[i] === OUTCOME_WRONG)) {
                parsed++;
                if (ox[i] === OUTCOME_CORRECT) correct++;
              }
            assert.deepEqual(counter.tally(x, mask), { parsed, correct });
            for (const y of names) {
              if (x === y) continue;
              const oy = table.columns.get(y)!.outcome;
              const want = { paired: 0, b: 0, c: 0, both: 0, conflicts: 0 };
              for (let i = 0; i < table.items.length; i++) {
                const px = ox[i] === OUTCOME_CORRECT || ox[i] === OUTCOME_WRONG;
                const py = oy[i] === OUTCOME_CORRECT || oy[i] === OUTCOME_WRONG;
                if (!inWindow(i) || !px || !py) continue;
                want.paired++;
                const [rx, ry] = [ox[i] === OUTCOME_CORRECT, oy[i] === OUTCOME_CORRECT];
                if (rx && ry) want.both++;
                else if (rx) want.b++;
                else if (ry) want.c++;
              }
              assert.deepEqual(counter.count(x, y, mask), want);
              // A mask holding every item is the unmasked count.
              const all = windowMask(
                table.items.map(() => '9999-12-31'),
                '2000-01',
              );
              assert.deepEqual(counter.count(x, y, all), counter.count(x, y));
            }
          }
        },
      ),
      { numRuns: 150, seed: 41 },
    );
  });
});

describe('the windows document', () => {
  it('ends date_range at the date that may stand for the latest day, not the last string', () => {
    // 2024-05 may be any day of May, up to the 31st: it ends the range after 2024-05-20, which a
    // string sort put last; 2024-01 and 2024-01-01 both start on the 1st, and the month is first.
    const dates = ['2024-05-20', '2024-05', '2024-01-01', '2024-01', '2024-03-31'];
    const rows: Row[] = dates.flatMap((date, i) =>
      ['w/a', 'w/b'].map((model) => ({ item: `q${i}`, model, right: (i + model.length) % 2 === 0, date })),
    );
    const doc = docOf(rows, [{ model: 'w/a', knowledge_cutoff: '2023-12' } as ModelCard]);
    assert.deepEqual(doc.date_range, ['2024-01', '2024-05']);
  });

  it("gives the methodology's worked example, by hand", () => {
    const doc = docOf(workedRows(), workedCards);
    assert.equal(doc.schema, 'svc.gspc-windows/0.1');
    assert.deepEqual([doc.n, doc.dated_items, doc.date_range], [31, 30, ['2023-12', '2024-06-10']]);
    const a = doc.models.find((m) => m.model === 'w/a')!;
    assert.equal(a.knowledge_cutoff, '2024-03');
    // After 2024-03: q10-q29 (20 items); w/a right on all but q28, q29.
    assert.deepEqual([a.after_cutoff!.items, a.after_cutoff!.parsed, a.after_cutoff!.k], [20, 20, 18]);
    const b = doc.models.find((m) => m.model === 'w/b')!;
    // After 2024-05-15: q14-q29 (16 items; q10-q13, of 2024-05, are not after the 15th).
    assert.deepEqual([b.after_cutoff!.items, b.after_cutoff!.k, b.after_cutoff!.accuracy], [16, 6, 6 / 16]);
    const c = doc.models.find((m) => m.model === 'w/c')!;
    assert.equal(c.knowledge_cutoff, null);
    assert.equal(c.after_cutoff, null);
    assert.match(c.cutoff_reason!, /does not state one/);

    const ab = doc.pairs.find((p) => p.first === 'w/a' && p.second === 'w/b')!;
    // The window: q14-q29. b = q20-q27 (w/a right, w/b wrong) = 8, c = 0, a = q14-q19 = 6, both wrong q28, q29.
    assert.deepEqual([ab.later_cutoff, ab.n_pairs, ab.a, ab.b, ab.c], ['2024-05-15', 16, 6, 8, 0]);
    assert.equal(ab.p, 2 / 2 ** 8);
    assert.equal(ab.p_holm, 2 / 2 ** 8); // m = 1: the only pair tested in a window
    assert.equal(ab.state, 'SEPARATED');
    assert.equal(ab.better, 'w/a');
    assert.equal(ab.difference, 0.5);
    assert.equal(doc.m, 1);
    for (const p of doc.pairs.filter((x) => x.first === 'w/c' || x.second === 'w/c')) {
      assert.equal(p.state, 'UNTESTED');
      assert.equal(p.reason, 'no knowledge cutoff for w/c: no window to test');
      assert.equal(p.n_pairs, undefined);
    }
    // The lead: w/a (rank 1) against w/b, whole axis b = q12, q13, q20-q27, q30 = 11, c = 0 over 31.
    assert.equal(doc.leader, 'w/a');
    const row = doc.lead[0]!;
    assert.deepEqual([row.model, row.rank, row.full.n_pairs, row.full.difference], ['w/b', 2, 31, 11 / 31]);
    assert.deepEqual([row.window.n_pairs, row.window.difference, row.window.state], [16, 0.5, 'SEPARATED']);
    assert.equal(doc.lead[1]!.window.state, 'UNTESTED');
    assert.match(
      doc.summary,
      /^w\/a against w\/b \(rank 2\) on the 16 items dated after both knowledge cutoffs \(after 2024-05-15\)/,
    );
    assert.match(doc.summary, /\+50\.0 points/);
    assert.match(doc.summary, /\+35\.5 points over 31 items \(SEPARATED\)/);
  });

  it('orients each lead row as the leader minus the other model, and the window is after the later cutoff', () => {
    const rows = workedRows().map((r) => (r.model === 'w/c' ? { ...r, right: true } : r));
    const doc = docOf(rows, [...workedCards.slice(0, 2), { model: 'w/c', knowledge_cutoff: '2024-01' }]);
    assert.equal(doc.leader, 'w/c');
    const vsA = doc.lead.find((r) => r.model === 'w/a')!;
    // w/c right everywhere, w/a wrong on q28, q29: d = +2/31 on the axis, +2/20 after 2024-03 (q10-q29).
    assert.deepEqual([vsA.full.difference, vsA.window.difference, vsA.window.n_pairs], [2 / 31, 2 / 20, 20]);
    const [lo, hi] = vsA.window.difference_interval!;
    assert.ok(lo < 0.1 && 0.1 < hi, `${lo} < 0.1 < ${hi}`);
  });

  it('holds the window family apart: Holm over the public pairs tested in windows only, an own pair unadjusted', () => {
    const rows = workedRows();
    // Every model dated and carded: three pairs, one of them with an own model.
    const cards: ModelCard[] = [
      { model: 'w/a', knowledge_cutoff: '2023-06' },
      { model: 'w/b', knowledge_cutoff: '2023-06' },
      { model: 'w/c', knowledge_cutoff: '2023-06' },
    ];
    const doc = docOf(rows, cards, ['w/c']);
    const tested = doc.pairs.filter((p) => !p.own && p.state !== 'UNTESTED');
    assert.equal(doc.m, tested.length);
    assert.equal(doc.m, 1);
    assert.deepEqual(
      tested.map((p) => p.p_holm),
      holmAdjust(tested.map((p) => p.p!)),
    );
    for (const p of doc.pairs.filter((x) => x.own)) assert.equal(p.p_holm, null);
    const four: ModelCard[] = [...cards, { model: 'w/d', knowledge_cutoff: '2023-06' }];
    const more = [...rows, ...rows.filter((r) => r.model === 'w/b').map((r) => ({ ...r, model: 'w/d' }))];
    const d2 = docOf(more, four);
    const fam = d2.pairs.filter((p) => !p.own && p.state !== 'UNTESTED');
    assert.equal(d2.m, 6);
    assert.deepEqual(
      fam.map((p) => p.p_holm),
      holmAdjust(fam.map((p) => p.p!)),
    );
  });

  it('is UNTESTED, never clean, without item dates: every pair and the summary say so', () => {
    const rows = workedRows().map(({ date: _, ...r }) => r);
    const doc = docOf(rows, workedCards);
    assert.deepEqual([doc.dated_items, doc.date_range, doc.dates_reason, doc.m], [0, null, NO_DATES, 0]);
    for (const p of doc.pairs) {
      assert.equal(p.state, 'UNTESTED');
      assert.equal(p.n_pairs, undefined);
    }
    assert.ok(doc.pairs.some((p) => p.reason === NO_DATES));
    for (const m of doc.models) assert.equal(m.after_cutoff, null);
    assert.match(doc.summary, /^No item dates on this axis/);
    assert.doesNotMatch(doc.summary, /points/);
  });

  it('is UNTESTED without cards at all, naming both models; the leader without a cutoff is said in the summary', () => {
    const doc = docOf(workedRows(), []);
    assert.equal(
      doc.pairs.find((p) => p.first === 'w/a' && p.second === 'w/b')!.reason,
      'no knowledge cutoff for w/a or w/b: no window to test',
    );
    assert.match(doc.models[0]!.cutoff_reason!, /no card in models\.json/);
    assert.equal(doc.m, 0);
    assert.match(doc.summary, /^No knowledge cutoff for w\/a \(the leader\)/);
  });

  it('is UNTESTED when the window is empty, and inherits a refusal of the whole axis', () => {
    const late: ModelCard[] = [
      { model: 'w/a', knowledge_cutoff: '2024-06' },
      { model: 'w/b', knowledge_cutoff: '2024-03' },
      { model: 'w/c', knowledge_cutoff: '2024-03' },
    ];
    const doc = docOf(workedRows(), late);
    const ab = doc.pairs.find((p) => p.first === 'w/a' && p.second === 'w/b')!;
    assert.equal(ab.state, 'UNTESTED');
    assert.equal(ab.later_cutoff, '2024-06');
    assert.equal(ab.reason, 'the window is empty: no item dated after 2024-06 (the later cutoff) was parsed by both');
    assert.deepEqual(doc.models[0]!.after_cutoff, { items: 0, parsed: 0, k: 0, accuracy: null, interval: null });
    // Item hashes differ on a paired item of w/a and w/b: refused on the whole axis, so in the window too.
    const hashed = workedRows().map((r) =>
      r.item === 'q20' ? { ...r, hash: (r.model === 'w/b' ? 'b' : 'a').repeat(64) } : r,
    );
    const h = docOf(hashed, workedCards);
    const hab = h.pairs.find((p) => p.first === 'w/a' && p.second === 'w/b')!;
    assert.equal(hab.state, 'UNTESTED');
    assert.match(hab.reason!, /^untested on the whole axis: item content hashes differ on 1 paired item/);
  });

  it('has no undefined member and no -0: its JSON parses back to itself (what in-process readers are given)', () => {
    const doc = docOf(workedRows(), workedCards);
    assert.deepEqual(JSON.parse(JSON.stringify(doc)), doc);
  });
});
