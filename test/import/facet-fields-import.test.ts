/**
 * `gspc import --tag-field <path>` and `--date-field <path>` (issue 41 item 1, decision IT7): the
 * field the operator names in the harness's own record of each item gives its tags or date, on
 * the real fixtures of three readers (Every Eval Ever's metadata.subject, HELM's instance.split,
 * lm-eval's doc.question); a record without the field, a value the corpus would refuse and a
 * date that is not `YYYY-MM-DD` or `YYYY-MM` are refused at the record's place, writing nothing.
 * No fixture records an item date, so the date case uses a copy of the real COPA samples with
 * a `doc.date` added to each line.
 */
import assert from 'node:assert/strict';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { fixturePath } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';
import { fixtureCopy, importQuiet, lmEval, SSH, SSH_SAMPLES } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- corpus rows */
type Json = any;

const jsonl = (path: string): Json[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
const rowsOf = (corpus: string): Json[] =>
  readdirSync(join(corpus, 'peritem')).flatMap((f) => jsonl(join(corpus, 'peritem', f)));

describe('gspc import --tag-field and --date-field', () => {
  it('Every Eval Ever: metadata.subject of each instance is its tag; the corpus reads it', async () => {
    const rowsFile = join(tempDir(), 'demo_samples.jsonl');
    copyFileSync(fixturePath('every-eval-ever', 'demo_samples.jsonl'), rowsFile);
    const corpus = join(tempDir(), 'eee');
    await importQuiet('eee', [rowsFile], { into: corpus, asOf: '2026-01-01', tagField: 'metadata.subject' });
    const source = jsonl(rowsFile);
    const rows = rowsOf(corpus);
    assert.equal(rows.length, source.length);
    for (const r of rows) assert.deepEqual(r.tags, [source.find((x) => x.sample_id === r.sample_id).metadata.subject]);
    const subjects = new Set(source.map((x) => x.metadata.subject));
    const c = readCorpus(corpus);
    const names = [...c.tables.values()].flatMap((t) => t.facets.tagNames);
    assert.deepEqual(new Set(names), subjects);
  });

  it("HELM: the scenario's subject is every item's tag; --tag-field instance.split adds the split", async () => {
    const plain = join(tempDir(), 'helm-plain');
    await importQuiet('helm', [fixturePath('helm', 'mmlu-philosophy-gpt2')], { into: plain, asOf: '2026-01-01' });
    const corpus = join(tempDir(), 'helm');
    await importQuiet('helm', [fixturePath('helm', 'mmlu-philosophy-gpt2')], {
      into: corpus,
      asOf: '2026-01-01',
      tagField: 'instance.split',
    });
    const [before, rows] = [rowsOf(plain), rowsOf(corpus)];
    assert.ok(rows.length > 0 && rows.length === before.length);
    for (const r of before) assert.deepEqual(r.tags, ['philosophy'], 'run_spec.json scenario_spec.args.subject');
    for (const r of rows) assert.deepEqual(r.tags, ['philosophy', 'test']);
  });

  it('lm-eval: a date field gives item_date, and the tag field its tags; the corpus reads both', async () => {
    const dir = fixtureCopy(SSH);
    const path = join(dir, SSH_SAMPLES);
    const dateOf = (id: number) => (id % 2 === 0 ? '2023-05' : '2024-02-29');
    const lines = jsonl(path).map((s) => JSON.stringify({ ...s, doc: { ...s.doc, date: dateOf(s.doc_id) } }));
    writeFileSync(path, `${lines.join('\n')}\n`);
    const corpus = join(tempDir(), 'dated');
    await importQuiet('lm-eval', [dir], {
      into: corpus,
      asOf: '2026-10-01',
      tagField: 'doc.question',
      dateField: 'doc.date',
    });
    const rows = rowsOf(corpus);
    assert.ok(rows.length > 0);
    const samples = new Map(jsonl(path).map((s) => [`copa/${s.doc_id}`, s]));
    for (const r of rows) {
      const s = samples.get(r.item);
      assert.deepEqual(r.tags, [s.doc.question], r.item);
      assert.equal(r.item_date, dateOf(s.doc_id), r.item);
    }
    const t = readCorpus(corpus).tables.get('copa')!;
    t.items.forEach((item, idx) => assert.equal(t.facets.dateOf(idx), dateOf(samples.get(item).doc_id)));
  });

  it('refuses a record without the field, a bad value and a bad path at the place, writing nothing', async () => {
    const corpus = join(tempDir(), 'none');
    const refused = async (o: { tagField?: string; dateField?: string }, re: RegExp) => {
      await assert.rejects(importQuiet('lm-eval', [lmEval(SSH)], { into: corpus, asOf: '2026-10-01', ...o }), re);
      assert.throws(() => readdirSync(corpus), /ENOENT/, 'the corpus directory was not left behind');
    };
    await refused(
      { tagField: 'doc.subject' },
      /samples_copa_[^:]+\.jsonl:1: --tag-field doc\.subject: the record has no such field/,
    );
    await refused({ tagField: 'doc' }, /--tag-field doc: \{"premise".*: tag 1 must be a non-empty string/);
    await refused(
      { dateField: 'doc.question' },
      /samples_copa_[^:]+\.jsonl:1: --date-field doc\.question: "(cause|effect)" must be a date, YYYY-MM-DD or YYYY-MM/,
    );
    await refused({ dateField: 'doc..x' }, /--date-field "doc\.\.x": a path of 1 to 16/);
  });

  it("refuses a fraction as a tag (IT9): a real Inspect log's label_confidence would be a slice per item", async () => {
    const log = fixturePath('inspect', '2025-05-12T20-28-13-04-00_popularity.json');
    const corpus = join(tempDir(), 'fraction');
    await assert.rejects(
      importQuiet('inspect', [log], {
        into: corpus,
        asOf: '2026-01-01',
        allowIncomplete: true,
        tagField: 'metadata.label_confidence',
      }),
      /--tag-field metadata\.label_confidence: 0\.\d+: is a fraction, a measurement rather than a category/,
    );
    assert.throws(() => readdirSync(corpus), /ENOENT/, 'nothing written');
  });
});
