/**
 * gspc import lm-eval on the real COPA pair (test/fixtures/README.md): two model directories
 * into one corpus, published, served, and read back from GET /api/gspc.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { demoApp } from '../helpers/app.js';
import { assertWilsonClose } from '../helpers/stats-vectors.js';
import { tempDir } from '../helpers/tmp.js';
import { HF, importQuiet, lmEval, SSH, SSH_SAMPLES, snapshot } from './helpers.js';

describe('gspc import lm-eval: the COPA pair', () => {
  it('imports both models, validates, publishes: 12/20 and 16/20, b = 2 / c = 6, p = 0.2890625, TIE', async () => {
    const corpus = join(tempDir(), 'corpus');
    const { result, out } = await importQuiet('lm-eval', [lmEval(SSH), lmEval(HF)], { into: corpus });
    assert.deepEqual(result.totals, { rows: 40, models: 2, items: 20, unparsed: 0 });
    assert.match(out, /harness reported acc 0\.6 over 20 = board 12\/20\n/);
    assert.match(out, /harness reported acc 0\.8 over 20 = board 16\/20\n/);
    assert.match(out, /rows 40, models 2, items 20, unparsed 0, refused 0\n/);
    assert.match(out, /board.json is a scaffold: edit issuer, doi and measured_on.date \(marked EDIT ME\)/);
    assert.match(out, /validate: ok \(1 axes, 40 per-item rows\)/);

    const def = JSON.parse(readFileSync(join(corpus, 'axes', 'copa.json'), 'utf8'));
    assert.deepEqual([def.kind, def.status, def.labels], ['model-comparison', 'MEASURED', ['0', '1']]);
    const board = JSON.parse(readFileSync(join(corpus, 'board.json'), 'utf8'));
    assert.deepEqual(board.axes, ['copa']);
    assert.match(board.issuer, /^EDIT ME/);
    assert.equal(board.as_of, '2026-10-02T06:15:40.543Z', 'the later run (results `date`)');
    assert.equal(readCorpus(corpus).tables.get('copa')!.rowCount, 40);

    const { app } = demoApp(corpus);
    const res = await app.inject({ method: 'GET', url: '/api/gspc' });
    assert.equal(res.statusCode, 200);
    const row = res.json().axes.find((a: { axis: string }) => a.axis === 'copa');
    const ev = row.separation_evidence;
    assert.deepEqual(
      [ev.leader.model, ev.leader.k, ev.leader.n, ev.next_best.model, ev.next_best.k, ev.next_best.n],
      ['hf-internal-testing/tiny-random-gpt2', 16, 20, 'sshleifer/tiny-gpt2', 12, 20],
    );
    // The board orients b/c on the leader: leader right/other wrong = 6 (the README's c, sshleifer
    // wrong), leader wrong/other right = 2 (the README's b: doc_id 15 and 16).
    assert.deepEqual([ev.paired_items, ev.b, ev.c, ev.p, ev.p_mid], [20, 6, 2, 0.2890625, 0.1796875]);
    assert.equal(row.separation, 'TIE');
    assert.equal(row.n, 20);
    [0.5839825677481064, 0.919342337420202].forEach((e, i) =>
      assertWilsonClose(ev.leader.interval[i], e, `leader ${i}`),
    );
    [0.38658150076225317, 0.781193467627183].forEach((e, i) =>
      assertWilsonClose(ev.next_best.interval[i], e, `next best ${i}`),
    );
  });

  it('writes every row with its provenance, label and gold as choice indices', async () => {
    const corpus = join(tempDir(), 'corpus');
    await importQuiet('lm-eval', [lmEval(SSH, SSH_SAMPLES)], { into: corpus });
    const rows = readFileSync(join(corpus, 'peritem', 'copa.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(rows.length, 20);
    assert.deepEqual(rows[0], {
      item: 'copa/0',
      model: 'sshleifer/tiny-gpt2',
      gold: '1',
      label: '0',
      item_hash: 'a324b0d0e55f9082c0342fa1f6228c5d97b857027a3eb0c102802705b8ccee67',
      harness: 'lm-eval',
      harness_version: '0.4.13',
      task: 'copa',
      sample_id: 0,
      filter: 'none',
      response: '[["-75.82633972167969","False"],["-86.52076721191406","False"]]',
      source_sha256: rows[0].source_sha256,
    });
    assert.match(rows[0].source_sha256, /^[0-9a-f]{64}$/);
    // doc_id 15 and 16 are the two items only sshleifer gets right.
    assert.deepEqual(
      rows
        .filter((r) => r.label === r.gold)
        .map((r) => r.sample_id)
        .filter((id) => id === 15 || id === 16),
      [15, 16],
    );
  });

  it('is idempotent: importing twice, or one model again, leaves every byte as it was', async () => {
    const corpus = join(tempDir(), 'corpus');
    await importQuiet('lm-eval', [lmEval(SSH), lmEval(HF)], { into: corpus });
    const once = snapshot(corpus);
    const again = await importQuiet('lm-eval', [lmEval(SSH), lmEval(HF)], { into: corpus });
    assert.deepEqual(snapshot(corpus), once);
    assert.deepEqual(
      again.result.axes.map((a) => [a.rows, a.added, a.replaced]),
      [[40, 0, 40]],
    );
    assert.equal(again.result.board, 'unchanged');
    await importQuiet('lm-eval', [lmEval(SSH)], { into: corpus });
    assert.deepEqual(snapshot(corpus), once, 'the first model re-imported alone is replaced in place');
  });

  it("an axis definition's stated n follows the items a re-import adds, and the summary says so", async () => {
    const corpus = join(tempDir(), 'corpus');
    await importQuiet('lm-eval', [lmEval(SSH)], { into: corpus });
    // The operator's corpus as an earlier, partial run left it: 15 of the 20 items, n stated.
    const rowsPath = join(corpus, 'peritem', 'copa.jsonl');
    writeFileSync(rowsPath, `${readFileSync(rowsPath, 'utf8').trimEnd().split('\n').slice(0, 15).join('\n')}\n`);
    const axisPath = join(corpus, 'axes', 'copa.json');
    writeFileSync(axisPath, JSON.stringify({ ...JSON.parse(readFileSync(axisPath, 'utf8')), n: 15 }, null, 2));
    assert.equal(readCorpus(corpus).tables.get('copa')!.rowCount, 15);

    const { result, out } = await importQuiet('lm-eval', [lmEval(SSH)], { into: corpus });
    assert.deepEqual(result.axes[0]!.n, { from: 15, to: 20 });
    assert.match(out, /axes\/copa\.json updated \(its n 15 → 20, the items the rows now have\)\n/);
    assert.equal(JSON.parse(readFileSync(axisPath, 'utf8')).n, 20);
    assert.equal(readCorpus(corpus).tables.get('copa')!.rowCount, 20, 'the corpus validates with the new n');

    const again = await importQuiet('lm-eval', [lmEval(SSH)], { into: corpus });
    assert.equal(again.result.axes[0]!.n, undefined, 'unchanged n: nothing to say');
    assert.doesNotMatch(again.out, /its n/);
  });

  it('a second model imported later adds its rows, paired by item: the same bytes as importing both at once', async () => {
    const both = join(tempDir(), 'both');
    await importQuiet('lm-eval', [lmEval(SSH), lmEval(HF)], { into: both });
    const stepwise = join(tempDir(), 'stepwise');
    await importQuiet('lm-eval', [lmEval(SSH)], { into: stepwise });
    const second = await importQuiet('lm-eval', [lmEval(HF)], { into: stepwise });
    assert.deepEqual(
      second.result.axes.map((a) => [a.rows, a.added, a.replaced]),
      [[40, 20, 0]],
    );
    assert.deepEqual(snapshot(stepwise), snapshot(both));
  });
});
