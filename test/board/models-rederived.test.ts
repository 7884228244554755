/**
 * `GET /api/models?axis=` re-derived by a reader who shares no code with src/ (issue 29): from
 * the published per-item rows alone (`/peritem/<axis>.jsonl`), grading label ∈ gold, an exact
 * binomial McNemar in BigInt, Holm by hand, Newcombe's method 10 from textbook Wilson bounds and
 * the power formulas, every number of every model-comparison axis of the demo; the letters by
 * their defining property. And the board is unchanged beside it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from '../../demo/generate.js';
import { demoApp } from '../helpers/app.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';
import { assertNotSeparatedRanges } from '../helpers/not-separated.js';
// The textbook statistics, written once for the re-derivations (no code of src/).
import { mcnemarP, wilson, Z } from '../helpers/slices-windows-rederive.js';

const { app } = demoApp();
const Z80 = 0.8416212335729143;

interface Row {
  item: string;
  model: string;
  gold: string | string[];
  label?: string | null;
  item_hash?: string;
  cluster?: string;
}
type Outcome = 'right' | 'wrong' | 'unparsed';

const get = async (url: string) => {
  const r = await app.inject({ url });
  assert.equal(r.statusCode, 200, url);
  return r;
};

const close = (a: number, b: number, what: string, tol = 1e-12) =>
  assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: served ${a}, re-derived ${b}`);

/** Re-derives every number of `/api/models?axis=` from the served per-item rows (module doc). */
async function rederive(app: FastifyInstance, axis: string): Promise<void> {
  const get = async (url: string) => {
    const r = await app.inject({ url });
    assert.equal(r.statusCode, 200, url);
    return r;
  };
  const manifest = (await get('/peritem/manifest.json')).json() as {
    files: { axis?: string; role: string; url: string }[];
  };
  const own = new Set<string>(
    (JSON.parse((await get('/peritem/board.json')).body) as { own_models: string[] }).own_models,
  );
  const def = (await get(`/peritem/axes/${axis}.json`)).json() as { own_models?: string[]; labels?: string[] };
  const rowsFile = manifest.files.find((f) => f.axis === axis && f.role === 'per-item-rows');
  const doc = (await get(`/api/models?axis=${axis}`)).json() as any;
  assert.equal(doc.schema, 'svc.gspc-models/0.4');
  // Run settings (issue 40): the published runs.json, when the corpus has one.
  const runsFile = manifest.files.find((f) => f.role === 'run-settings');
  const runOf = new Map<string, Record<string, any>>();
  if (runsFile)
    for (const { model, axis: a, ...settings } of (await get(runsFile.url)).json().runs as any[])
      if (a === axis) runOf.set(model, settings);
  for (const m of doc.models) assert.deepEqual(m.settings, runOf.get(m.model) ?? null, `${m.model} settings`);
  if (!rowsFile) {
    assert.ok(doc.pairs.every((p: any) => p.state === 'UNTESTED'));
    return;
  }
  const rows = (await get(rowsFile.url)).body
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Row);
  const owners = new Set([...own, ...(def.own_models ?? [])]);
  const outcome = new Map<string, Map<string, Outcome>>();
  // Each model's item_hash per item: a pair is refused on an item where its two models' differ.
  const hashes = new Map<string, Map<string, string>>();
  for (const r of rows) {
    const o: Outcome =
      r.label === null || r.label === undefined
        ? 'unparsed'
        : (Array.isArray(r.gold) ? r.gold.includes(r.label) : r.gold === r.label)
          ? 'right'
          : 'wrong';
    if (!outcome.has(r.model)) outcome.set(r.model, new Map());
    outcome.get(r.model)!.set(r.item, o);
    if (r.item_hash !== undefined) hashes.set(r.item, (hashes.get(r.item) ?? new Map()).set(r.model, r.item_hash));
  }
  const menu = new Set(def.labels ?? rows.flatMap((r) => (Array.isArray(r.gold) ? r.gold : [r.gold])));
  const refused = menu.size < 2;
  // A refused bank says why, and gives no figure of its meaningless 100% as a result (issue 39).
  assert.equal(doc.bank_state, refused ? 'REFUSED_ONE_LABEL_MENU' : undefined);
  if (refused) assert.match(doc.bank_reason, /fewer than two distinct labels.*100%/);
  const stats = [...outcome].map(([model, items]) => {
    const v = [...items.values()];
    const k = v.filter((x) => x === 'right').length;
    const parsed = v.filter((x) => x !== 'unparsed').length;
    return { model, own: owners.has(model), rows: v.length, k, parsed, unparsed: v.length - parsed };
  });
  const publicRanked = stats
    .filter((s) => !s.own && s.parsed > 0)
    .sort((x, y) => y.k * x.parsed - x.k * y.parsed || y.parsed - x.parsed || (x.model < y.model ? -1 : 1));
  assert.equal(doc.models.length, stats.length);
  for (const s of stats) {
    const m = doc.models.find((x: any) => x.model === s.model);
    assert.deepEqual([m.own, m.rows, m.k, m.parsed, m.unparsed], [s.own, s.rows, s.k, s.parsed, s.unparsed], s.model);
    if (refused || s.parsed === 0) {
      assert.deepEqual([m.accuracy, m.interval, m.rank, m.tie_groups], [null, null, null, []], s.model);
    } else {
      close(m.accuracy, s.k / s.parsed, `${s.model} accuracy`);
      wilson(s.k, s.parsed).forEach((e, i) => close(m.interval[i], e, `${s.model} interval ${i}`));
    }
    // Clustered standard errors (Miller 2024) where the rows carry clusters, and nowhere else.
    if (refused || !rows.some((r) => r.cluster !== undefined)) assert.equal('se_clustered' in m, false, s.model);
    else if (s.parsed > 0) {
      const mean = s.k / s.parsed;
      const sums = new Map<string, number>();
      for (const r of rows.filter((x) => x.model === s.model)) {
        const o = outcome.get(s.model)!.get(r.item)!;
        if (o !== 'unparsed') sums.set(r.cluster!, (sums.get(r.cluster!) ?? 0) + (o === 'right' ? 1 : 0) - mean);
      }
      close(m.se, Math.sqrt((mean * (1 - mean)) / s.parsed), `${s.model} se`);
      close(
        m.se_clustered,
        Math.sqrt([...sums.values()].reduce((a, v) => a + v * v, 0)) / s.parsed,
        `${s.model} se_clustered`,
      );
      assert.equal(m.clusters, sums.size, `${s.model} clusters`);
    }
    const r = publicRanked.findIndex((x) => x.model === s.model);
    assert.equal(m.rank, r === -1 || refused ? null : r + 1, `${s.model} rank`);
  }
  // Every pair of models with a parsed response, tested on the items both parsed.
  const withResult = stats.filter((s) => s.parsed > 0);
  assert.equal(doc.pairs.length, (withResult.length * (withResult.length - 1)) / 2);
  const family: { entry: any; p: number }[] = [];
  for (const entry of doc.pairs) {
    const alike = likeForLike(runOf.get(entry.first), runOf.get(entry.second));
    assert.equal(entry.like_for_like, alike.like, `${entry.first} ~ ${entry.second} like_for_like`);
    assert.deepEqual(entry.settings_differ, alike.like === false ? alike.differ : undefined);
    const eitherRecorded = runOf.has(entry.first) || runOf.has(entry.second);
    assert.deepEqual(entry.settings_unknown, alike.like === null && eitherRecorded ? alike.unknown : undefined);
    if (alike.like === false && !refused) {
      assert.equal(entry.state, 'UNTESTED');
      assert.match(entry.reason, /^not like for like: /);
      assert.equal(entry.p, undefined, 'a pair run unalike is not tested at all');
      continue;
    }
    const x = outcome.get(entry.first)!;
    const y = outcome.get(entry.second)!;
    let a = 0;
    let b = 0;
    let c = 0;
    let d = 0;
    let conflicts = 0;
    for (const [item, ox] of x) {
      const oy = y.get(item);
      if (ox === 'unparsed' || oy === undefined || oy === 'unparsed') continue;
      const hx = hashes.get(item)?.get(entry.first);
      const hy = hashes.get(item)?.get(entry.second);
      if (hx !== undefined && hy !== undefined && hx !== hy) conflicts++;
      if (ox === 'right' && oy === 'right') a++;
      else if (ox === 'right') b++;
      else if (oy === 'right') c++;
      else d++;
    }
    const n = a + b + c + d;
    if (refused || conflicts > 0 || n === 0) {
      assert.equal(entry.state, 'UNTESTED', `${entry.first} ~ ${entry.second}`);
      continue;
    }
    assert.deepEqual([entry.n_pairs, entry.a, entry.b, entry.c], [n, a, b, c]);
    close(entry.p, mcnemarP(b, c), `${entry.first} ~ ${entry.second} p`);
    close(entry.difference, (b - c) / n, 'd');
    // Newcombe method 10, from textbook Wilson bounds and the adjusted φ.
    const p1 = (a + b) / n;
    const p2 = (a + c) / n;
    const [l1, u1] = wilson(a + b, n);
    const [l2, u2] = wilson(a + c, n);
    const ad = a * d - b * c;
    const e = ad > n / 2 ? ad - n / 2 : ad >= 0 ? 0 : ad;
    const margins = (a + b) * (c + d) * (a + c) * (b + d);
    const phi = margins === 0 ? 0 : e / Math.sqrt(margins);
    const dd = (b - c) / n;
    const lo = dd - Math.sqrt(Math.max(0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2));
    const hi = dd + Math.sqrt(Math.max(0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2));
    close(entry.difference_interval[0], lo, 'newcombe lower', 1e-9);
    close(entry.difference_interval[1], hi, 'newcombe upper', 1e-9);
    // The power figures only where the normal approximation holds: b + c ≥ 20, and n_needed where
    // the items it projects hold 20 discordant ones (docs/methodology.md §9).
    const needed = ((Z + Z80) ** 2 * ((b + c) / n)) / dd ** 2;
    if (b + c < 20) {
      assert.deepEqual([entry.mdd, entry.n_needed], [null, null]);
      assert.ok(entry.mdd_reason && entry.n_needed_reason);
    } else {
      close(entry.mdd, (Z + Z80) * Math.sqrt((b + c) / n / n), 'mdd');
      assert.ok(entry.mdd > 0 && entry.mdd <= 1);
      if (b === c || needed * ((b + c) / n) < 20) assert.equal(entry.n_needed, null);
      else assert.equal(entry.n_needed, Math.ceil(needed), 'n_needed: whole items, rounded up');
    }
    if (owners.has(entry.first) || owners.has(entry.second)) assert.equal(entry.p_holm, null);
    else family.push({ entry, p: mcnemarP(b, c) });
  }
  // Holm by hand over the public tested pairs.
  assert.equal(doc.m, family.length);
  const sorted = [...family].sort((x, y) => x.p - y.p);
  let running = 0;
  sorted.forEach((f, i) => {
    running = Math.max(running, Math.min(1, (family.length - i) * f.p));
    close(f.entry.p_holm, running, 'p_holm');
    const sep = running < 0.05 && f.entry.b !== f.entry.c;
    assert.equal(f.entry.state, sep ? 'SEPARATED' : 'TIE');
    if (sep) assert.equal(f.entry.better, f.entry.b > f.entry.c ? f.entry.first : f.entry.second);
  });
  // UNTESTED public pairs, counted; with two or more public models and none tested, no letter,
  // range or group count is given at all (they would only say that nothing was compared).
  const publicPairs = doc.pairs.filter((p: any) => !p.own);
  assert.equal(doc.untested_pairs, publicPairs.filter((p: any) => p.state === 'UNTESTED').length);
  const nothingTested = !refused && publicRanked.length >= 2 && family.length === 0;
  if (nothingTested) {
    assert.equal(doc.groups, null);
    assert.match(doc.groups_reason, /^no public pair was tested \(/);
    for (const m of doc.models) assert.deepEqual([m.tie_groups, m.not_separated], [null, null], m.model);
  } else {
    // Letters: two public models share one exactly when their pair is not SEPARATED.
    const letters = new Map<string, string[]>(doc.models.map((m: any) => [m.model, m.tie_groups as string[]]));
    for (const entry of doc.pairs.filter((p: any) => !p.own && !refused)) {
      const share = letters.get(entry.first)!.some((l) => letters.get(entry.second)!.includes(l));
      assert.equal(share, entry.state !== 'SEPARATED', `${entry.first} ~ ${entry.second}`);
    }
    assert.equal(doc.groups, new Set([...letters.values()].flat()).size, 'groups: how many labels');
    assertNotSeparatedRanges(doc, refused);
  }
  // The leader's group: the rank-1 public model and every public model not SEPARATED from it.
  const leader = publicRanked[0]?.model;
  const separatedFromLeader = (m: string) =>
    doc.pairs.some(
      (p: any) =>
        p.state === 'SEPARATED' &&
        !p.own &&
        ((p.first === leader && p.second === m) || (p.second === leader && p.first === m)),
    );
  assert.deepEqual(
    doc.leader_group,
    refused || leader === undefined
      ? []
      : publicRanked.map((s) => s.model).filter((m) => m === leader || !separatedFromLeader(m)),
    'leader_group',
  );
  // Those whose pair with the leader is UNTESTED, never presented as a tie.
  const untestedWithLeader = (m: string) =>
    publicPairs.some(
      (p: any) =>
        p.state === 'UNTESTED' && ((p.first === leader && p.second === m) || (p.second === leader && p.first === m)),
    );
  assert.deepEqual(
    doc.leader_untested,
    doc.leader_group.filter((m: string) => untestedWithLeader(m)),
    'leader_untested',
  );
}

/** A value written with its keys sorted, at every depth: two settings are equal when these are. */
const written = (v: unknown): string =>
  JSON.stringify(v, (_, x) =>
    x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  );

/**
 * docs/methodology.md §12, read from the text: the harness, the shots and every generation and
 * template setting are compared; one recorded for both with different values: not like for like;
 * else one recorded for one side only, or a side with nothing recorded: unknown; else alike.
 */
function likeForLike(x: Record<string, any> | undefined, y: Record<string, any> | undefined) {
  const flat = (r: Record<string, any> | undefined) => {
    const out = new Map<string, string>();
    if (r === undefined) return out;
    if ('harness' in r) out.set('harness', written(r.harness));
    if ('shots' in r) out.set('shots', written(r.shots));
    for (const group of ['generation', 'template'])
      for (const [k, v] of Object.entries(r[group] ?? {})) out.set(`${group}.${k}`, written(v));
    return out;
  };
  const [fx, fy] = [flat(x), flat(y)];
  const names = [...new Set([...fx.keys(), ...fy.keys()])].sort();
  const differ = names.filter((k) => fx.has(k) && fy.has(k) && fx.get(k) !== fy.get(k));
  const unknown = names.filter((k) => fx.has(k) !== fy.has(k));
  const like = differ.length > 0 ? false : x === undefined || y === undefined || unknown.length > 0 ? null : true;
  return { like, differ, unknown };
}

describe('/api/models re-derived from the published rows alone', async () => {
  const board = (await get('/api/gspc')).json() as { axes: { axis: string; kind: string; status: string }[] };
  const axes = board.axes.filter((a) => a.kind === 'model-comparison' && a.status === 'MEASURED').map((a) => a.axis);

  it('the demo has model-comparison axes with rows', () => assert.ok(axes.length >= 10));

  for (const axis of axes) it(`axis ${axis}: every model and every pair`, () => rederive(app, axis));

  it('an unknown or deterministic-facts axis is a 404 naming the model-comparison axes; no axis is a 400', async () => {
    const nope = await app.inject({ url: '/api/models?axis=nope' });
    assert.equal(nope.statusCode, 404);
    assert.equal(nope.json().code, 'unknown_axis');
    assert.ok(nope.json().known.includes('governance'));
    assert.equal((await app.inject({ url: '/api/models' })).statusCode, 400);
  });
});

/**
 * The demo corpus with its `care` axis replaced by random rows: six public models of different
 * skill, the board's own model and an axis-level own model, gold lists, unparsed rows, missing
 * rows, and (in some seeds) items whose content hash differs between models.
 */
function randomCorpus(seed: number): string {
  const next = prng(seed);
  const dir = join(tempDir(), 'corpus');
  cpSync(demoCorpus, dir, { recursive: true });
  const models = ['r/alpha', 'r/beta', 'r/gamma', 'r/delta', 'r/eps', 'r/zeta', 'svc/sentinel-1', 'r/own-2'];
  const skill = new Map(models.map((m) => [m, 0.3 + next() * 0.65]));
  const labels = ['A', 'B', 'C'];
  const rows: string[] = [];
  const conflicts = seed % 2 === 0 ? 3 : 0;
  for (let i = 0; i < 120; i++) {
    const item = `care/${String(i).padStart(4, '0')}`;
    const gold = next() < 0.1 ? ['A', 'B'] : labels[Math.floor(next() * 3)]!;
    const hash = (i + 1).toString(16).padStart(64, '0');
    models.forEach((model, k) => {
      if (next() < 0.08) return; // no row for this model
      const right = next() < skill.get(model)!;
      const goldOne = Array.isArray(gold) ? gold[0]! : gold;
      const label =
        next() < 0.07
          ? null
          : right
            ? goldOne
            : labels.find((l) => !(Array.isArray(gold) ? gold : [gold]).includes(l))!;
      const item_hash = i < conflicts && k === 1 ? 'f'.repeat(64) : hash;
      // Odd seeds: items in passages of four (a shared context), as a reading benchmark has.
      const cluster = seed % 2 === 1 ? { cluster: `passage-${Math.floor(i / 4)}` } : {};
      rows.push(JSON.stringify({ item, model, gold, label, item_hash, ...cluster }));
    });
  }
  writeFileSync(join(dir, 'peritem', 'care.jsonl'), `${rows.join('\n')}\n`);
  // Seeds not divisible by 3 record how the models were run (issue 40): most alike, one 5-shot,
  // one at another temperature, one with no generation settings, one with nothing recorded.
  if (seed % 3 !== 0) {
    const runs = models
      .filter((m) => m !== 'r/delta')
      .map((model) => ({
        model,
        axis: 'care',
        harness: 'lm-eval',
        harness_version: next() < 0.5 ? '0.4.13' : '0.4.9',
        shots: model === 'r/gamma' && seed % 2 === 1 ? 5 : 0,
        ...(model !== 'r/eps' && {
          generation: { temperature: model === 'r/zeta' && seed % 2 === 0 ? 0.7 : 0, until: ['\n'] },
        }),
      }));
    writeFileSync(join(dir, 'runs.json'), JSON.stringify({ schema: 'svc.gspc-corpus-runs/1', runs }));
  }
  writeFileSync(
    join(dir, 'axes', 'care.json'),
    JSON.stringify({
      axis: 'care',
      family: 'behavioural',
      kind: 'model-comparison',
      status: 'MEASURED',
      title: 'Random',
      bench: 'random',
      task: 'random rows',
      dataset: 'random',
      labels,
      own_models: ['r/own-2'],
    }),
  );
  return dir;
}

describe('/api/models re-derived on random corpora (own models, gold lists, unparsed and missing rows, hash conflicts, clusters)', () => {
  for (const seed of [1, 2, 3, 4, 5, 6])
    it(`seed ${seed}`, async () => {
      const { app: random } = demoApp(randomCorpus(seed));
      await rederive(random, 'care');
      const doc = (await random.inject({ url: '/api/models?axis=care' })).json() as any;
      assert.ok(
        doc.models.some((m: any) => m.own && m.rank === null),
        'own models listed, unranked',
      );
      if (seed % 2 === 0)
        assert.ok(
          doc.pairs.some((p: any) => p.state === 'UNTESTED'),
          'hash conflicts refuse pairs',
        );
      if (seed % 3 !== 0) {
        const kinds = new Set(doc.pairs.map((p: any) => p.like_for_like));
        assert.deepEqual([...kinds].sort(), [false, null, true], 'like for like, not, and unknown pairs');
      } else assert.ok(doc.pairs.every((p: any) => p.like_for_like === null && !('settings_unknown' in p)));
      // The board: its leader and basis (the two best public models; care declares no base
      // models) are never tested when run unalike, and it says so when it cannot tell (RS4, RS5).
      const board = (await random.inject({ url: '/api/gspc?axis=care' })).json() as any;
      const row = board.axes[0];
      const ranked = doc.models.filter((m: any) => m.rank !== null).sort((x: any, y: any) => x.rank - y.rank);
      const [leader, basis] = [ranked[0], ranked[1]];
      const alike = likeForLike(leader.settings ?? undefined, basis.settings ?? undefined);
      if (alike.like === false) {
        assert.equal(row.separation, 'UNTESTED', `seed ${seed}`);
        assert.match(row.separation_basis, /^not like for like: /);
      } else assert.doesNotMatch(row.separation_basis ?? '', /not like for like/);
      const said = board.limitations.some((l: string) => l.startsWith('care: the run settings of'));
      assert.equal(said, alike.like === null && (leader.settings !== null || basis.settings !== null), `seed ${seed}`);
    });
});
