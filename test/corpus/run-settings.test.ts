/**
 * `runs.json` (issue 40, item 2: run settings): the schema accepts what docs/formats.md says and
 * refuses the rest at file:line with the corpus's other problems; and what the settings do:
 * models run with settings that change the task are never compared (UNTESTED on the board and
 * in /api/models, outside the Holm family), and settings that cannot be compared are said aloud
 * (docs/methodology.md §12, decisions RS3-RS5).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { CorpusProblem, GspcError } from '../../src/core/errors.js';
import { formatProblem } from '../../src/core/errors.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { dirSource } from '../../src/verify/release-source.js';
import { verifyRelease } from '../../src/verify/release-verifier.js';
import { demoApp } from '../helpers/app.js';
import { demoCopy } from '../helpers/tmp.js';

const problemsOf = (dir: string): string[] => {
  try {
    readCorpus(dir);
    return [];
  } catch (e) {
    const problems = (e as GspcError).details?.problems as CorpusProblem[] | undefined;
    if (problems === undefined) throw e;
    return problems.map(formatProblem);
  }
};

/** A copy of the demo corpus with `runs` as its runs.json (pretty-printed: one field a line). */
function withRuns(runs: unknown[], extra: Record<string, unknown> = {}): string {
  const dir = demoCopy();
  writeFileSync(
    join(dir, 'runs.json'),
    `${JSON.stringify({ schema: 'svc.gspc-corpus-runs/1', runs, ...extra }, null, 2)}\n`,
  );
  return dir;
}

const run = (model: string, fields: Record<string, unknown>) => ({ model, axis: 'governance', ...fields });

describe('runs.json', () => {
  it('is optional: the demo has none and no column carries settings', () => {
    const c = readCorpus(demoCopy());
    assert.deepEqual(c.runSettings, []);
    assert.ok([...c.tables.values()].every((t) => [...t.columns.values()].every((col) => col.settings === undefined)));
  });

  it('accepts every field, keeps absent ones absent, and gives each model its settings on its axis only', () => {
    const full = run('demo/atlas-70b', {
      harness: 'lm-eval',
      harness_version: '0.4.13',
      date: '2026-10-01T23:15:14Z',
      shots: 5,
      limit: 400,
      generation: { temperature: 0, until: ['\n'], do_sample: false },
      template: { description: 'Answer with a letter.', nested: { a: [1, null] } },
    });
    const c = readCorpus(withRuns([run('demo/borealis-34b', { shots: 0 }), full]));
    assert.deepEqual(c.runSettings, [run('demo/borealis-34b', { shots: 0 }), full]);
    assert.deepEqual(Object.keys(c.runSettings[0]!), ['model', 'axis', 'shots']);
    const { model: _m, axis: _a, ...settings } = full;
    assert.deepEqual(c.tables.get('governance')!.columns.get('demo/atlas-70b')!.settings, settings);
    assert.equal(c.tables.get('safety')?.columns.get('demo/atlas-70b')?.settings, undefined);
    assert.ok(c.files.some((f) => f.path === 'runs.json'));
  });

  it('refuses wrong values, unknown keys, a second entry and a model without rows on the axis, at file:line', () => {
    const problems = problemsOf(
      withRuns([
        run('demo/atlas-70b', { shots: -1, limit: 0, date: '2026-10-01 23:15', colour: 'red' }),
        run('demo/borealis-34b', { generation: { temperature: 'x'.repeat(5000) } }),
        run('demo/borealis-34b', {}),
        run('demo/atlas-70B', {}),
        { model: 'demo/atlas-70b', axis: 'No Slug' },
      ]),
    );
    const text = problems.join('\n');
    assert.match(text, /runs\.json:\d+ runs\.0\.shots: must be at least 0/);
    assert.match(text, /runs\.json:\d+ runs\.0\.limit: must be above 0/);
    assert.match(text, /runs\.json:\d+ runs\.0\.date: must be an ISO 8601 UTC datetime ending in Z/);
    assert.match(text, /runs\.json:\d+ runs\.0: .*colour/);
    assert.match(text, /runs\.json:\d+ runs\.1\.generation: a value is longer than 4096 characters/);
    assert.match(text, /runs\.json:\d+ runs\.4\.axis: must be a lower-case slug/);
    // Each value within 4,096 characters, the entry over 16,384: refused as a whole.
    const long = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((k) => [k, k.repeat(3500)]));
    assert.match(
      problemsOf(withRuns([run('demo/atlas-70b', { template: long })])).join('\n'),
      /runs\.json:\d+ runs\.0: an entry is longer than 16384 characters once written/,
    );
    // Schema problems come first; the entries are checked against the rows once the file reads.
    const second = problemsOf(
      withRuns([run('demo/borealis-34b', {}), run('demo/borealis-34b', {}), run('demo/atlas-70B', {})]),
    );
    assert.deepEqual(second, [
      "runs.json:9 runs.1: 'demo/borealis-34b' on 'governance' has settings already (runs.0): one entry per model and axis",
      "runs.json:13 runs.2: 'demo/atlas-70B' has no per-item rows on 'governance': settings are for a model's rows on an axis",
    ]);
  });
});

describe('models run unalike are never compared silently', () => {
  it('5-shot against 0-shot: the board leader and its basis are UNTESTED, the pair is out of the Holm family, the rest are flagged', async () => {
    const dir = withRuns([
      run('demo/atlas-70b', { harness: 'lm-eval', shots: 5 }),
      run('demo/borealis-34b', { harness: 'lm-eval', shots: 0 }),
      run('demo/cirrus-8b', { harness: 'lm-eval', shots: 0, harness_version: '0.4.9' }),
    ]);
    const { app, dir: release } = demoApp(dir);
    const board = (await app.inject({ url: '/api/gspc?axis=governance' })).json() as any;
    const row = board.axes[0];
    // gspc verify re-reads the release's corpus, runs.json included, and derives the same board.
    const report = await verifyRelease(dirSource(release));
    assert.ok(
      report.ok,
      report.checks
        .filter((c) => !c.ok)
        .map((c) => `${c.check}: ${c.detail}`)
        .join(' | '),
    );
    assert.equal(row.separation, 'UNTESTED');
    assert.equal(
      row.separation_basis,
      'not like for like: demo/atlas-70b and demo/borealis-34b were run with different settings (shots 5 against 0), so the pairing is refused',
    );
    assert.equal(row.separation_evidence, undefined, 'no test was run');
    assert.ok(
      board.limitations.some((l: string) => l.startsWith('governance: separation UNTESTED (not like for like')),
    );

    const doc = (await app.inject({ url: '/api/models?axis=governance' })).json() as any;
    const pair = (a: string, b: string) =>
      doc.pairs.find((p: any) => (p.first === a && p.second === b) || (p.first === b && p.second === a));
    const ab = pair('demo/atlas-70b', 'demo/borealis-34b');
    assert.equal(ab.state, 'UNTESTED');
    assert.equal(ab.like_for_like, false);
    assert.deepEqual(ab.settings_differ, ['shots']);
    assert.equal(ab.p_holm, undefined);
    assert.equal(pair('demo/atlas-70b', 'demo/cirrus-8b').state, 'UNTESTED');
    // The demo's governance family has 6 public pairs; the two refused ones are not in it.
    assert.equal(doc.m, 4);
    // Same harness and shots (the version is not compared): like for like.
    assert.equal(pair('demo/borealis-34b', 'demo/cirrus-8b').like_for_like, true);
    assert.equal(pair('demo/borealis-34b', 'demo/cirrus-8b').state, 'SEPARATED');
    // dune-8b-ft has nothing recorded: unknown, never like for like; tested and in the family.
    const bd = pair('demo/borealis-34b', 'demo/dune-8b-ft');
    assert.equal(bd.like_for_like, null);
    assert.deepEqual(bd.settings_unknown, ['harness', 'shots']);
    assert.equal(typeof bd.p_holm, 'number');
    assert.deepEqual(doc.models.find((m: any) => m.model === 'demo/cirrus-8b').settings, {
      harness: 'lm-eval',
      harness_version: '0.4.9',
      shots: 0,
    });
    assert.equal(doc.models.find((m: any) => m.model === 'demo/dune-8b-ft').settings, null);

    // Published beside the rows, in the manifest the board's hash covers.
    const manifest = (await app.inject({ url: '/peritem/manifest.json' })).json() as any;
    assert.ok(manifest.files.some((f: any) => f.url === '/peritem/runs.json' && f.role === 'run-settings'));
    assert.equal((await app.inject({ url: '/peritem/runs.json' })).statusCode, 200);
  });

  it('settings that agree change no figure: the board is the demo board but for the manifest hash, /api/models but for like_for_like and settings', async () => {
    const same = { harness: 'lm-eval', shots: 0, generation: { temperature: 0 } };
    const models = ['demo/atlas-70b', 'demo/borealis-34b', 'demo/cirrus-8b', 'demo/dune-8b-ft', 'svc/sentinel-1'];
    const [plain, alike] = [demoApp(demoCopy()), demoApp(withRuns(models.map((m) => run(m, same))))];
    const [a, b] = await Promise.all([plain, alike].map(async (s) => (await s.app.inject({ url: '/api/gspc' })).body));
    const rest = (t: string) => {
      const d = JSON.parse(t);
      d.measured_on.peritem_sha256 = '';
      d.site_attestation.sig = '';
      return JSON.stringify(d);
    };
    assert.notEqual(JSON.parse(a!).measured_on.peritem_sha256, JSON.parse(b!).measured_on.peritem_sha256);
    assert.equal(rest(a!), rest(b!));
    const [da, db] = await Promise.all(
      [plain, alike].map(async (s) => (await s.app.inject({ url: '/api/models?axis=governance' })).json()),
    );
    assert.ok(db.pairs.every((p: any) => p.like_for_like === true));
    for (const d of [da, db]) {
      for (const p of d.pairs) delete p.like_for_like;
      for (const m of d.models) delete m.settings;
    }
    assert.deepEqual(da, db);
  });

  it('settings recorded for the leader only: the separation is run, and the limitations say it assumes they were run alike', async () => {
    const { app } = demoApp(withRuns([run('demo/atlas-70b', { shots: 0 })]));
    const board = (await app.inject({ url: '/api/gspc?axis=governance' })).json() as any;
    assert.equal(board.axes[0].separation, 'SEPARATED');
    assert.ok(
      board.limitations.includes(
        'governance: the run settings of demo/atlas-70b and demo/borealis-34b cannot be compared (shots recorded for one of them only); the separation assumes they were run alike.',
      ),
    );
  });
});
