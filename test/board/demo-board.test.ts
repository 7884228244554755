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
import { demoCopy, demoCorpus } from '../helpers/tmp.js';

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
    rederiveByHand(demoCorpus, board);
  });

  it('every number re-derives by hand on a copy of the demo where some items accept a list of gold labels', () => {
    // jail (macro_f1, per-model counts) and ai-adoption-components (mean_harm): every fourth
    // item accepts its gold label and the next one of the menu, every fourth-plus-one has its
    // gold as a one-label list (still one gold class).
    const dir = demoCopy();
    let changed = 0;
    for (const axis of ['jail', 'ai-adoption-components']) {
      const labels = (JSON.parse(readFileSync(join(dir, 'axes', `${axis}.json`), 'utf8')) as { labels: string[] })
        .labels;
      const file = join(dir, 'peritem', `${axis}.jsonl`);
      const order = new Map<string, number>();
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => {
          const x = JSON.parse(l) as HandRow & { gold: string };
          if (!order.has(x.item)) order.set(x.item, order.size);
          const i = order.get(x.item)!;
          if (i % 4 === 0) {
            x.gold = [x.gold, labels[(labels.indexOf(x.gold) + 1) % labels.length]!] as unknown as string;
            changed++;
          } else if (i % 4 === 1) x.gold = [x.gold] as unknown as string;
          return JSON.stringify(x);
        });
      writeFileSync(file, `${lines.join('\n')}\n`);
    }
    assert.ok(changed > 0);
    const listed = buildBoard(deriveRelease(readCorpus(dir)).source, null, unsignedLiveState());
    const rows = rederiveByHand(dir, listed);
    assert.ok(rows.includes('jail') && rows.includes('ai-adoption-components'));
    // Gold lists change these numbers (so the check above is not vacuous).
    const at = (b: BoardResponse, axis: string) => b.axes.find((x) => x.axis === axis)!;
    assert.notEqual(at(listed, 'ai-adoption-components').fleet_mean, row('ai-adoption-components').fleet_mean);
    assert.notDeepEqual(at(listed, 'jail').per_model, row('jail').per_model);
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

type HandRow = { item: string; model: string; gold: string | string[]; label: string | null };

/** The one gold class of an item, or undefined when it accepts two or more distinct labels. */
const goldClass = (gold: string | string[]): string | undefined => {
  const distinct = new Set(Array.isArray(gold) ? gold : [gold]);
  return distinct.size === 1 ? [...distinct][0] : undefined;
};
const accepts = (gold: string | string[], label: string) =>
  Array.isArray(gold) ? gold.includes(label) : gold === label;
const meanOf = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const close = (a: number | undefined, b: number | undefined, what: string) => {
  assert.ok(a !== undefined && b !== undefined && Math.abs(a - b) < 1e-12, `${what}: served ${a}, by hand ${b}`);
};

/**
 * The reader's check of docs/methodology.md, written without the service's derivation: every
 * number of every MEASURED model-comparison row with per-item rows, from the corpus files.
 * Returns the axes it checked.
 */
function rederiveByHand(corpus: string, served: BoardResponse): string[] {
  const boardOwn = JSON.parse(readFileSync(join(corpus, 'board.json'), 'utf8')).own_models as string[];
  const checked: string[] = [];
  for (const r of served.axes) {
    const file = join(corpus, 'peritem', `${r.axis}.jsonl`);
    if (!existsSync(file) || r.status !== 'MEASURED' || r.bank_state) continue;
    checked.push(r.axis);
    const def = JSON.parse(readFileSync(join(corpus, 'axes', `${r.axis}.json`), 'utf8')) as {
      own_models?: string[];
      labels?: string[];
      fleet?: string[];
      harm_labels?: string[];
      positive_label?: string;
    };
    const own = new Set([...boardOwn, ...(def.own_models ?? [])]);
    const rows = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as HandRow);
    const byModel = new Map<string, Map<string, boolean | null>>();
    for (const x of rows) {
      if (!byModel.has(x.model)) byModel.set(x.model, new Map());
      byModel.get(x.model)!.set(x.item, x.label === null ? null : accepts(x.gold, x.label));
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
    const publicModels = [...byModel.keys()].filter((m) => !own.has(m) && acc(m).n > 0);
    for (const m of publicModels) {
      const a = acc(m);
      assert.ok(a.k / a.n <= leader.k / leader.n, `${r.axis}: ${m} beats the leader`);
    }

    // Fleet aggregates, over public models with a parsed response.
    const parsedRows = (m: string) => rows.filter((x) => x.model === m && x.label !== null);
    if (def.fleet?.includes('fleet_mean'))
      close(r.fleet_mean, meanOf(publicModels.map((m) => acc(m).k / acc(m).n)), `${r.axis} fleet_mean`);
    else assert.equal(r.fleet_mean, undefined);
    if (def.fleet?.includes('mean_harm')) {
      // Every parsed response, whatever its gold.
      const harm = new Set(def.harm_labels);
      const share = (m: string) => parsedRows(m).filter((x) => harm.has(x.label!)).length / parsedRows(m).length;
      close(r.mean_harm, meanOf(publicModels.map(share)), `${r.axis} mean_harm`);
    } else assert.equal(r.mean_harm, undefined);
    if (def.fleet?.includes('macro_f1')) {
      // Parsed responses to items with one gold class; labels with neither support nor predictions left out.
      const menu = def.labels ?? [...new Set(rows.flatMap((x) => (Array.isArray(x.gold) ? x.gold : [x.gold])))];
      const f1s: number[] = [];
      for (const m of publicModels) {
        const pairs = parsedRows(m).filter((x) => goldClass(x.gold) !== undefined);
        const perLabel: number[] = [];
        for (const l of new Set(menu)) {
          const tp = pairs.filter((x) => goldClass(x.gold) === l && x.label === l).length;
          const fp = pairs.filter((x) => goldClass(x.gold) !== l && x.label === l).length;
          const fn = pairs.filter((x) => goldClass(x.gold) === l && x.label !== l).length;
          if (2 * tp + fp + fn > 0) perLabel.push((2 * tp) / (2 * tp + fp + fn));
        }
        if (perLabel.length > 0) f1s.push(meanOf(perLabel));
      }
      if (f1s.length > 0) close(r.macro_f1, meanOf(f1s), `${r.axis} macro_f1`);
      else assert.equal(r.macro_f1, undefined);
    } else assert.equal(r.macro_f1, undefined);

    // Per-model classification counts (positive_label): items with one gold class; unparsed over all.
    const p = def.positive_label;
    if (p !== undefined) {
      const expected = [...byModel.keys()].sort().map((m) => {
        const pairs = parsedRows(m).filter((x) => goldClass(x.gold) !== undefined);
        const count = (gold: boolean, label: boolean) =>
          pairs.filter((x) => (goldClass(x.gold) === p) === gold && (x.label === p) === label).length;
        const [TP, FP, TN, FN] = [count(true, true), count(false, true), count(false, false), count(true, false)];
        return {
          model: m,
          own_model: own.has(m),
          TP,
          FP,
          TN,
          FN,
          unparsed: rows.filter((x) => x.model === m && x.label === null).length,
          precision: TP + FP === 0 ? null : TP / (TP + FP),
          recall: TP + FN === 0 ? null : TP / (TP + FN),
        };
      });
      assert.deepEqual(r.per_model, expected, r.axis);
    } else assert.equal(r.per_model, undefined);

    // The limitation naming the gold-list items that macro_f1 and the counts leave out.
    const lists = new Set(rows.filter((x) => goldClass(x.gold) === undefined).map((x) => x.item)).size;
    const sentence = served.limitations.find((l) => l.startsWith(`${r.axis}: `) && /list of gold labels/.test(l));
    const leftOutBy = [
      ...(def.fleet?.includes('macro_f1') ? ['macro_f1'] : []),
      ...(p !== undefined ? ['the per-model TP/FP/TN/FN'] : []),
    ];
    if (lists > 0 && leftOutBy.length > 0)
      assert.equal(
        sentence,
        `${r.axis}: ${lists} of ${r.n} items accept a list of gold labels; ${leftOutBy.join(' and ')} ${leftOutBy.length > 1 ? 'leave' : 'leaves'} them out (they need one gold class per item).`,
      );
    else assert.equal(sentence, undefined, r.axis);

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
  return checked;
}
