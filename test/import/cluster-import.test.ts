/**
 * `gspc import --cluster <path>` (issue 29): each of the four readers writes the field the
 * operator names, read from the harness's own record of the item, as the row's `cluster`, on the
 * real fixtures; the served /api/models then gives clustered standard errors that a computation
 * in this test, from the written rows alone, reproduces. A record without the field, a cluster
 * that differs within an item, and a merge that would leave the axis clustered in part are
 * refused with the place, and write nothing.
 */
import assert from 'node:assert/strict';
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { demoApp } from '../helpers/app.js';
import { fixturePath } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';
import { HF, importQuiet, lmEval, snapshot, SSH } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- corpus rows and served JSON */
type Json = any;

function rowsOf(corpus: string): Json[] {
  const dir = join(corpus, 'peritem');
  return readdirSync(dir).flatMap((f) =>
    readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l)),
  );
}

const jsonl = (path: string): Json[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

describe('gspc import --cluster', () => {
  it('lm-eval: doc.question of each sample (COPA: cause or effect) is its cluster; /api/models reproduces from the rows', async () => {
    const corpus = join(tempDir(), 'copa');
    for (const m of [SSH, HF])
      await importQuiet('lm-eval', [lmEval(m)], { into: corpus, cluster: 'doc.question', asOf: '2026-10-01' });
    const rows = rowsOf(corpus);
    const samples = jsonl(join(lmEval(SSH), readdirSync(lmEval(SSH)).find((f) => f.startsWith('samples_'))!));
    const byDoc = new Map(samples.map((s) => [`copa/${s.doc_id}`, s.doc.question]));
    assert.ok(rows.length > 0);
    for (const r of rows) assert.equal(r.cluster, byDoc.get(r.item), r.item);
    assert.deepEqual([...new Set(rows.map((r) => r.cluster))].sort(), ['cause', 'effect']);

    const { app } = demoApp(corpus);
    const doc = (await app.inject('/api/models?axis=copa')).json() as Json;
    for (const m of doc.models) {
      const mine = rows.filter((r) => r.model === m.model && r.label !== null);
      const s = mine.map((r) => ((Array.isArray(r.gold) ? r.gold.includes(r.label) : r.gold === r.label) ? 1 : 0));
      const mean = s.reduce((a: number, b: number) => a + b, 0) / s.length;
      const sums = new Map<string, number>();
      mine.forEach((r, i) => sums.set(r.cluster, (sums.get(r.cluster) ?? 0) + s[i]! - mean));
      const clustered = Math.sqrt([...sums.values()].reduce((a, v) => a + v * v, 0)) / s.length;
      assert.equal(m.clusters, sums.size, `${m.model} clusters`);
      assert.ok(Math.abs(m.se - Math.sqrt((mean * (1 - mean)) / s.length)) < 1e-12, `${m.model} se`);
      assert.ok(
        Math.abs(m.se_clustered - clustered) < 1e-12,
        `${m.model} se_clustered ${m.se_clustered} vs ${clustered}`,
      );
    }
    // The axis page shows both standard errors as served, and says what two clusters are worth.
    const page = (await app.inject('/dashboard/axes/copa')).body;
    for (const m of doc.models) {
      const row = new RegExp(`<tr data-model="${m.model}"[\\s\\S]*?</tr>`).exec(page)![0];
      assert.ok(row.includes(`data-value="${m.se}"`) && row.includes(`data-value="${m.se_clustered}"`), m.model);
    }
    assert.match(page, /Clustered standard errors from 2 clusters\. With fewer than about 30 clusters/);
  });

  it('Every Eval Ever: metadata.subject of each instance', async () => {
    const rowsFile = join(tempDir(), 'demo_samples.jsonl');
    copyFileSync(fixturePath('every-eval-ever', 'demo_samples.jsonl'), rowsFile);
    const corpus = join(tempDir(), 'eee');
    await importQuiet('eee', [rowsFile], { into: corpus, asOf: '2026-01-01', cluster: 'metadata.subject' });
    const source = jsonl(rowsFile);
    const rows = rowsOf(corpus);
    assert.equal(rows.length, source.length);
    for (const r of rows) assert.equal(r.cluster, source.find((x) => x.sample_id === r.sample_id).metadata.subject);
  });

  it('HELM: instance.split of each request state', async () => {
    const corpus = join(tempDir(), 'helm');
    await importQuiet('helm', [fixturePath('helm', 'mmlu-philosophy-gpt2')], {
      into: corpus,
      asOf: '2026-01-01',
      cluster: 'instance.split',
    });
    const rows = rowsOf(corpus);
    assert.ok(rows.length > 0);
    for (const r of rows) assert.equal(r.cluster, 'test');
  });

  it('Inspect: a metadata field of each sample, a number written as its decimal text; a sample without it is refused at its place', async () => {
    const log = fixturePath('inspect', '2025-05-12T20-28-13-04-00_popularity.json');
    const samples = (JSON.parse(readFileSync(log, 'utf8')) as Json).samples as Json[];
    const numeric = join(tempDir(), 'numeric');
    await importQuiet('inspect', [log], {
      into: numeric,
      asOf: '2026-01-01',
      allowIncomplete: true,
      cluster: 'metadata.label_confidence',
    });
    const rows = rowsOf(numeric);
    assert.equal(rows.length, samples.length);
    for (const r of rows)
      assert.equal(
        r.cluster,
        String(samples.find((s) => String(s.id) === String(r.sample_id)).metadata.label_confidence),
      );
    // Only the first sample has metadata.nested.foo: the second is refused, by its place in the log.
    await assert.rejects(
      importQuiet('inspect', [log], {
        into: join(tempDir(), 'nested'),
        allowIncomplete: true,
        cluster: 'metadata.nested.foo',
      }),
      /popularity\.json!samples\[1\]: --cluster metadata\.nested\.foo: the record has no such field/,
    );
  });

  it('a record without the field is refused with its place, and nothing is written', async () => {
    const corpus = join(tempDir(), 'none');
    await assert.rejects(
      importQuiet('lm-eval', [lmEval(SSH)], { into: corpus, cluster: 'doc.passage_id' }),
      (e: Error) =>
        /samples_copa_[^:]+\.jsonl:1: --cluster doc\.passage_id: the record has no such field/.test(e.message),
    );
    assert.throws(() => readdirSync(corpus), /ENOENT/, 'the corpus directory was not left behind');
    await assert.rejects(
      importQuiet('lm-eval', [lmEval(SSH)], { into: corpus, cluster: 'doc' }),
      /--cluster doc: \{"premise".* is not a non-empty string or number/,
    );
    await assert.rejects(
      importQuiet('lm-eval', [lmEval(SSH)], { into: corpus, cluster: 'doc..x' }),
      /a path of 1 to 16/,
    );
  });

  it('a merge that would cluster an axis in part is refused, and the corpus is left as it was', async () => {
    const corpus = join(tempDir(), 'mixed');
    await importQuiet('lm-eval', [lmEval(SSH)], { into: corpus, asOf: '2026-10-01' });
    const before = snapshot(corpus);
    await assert.rejects(
      importQuiet('lm-eval', [lmEval(HF)], { into: corpus, cluster: 'doc.question' }),
      /peritem\/copa\.jsonl:1: this row of the corpus carries no cluster and the import gives clusters/,
    );
    assert.deepEqual(snapshot(corpus), before);
    // The other way round: a clustered corpus, an import without --cluster.
    const clustered = join(tempDir(), 'clustered');
    await importQuiet('lm-eval', [lmEval(SSH)], { into: clustered, asOf: '2026-10-01', cluster: 'doc.question' });
    await assert.rejects(
      importQuiet('lm-eval', [lmEval(HF)], { into: clustered }),
      /carries a cluster and the import gives none/,
    );
    // The same model again with another field: the items' clusters disagree.
    await assert.rejects(
      importQuiet('lm-eval', [lmEval(HF)], { into: clustered, cluster: 'doc.idx' }),
      /copa\/0: the corpus has cluster "effect" for this item, the import has "0"/,
    );
  });
});
