/**
 * The bundled demo board: every case the demo is meant to show, an independent re-derivation
 * of every number from the published per-item rows (the reader's check in docs/methodology.md),
 * and a golden copy of the whole response.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { AxisRow } from '../../src/core/board/axis-row.js';
import { buildBoard, type BoardResponse, type LiveState } from '../../src/core/board/board.js';
import { SPEC_AXIS_SLUGS } from '../../src/core/board/model.js';
import { mcnemarExact, wilsonInterval } from '../../src/core/stats/index.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { deriveRelease } from '../../src/release/derive.js';
import { repoRoot } from '../helpers/repo.js';
import { demoCorpus } from '../helpers/tmp.js';

const derived = deriveRelease(readCorpus(demoCorpus));
// The board as derived from rows alone (no card layer): the signed board is tested in test/evidence.
const unsignedLiveState = (): LiveState => ({
  signedCells: null,
  livingStamp: { verification_state: 'UNSIGNED' },
  limitations: [],
});
const board: BoardResponse = buildBoard(derived.source, null, unsignedLiveState());
const row = (axis: string): AxisRow => board.axes.find((r) => r.axis === axis)!;

describe('demo board', () => {
  it('has all 22 specification slugs, every status and both kinds', () => {
    assert.deepEqual(board.axes.map((r) => r.axis).sort(), [...SPEC_AXIS_SLUGS].sort());
    assert.deepEqual(
      new Set(board.axes.map((r) => r.status)),
      new Set(['MEASURED', 'UNMEASURED', 'DRAFT', 'SPEC', 'PLANNED']),
    );
    assert.equal(board.schema, 'svc.gspc-axes/0.5');
    assert.match(board.issuer, /SYNTHETIC/);
    assert.ok(board.limitations.some((l) => /SYNTHETIC/.test(l)));
  });

  it('shows SEPARATED, TIE and UNTESTED for their reasons', () => {
    assert.equal(row('governance').separation, 'SEPARATED');
    assert.equal(row('safety').separation, 'TIE');
    assert.equal(row('care').separation, 'TIE');
    assert.match(row('continuity').separation_basis!, /no published per-item rows/);
    assert.match(row('distribution-integrity').separation_basis!, /only one public model/);
    assert.match(row('ai-adoption-components').separation_basis!, /no base model besides the leader/);
    for (const r of board.axes.filter((x) => x.separation === 'UNTESTED')) assert.equal(r.separation_p, undefined);
  });

  it('excludes the own-model leader, refuses the one-label bank, and does not quote n < 30', () => {
    const c = row('conformance');
    assert.equal('leader' in c, false);
    assert.equal(c.public_leader_state, 'EXCLUDED_OWN_MODEL');
    assert.equal(board.totals.own_leaders_excluded, 1);
    const d = row('detector-interop');
    assert.equal(d.bank_state, 'REFUSED_ONE_LABEL_MENU');
    assert.equal('leader' in d, false);
    assert.ok(board.limitations.some((l) => l.startsWith('detector-interop: refused')));
    assert.equal(row('cross-reality').quotable, false);
    assert.ok(board.limitations.some((l) => l.startsWith('cross-reality: n = 24')));
  });

  it('reports unparsed responses, deterministic facts, the jail classification and fleet aggregates', () => {
    assert.ok(row('care').unparsed_rate! > 0.1);
    const openness = row('openness');
    assert.deepEqual(openness.facts_failed, ['data-card-complete']);
    assert.equal(openness.evidence_url, '/evidence/openness/openness-declaration.json');
    const jail = row('jail');
    assert.equal(jail.per_model!.length, 5);
    for (const m of jail.per_model!) assert.equal(m.TP + m.FP + m.TN + m.FN + m.unparsed, 320);
    assert.ok(jail.macro_f1! > 0 && jail.fleet_mean! > 0);
    assert.ok(row('ai-adoption-components').mean_harm! > 0);
    assert.equal(board.measured_in_lane.length, 2);
  });

  it('totals agree with the rows', () => {
    const t = board.totals;
    assert.equal(t.axes, 22);
    assert.equal(
      t.items,
      board.axes.reduce((s, r) => s + r.n, 0),
    );
    assert.equal(t.measured_axes, board.axes.filter((r) => r.status === 'MEASURED').length);
    assert.equal(
      t.separated_leads + t.ties + t.untested_separations,
      board.axes.filter((r) => r.status === 'MEASURED' && r.kind === 'model-comparison').length,
    );
    assert.equal(t.public_count, `22 axis · ${t.measured_axes} measured`);
    assert.match(t.lid, new RegExp(`${t.separated_leads} separated leader`));
  });

  it('every number re-derives by hand from the published per-item rows', () => {
    const own = new Set(JSON.parse(readFileSync(join(demoCorpus, 'board.json'), 'utf8')).own_models as string[]);
    for (const r of board.axes) {
      const file = join(demoCorpus, 'peritem', `${r.axis}.jsonl`);
      if (!existsSync(file) || r.status !== 'MEASURED' || r.bank_state) continue;
      const rows = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { item: string; model: string; gold: string; label: string | null });
      const byModel = new Map<string, Map<string, boolean | null>>();
      for (const x of rows) {
        if (!byModel.has(x.model)) byModel.set(x.model, new Map());
        byModel.get(x.model)!.set(x.item, x.label === null ? null : x.label === x.gold);
      }
      const acc = (m: string) => {
        const v = [...byModel.get(m)!.values()].filter((x) => x !== null);
        return { k: v.filter(Boolean).length, n: v.length };
      };
      assert.equal(r.n, new Set(rows.map((x) => x.item)).size, r.axis);
      assert.equal(r.unparsed_rate, rows.filter((x) => x.label === null).length / rows.length, r.axis);
      const ev = r.separation_evidence;
      const leaderModel = ev?.leader.model ?? r.leader!;
      const leader = acc(leaderModel);
      assert.ok(!own.has(leaderModel));
      assert.equal(r.accuracy, leader.k / leader.n, r.axis);
      assert.deepEqual(r.interval, wilsonInterval(leader.k, leader.n));
      // The leader is the best public model.
      for (const m of byModel.keys())
        if (!own.has(m)) {
          const a = acc(m);
          assert.ok(a.k / a.n <= leader.k / leader.n, `${r.axis}: ${m} beats the leader`);
        }
      if (!ev) {
        assert.equal(r.separation, 'UNTESTED');
        continue;
      }
      let b = 0;
      let c = 0;
      for (const [item, x] of byModel.get(ev.leader.model)!) {
        const y = byModel.get(ev.next_best.model)!.get(item);
        if (x === null || y === null || y === undefined) continue;
        if (x && !y) b++;
        if (!x && y) c++;
      }
      assert.deepEqual([ev.b, ev.c], [b, c], r.axis);
      assert.equal(r.separation_p, mcnemarExact(b, c).p, r.axis);
      assert.equal(r.separation, mcnemarExact(b, c).p < 0.05 && b > c ? 'SEPARATED' : 'TIE', r.axis);
    }
  });

  it('matches the golden copy byte for byte (regenerate with GSPC_UPDATE_GOLDEN=1 after a deliberate change)', () => {
    const golden = join(repoRoot, 'test', 'golden', 'demo-board.json');
    const text = `${JSON.stringify(board, null, 2)}\n`;
    if (process.env.GSPC_UPDATE_GOLDEN === '1') writeFileSync(golden, text);
    assert.equal(text, readFileSync(golden, 'utf8'));
  });

  it('is deterministic: deriving twice gives the same bytes', () => {
    const again = buildBoard(deriveRelease(readCorpus(demoCorpus)).source, null, unsignedLiveState());
    assert.equal(JSON.stringify(again), JSON.stringify(board));
  });
});
