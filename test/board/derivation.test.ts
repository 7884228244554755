import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBoard, cellKey, type BoardSource, type LiveState } from '../../src/core/board/board.js';
import { deriveComparisonRow } from '../../src/core/board/comparison-row.js';
import { deriveFactsRow } from '../../src/core/board/facts-row.js';
import { ItemTable } from '../../src/core/board/item-table.js';
import type { ModelComparisonAxis } from '../../src/core/board/model.js';
import { mcnemarExact, wilsonInterval } from '../../src/core/stats/index.js';

const def = (extra: Partial<ModelComparisonAxis> = {}): ModelComparisonAxis => ({
  axis: 'governance',
  family: 'f',
  kind: 'model-comparison',
  status: 'MEASURED',
  bench: 'b',
  task: 't',
  dataset: 'd',
  labels: ['A', 'B'],
  ...extra,
});

/** Builds a table from outcome strings: per model one char per item, 'c' correct, 'w' wrong, 'u' unparsed, '.' missing. */
function table(models: Record<string, string>, hashes?: Record<string, string[]>): ItemTable {
  const t = new ItemTable();
  for (const [model, outcomes] of Object.entries(models)) {
    [...outcomes].forEach((o, i) => {
      if (o === '.') return;
      const label = o === 'c' ? 'A' : o === 'w' ? 'B' : null;
      const h = hashes?.[model]?.[i];
      const err = t.add({ item: `i${i}`, model, gold: 'A', label, ...(h !== undefined && { item_hash: h }) }, i + 1);
      assert.equal(err, undefined);
    });
  }
  return t;
}

const live: LiveState = { signedCells: null, livingStamp: { verification_state: 'UNSIGNED' }, limitations: [] };

describe('model-comparison derivation', () => {
  it('leader, Wilson interval and exact McNemar against the best base model', () => {
    // leader 9/10, basis 3/10; b = 6 (leader right, basis wrong), c = 0.
    const d = deriveComparisonRow(def(), table({ L: 'ccccccccwc', M: 'cccwwwwwww' }), []);
    assert.equal(d.row.leader, 'L');
    assert.equal(d.row.accuracy, 0.9);
    assert.deepEqual(d.row.interval, wilsonInterval(9, 10));
    assert.equal(d.row.separation, 'SEPARATED');
    assert.equal(d.row.separation_p, mcnemarExact(6, 0).p);
    assert.deepEqual(
      [d.row.separation_evidence!.b, d.row.separation_evidence!.c, d.row.separation_evidence!.paired_items],
      [6, 0, 10],
    );
    assert.equal(d.row.separation_evidence!.next_best.model, 'M');
  });

  it('p ≥ 0.05 is a TIE, never a win', () => {
    const d = deriveComparisonRow(def(), table({ L: 'cccccw', M: 'cccwww' }), []);
    assert.equal(d.row.separation, 'TIE');
    assert.equal(d.row.leader, 'L');
  });

  it('unparsed responses are reported, never scored as wrong, and the paired test uses items both parsed', () => {
    const d = deriveComparisonRow(def(), table({ L: 'ccccuuuuuu', M: 'wwwwwwwwcc' }), []);
    // L: 4/4 parsed; M: 2/10. Paired items: 0..3 → b = 4, c = 0.
    assert.equal(d.row.accuracy, 1);
    assert.equal(d.row.separation_evidence!.paired_items, 4);
    assert.equal(d.row.separation_evidence!.b, 4);
    assert.equal(d.row.unparsed_rate, 6 / 20);
    assert.equal(d.row.separation, 'TIE'); // 4 discordant items can never separate
  });

  it('an own model at the top empties the public leader slot; ranking uses the other models', () => {
    const d = deriveComparisonRow(
      def({ own_models: ['OWN'] }),
      table({ OWN: 'cccccccccc', L: 'ccccccccww', M: 'ccwwwwwwww' }),
      [],
    );
    assert.equal('leader' in d.row, false);
    assert.equal(d.row.public_leader_state, 'EXCLUDED_OWN_MODEL');
    assert.equal(d.row.accuracy, 0.8);
    assert.equal(d.row.separation_evidence!.leader.model, 'L');
    assert.equal(d.notes.ownLeader, 'OWN');
  });

  it('an own model below the leader changes nothing; board-level own models count too', () => {
    const d = deriveComparisonRow(def(), table({ OWN: 'cccwwwwwww', L: 'ccccccccww', M: 'ccwwwwwwww' }), ['OWN']);
    assert.equal(d.row.leader, 'L');
    assert.equal(d.row.public_leader_state, undefined);
  });

  it('UNTESTED, never TIE: one public model, no base model, no rows, no shared parsed item, hash conflict', () => {
    assert.match(deriveComparisonRow(def(), table({ L: 'ccc' }), []).row.separation_basis!, /only one public model/);
    assert.match(
      deriveComparisonRow(def({ base_models: ['L'] }), table({ L: 'ccc', M: 'wcc' }), []).row.separation_basis!,
      /no base model besides the leader/,
    );
    const noRows = deriveComparisonRow(
      def({
        n: 10,
        results: [
          { model: 'L', correct: 8, parsed: 10, total: 10 },
          { model: 'M', correct: 5, parsed: 10, total: 10 },
        ],
      }),
      undefined,
      [],
    );
    assert.equal(noRows.row.separation, 'UNTESTED');
    assert.equal(noRows.row.accuracy, 0.8);
    assert.match(
      deriveComparisonRow(def(), table({ L: 'ccuu', M: 'uucw' }), []).row.separation_basis!,
      /no item was parsed by both/,
    );
    const conflict = deriveComparisonRow(
      def(),
      table(
        { L: 'cccccccccc', M: 'wwwwwwwwww' },
        { L: Array(10).fill('a'.repeat(64)), M: Array(10).fill('b'.repeat(64)) },
      ),
      [],
    );
    assert.equal(conflict.row.separation, 'UNTESTED');
    assert.match(conflict.row.separation_basis!, /hashes differ/);
    for (const d of [noRows, conflict]) assert.equal(d.row.separation_p, undefined);
  });

  it("a third model's different item hash does not refuse the leader's pair: only the two models' own hashes count", () => {
    // L and M carry the same hashes; only OWN's row of item 0 has another. L against M is tested.
    const same = Array(12).fill('a'.repeat(64));
    const d = deriveComparisonRow(
      def({ own_models: ['OWN'] }),
      table(
        { L: 'cccccccccccc', M: 'wwwwwwwwwwww', OWN: 'cwwwwwwwwwww' },
        { L: same, M: same, OWN: ['b'.repeat(64), ...same.slice(1)] },
      ),
      [],
    );
    assert.equal(d.row.separation, 'SEPARATED', d.row.separation_basis);
    assert.equal(d.row.separation_evidence!.paired_items, 12);
    // Against OWN the one item is refused, in the singular.
    const own = deriveComparisonRow(
      def(),
      table({ L: 'cccccccccccc', OWN: 'wwwwwwwwwwww' }, { L: same, OWN: ['b'.repeat(64), ...same.slice(1)] }),
      [],
    );
    assert.match(own.row.separation_basis!, /on 1 paired item: the pairing is refused/);
  });

  it('a significant difference in favour of the basis on the shared items does not separate the leader', () => {
    // L: 30/40 parsed correct (0.75); M: 10/70 (0.14), so L leads. On the 10 items both parsed,
    // M is right and L wrong: b = 0, c = 10, p ≈ 0.002 — significant, but for the basis.
    const d = deriveComparisonRow(
      def(),
      table({
        L: 'c'.repeat(30) + 'w'.repeat(10) + 'u'.repeat(60),
        M: 'u'.repeat(30) + 'c'.repeat(10) + 'w'.repeat(60),
      }),
      [],
    );
    assert.equal(d.row.leader, 'L');
    assert.deepEqual([d.row.separation_evidence!.b, d.row.separation_evidence!.c], [0, 10]);
    assert.ok(d.row.separation_p! < 0.05);
    assert.equal(d.row.separation, 'TIE');
    assert.match(d.row.separation_basis!, /scored higher than the leader/);
  });

  it('a bank with a one-label menu is refused: no leader, no accuracy, UNTESTED', () => {
    const d = deriveComparisonRow(def({ labels: ['A'] }), table({ L: 'cccc', M: 'cccw' }), []);
    assert.equal(d.row.bank_state, 'REFUSED_ONE_LABEL_MENU');
    assert.equal(d.row.leader, undefined);
    assert.equal(d.row.accuracy, undefined);
    assert.equal(d.row.separation, 'UNTESTED');
    assert.equal(d.row.quotable, false);
  });

  it('quotable needs MEASURED, n ≥ 30 and an interval', () => {
    assert.equal(deriveComparisonRow(def(), table({ L: 'c'.repeat(29), M: 'w'.repeat(29) }), []).row.quotable, false);
    assert.equal(deriveComparisonRow(def(), table({ L: 'c'.repeat(30), M: 'w'.repeat(30) }), []).row.quotable, true);
    assert.equal(deriveComparisonRow(def({ status: 'DRAFT', n: 40 }), undefined, []).row.quotable, false);
  });

  it('non-MEASURED rows keep their n and carry no result', () => {
    const d = deriveComparisonRow(def({ status: 'UNMEASURED', n: 120 }), undefined, []);
    assert.equal(d.row.n, 120);
    for (const k of ['leader', 'accuracy', 'interval', 'separation'] as const) assert.equal(k in d.row, false);
  });
});

describe('facts rows', () => {
  it('evaluates predicates over the evidence and carries no leader, accuracy or separation', () => {
    const d = deriveFactsRow(
      {
        axis: 'provenance',
        family: 'p',
        kind: 'deterministic-facts',
        status: 'MEASURED',
        evidence: 'e.json',
        facts: [
          { id: 'a', claim: 'x', predicate: { op: 'equals', pointer: '/a/0', value: 1 } },
          { id: 'b', claim: 'x', predicate: { op: 'exists', pointer: '/missing' } },
          { id: 'c', claim: 'x', predicate: { op: 'matches', pointer: '/s~1t', pattern: '^v[0-9]$' } },
          { id: 'd', claim: 'x', predicate: { op: 'sha256', value: 'f'.repeat(64) } },
        ],
      },
      { path: '/evidence/provenance/e.json', sha256: 'f'.repeat(64), json: { a: [1], 's/t': 'v1' } },
    );
    assert.equal(d.row.facts_held, 3);
    assert.deepEqual(d.row.facts_failed, ['b']);
    assert.equal(d.row.evidence_url, '/evidence/provenance/e.json');
    for (const k of ['leader', 'accuracy', 'separation', 'interval'] as const) assert.equal(k in d.row, false);
  });
});

describe('board assembly', () => {
  const source = (): BoardSource => ({
    meta: {
      issuer: 'i',
      doi: 'd',
      as_of: '2026-11-01T00:00:00Z',
      measured_on: { model: 'm', date: 'd', grading: 'g' },
      own_models: [],
      limitations: ['stated'],
    },
    axes: [
      deriveComparisonRow(def(), table({ L: 'ccccccccwc', M: 'cccwwwwwww' }), []),
      deriveComparisonRow(def({ axis: 'safety', status: 'PLANNED', n: 7 }), undefined, []),
    ],
    lane: [{ id: 'x', lane: 'human-vs-ai', title: 't' }],
    peritem: { sha256: '0'.repeat(64), rows: 20 },
  });

  it('a leader without a signed card loses its key when the live state has a card layer', () => {
    const withCard = buildBoard(source(), null, { ...live, signedCells: new Set([cellKey('L', 'governance')]) });
    assert.equal(withCard.axes[0]!.leader, 'L');
    const without = buildBoard(source(), null, { ...live, signedCells: new Set() });
    assert.equal('leader' in without.axes[0]!, false);
    assert.equal(without.axes[0]!.public_leader_state, 'NO_SIGNED_CARD');
    assert.ok(without.axes[0]!.leader_card_state);
  });

  it('totals are computed over the selection; in-lane entries are never counted', () => {
    const all = buildBoard(source(), null, live);
    assert.equal(all.totals.axes, 2);
    assert.equal(all.totals.items, 17);
    assert.equal(all.totals.public_count, '2 axis · 1 measured');
    const one = buildBoard(source(), 'safety', live);
    assert.deepEqual([one.totals.axes, one.totals.items, one.totals.measured_axes], [1, 7, 0]);
    assert.equal(one.measured_in_lane.length, 1);
    assert.equal(all.limitations[0], 'stated');
  });

  it('serialises with no undefined-valued keys and in a stable order', () => {
    const text = JSON.stringify(buildBoard(source(), null, live));
    const reparsed = JSON.stringify(JSON.parse(text));
    assert.equal(text, reparsed);
    const keys = Object.keys(buildBoard(source(), null, live).axes[0]!);
    assert.deepEqual(keys.slice(0, 4), ['axis', 'family', 'kind', 'bench']);
    for (const row of buildBoard(source(), null, live).axes)
      for (const [k, v] of Object.entries(row)) assert.notEqual(v, undefined, k);
  });
});
