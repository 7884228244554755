/**
 * `gspc import` fills the per-item `tags` (issue 41 item 1) only from what the harness records:
 * lm-eval's `group_subtasks` of a group run tags each subtask's items with the subtask and the
 * groups above it (decision IT6). The real group run (negotiationtom, bytes unchanged) is
 * real-group-import.test.ts; here the MMLU results fixture is a run of one subject alone, under
 * no group, and the merge cases use a copy of the real COPA run whose results file is given the
 * `group_subtasks` lm-eval writes for its `super-glue-lm-eval-v1` group; the real files are
 * checked to give no tags. Rows of one item that disagree (within an import or with the corpus) are refused.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ImportedRow } from '../../src/import/imported.js';
import { groupTags } from '../../src/import/lm-eval/group-tags.js';
import { RowSpool } from '../../src/import/row-spool.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { fixturePath } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';
import { fixtureCopy, HF, importQuiet, lmEval, snapshot, SSH, SSH_RESULTS } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- corpus rows */
type Json = any;

const rowsOf = (corpus: string): Json[] =>
  readFileSync(join(corpus, 'peritem', 'copa.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

/** lm-eval's tree for its SuperGLUE group (lm_eval/tasks/super_glue), as `group_subtasks` writes it. */
const SUPER_GLUE = {
  'super-glue-lm-eval-v1': ['boolq', 'cb', 'copa', 'multirc', 'record', 'rte', 'wic', 'wsc'],
  copa: [],
};

/** A copy of a real COPA run whose results file records `group_subtasks`. */
function grouped(model: string, results: string, tree: unknown): string {
  const dir = fixtureCopy(model);
  const path = join(dir, results);
  const j = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  j.group_subtasks = tree;
  writeFileSync(path, JSON.stringify(j));
  return dir;
}

const hfResults = () => readdirSync(lmEval(HF)).find((f) => f.startsWith('results_'))!;

describe('gspc import: item tags from what the harness records', () => {
  it('groupTags: a subject of an MMLU group gets itself, its category and mmlu, nearest first', () => {
    const tree = {
      mmlu: ['mmlu_stem', 'mmlu_humanities'],
      mmlu_stem: ['mmlu_abstract_algebra', 'mmlu_anatomy'],
      mmlu_humanities: ['mmlu_philosophy'],
      mmlu_abstract_algebra: [],
    };
    assert.deepEqual(groupTags(tree, 'mmlu_abstract_algebra'), ['mmlu_abstract_algebra', 'mmlu_stem', 'mmlu']);
    assert.deepEqual(groupTags(tree, 'mmlu_philosophy'), ['mmlu_philosophy', 'mmlu_humanities', 'mmlu']);
    assert.equal(groupTags(tree, 'copa'), undefined, 'a task under no group');
    assert.equal(groupTags(undefined, 'mmlu_anatomy'), undefined, 'no group_subtasks');
    assert.deepEqual(groupTags({ a: ['b'], b: ['a'] }, 'a'), ['a', 'b'], 'a cycle ends');
  });

  it('the real MMLU results fixture (one subject run alone) records no group: no tags', () => {
    const j = JSON.parse(
      readFileSync(
        fixturePath('lm-eval', 'mmlu-abstract-algebra-results', 'results_2025-01-21T00-40-03.356274.json'),
        'utf8',
      ),
    ) as { group_subtasks: unknown };
    assert.deepEqual(j.group_subtasks, { mmlu_abstract_algebra: [] });
    assert.equal(groupTags(j.group_subtasks, 'mmlu_abstract_algebra'), undefined);
  });

  it('the real COPA runs record no group: their rows carry no tags', async () => {
    const corpus = join(tempDir(), 'plain');
    await importQuiet('lm-eval', [lmEval(SSH)], { into: corpus, asOf: '2026-10-01' });
    const rows = rowsOf(corpus);
    assert.ok(rows.length > 0);
    for (const r of rows) assert.equal(r.tags, undefined, r.item);
  });

  it('a run of a group: each item is tagged with its task and the groups above it; the corpus reads them', async () => {
    const corpus = join(tempDir(), 'grouped');
    await importQuiet('lm-eval', [grouped(SSH, SSH_RESULTS, SUPER_GLUE)], { into: corpus, asOf: '2026-10-01' });
    await importQuiet('lm-eval', [grouped(HF, hfResults(), SUPER_GLUE)], { into: corpus, asOf: '2026-10-01' });
    const rows = rowsOf(corpus);
    assert.equal(new Set(rows.map((r) => r.model)).size, 2);
    for (const r of rows) assert.deepEqual(r.tags, ['copa', 'super-glue-lm-eval-v1'], r.item);
    const table = readCorpus(corpus).tables.get('copa')!;
    assert.equal(table.facets.tagSets.length, 1);
    table.items.forEach((_, idx) => assert.deepEqual(table.facets.tagsOf(idx), ['copa', 'super-glue-lm-eval-v1']));
  });

  it('a second run that tags the items otherwise is refused at the corpus row, and nothing changes', async () => {
    const corpus = join(tempDir(), 'mixed');
    await importQuiet('lm-eval', [grouped(SSH, SSH_RESULTS, SUPER_GLUE)], { into: corpus, asOf: '2026-10-01' });
    const before = snapshot(corpus);
    await assert.rejects(
      importQuiet('lm-eval', [lmEval(HF)], { into: corpus, asOf: '2026-10-01' }),
      /peritem\/copa\.jsonl:1 copa\/\d+: the corpus has tags \["copa","super-glue-lm-eval-v1"\] and item_date null for this item .*the import has no tags and no item_date: rows of one item must agree/,
    );
    assert.deepEqual(snapshot(corpus), before);
  });

  it('a tag the corpus would refuse is refused at the sample', async () => {
    const long = 'g'.repeat(101);
    await assert.rejects(
      importQuiet('lm-eval', [grouped(SSH, SSH_RESULTS, { [long]: ['copa'] })], {
        into: join(tempDir(), 'long'),
        asOf: '2026-10-01',
      }),
      /samples_copa_[^:]+\.jsonl:1 copa\/\d+: tags .*tag 2 must be at most 100 characters/,
    );
    await assert.rejects(
      importQuiet('lm-eval', [grouped(SSH, SSH_RESULTS, { 'glue\u202e': ['copa'] })], {
        into: join(tempDir(), 'bidi'),
        asOf: '2026-10-01',
      }),
      /tag 2 must not contain control, bidirectional or invisible characters/,
    );
  });
});

describe('one import: rows of an item agree on tags and date', () => {
  const row = (model: string, tags?: string[], date?: string): ImportedRow => ({
    item: 'copa/7',
    model,
    gold: '0',
    label: '0',
    ...(tags !== undefined && { tags }),
    ...(date !== undefined && { item_date: date }),
    provenance: {
      harness: 'lm-eval',
      harness_version: null,
      task: 'copa',
      sample_id: 7,
      response: null,
      source_sha256: '0'.repeat(64),
    },
    at: `run-${model}.jsonl:3`,
  });

  it('takes the same set in any order, and refuses other tags, a missing date or a second precision at the row', () => {
    const spool = new RowSpool(tempDir(), 'copa');
    spool.add(row('a', ['x', 'y'], '2024-01'), '0', '{}');
    spool.add(row('b', ['y', 'x'], '2024-01'), '0', '{}');
    assert.equal(spool.facetOf('copa/7'), JSON.stringify([['x', 'y'], '2024-01']));
    const refused: [ImportedRow, RegExp][] = [
      [
        row('c', ['x'], '2024-01'),
        /run-c\.jsonl:3 copa\/7: tags \["x"\] and item_date "2024-01" differ from the tags \["x","y"\]/,
      ],
      [row('d', ['x', 'y']), /run-d\.jsonl:3 copa\/7: tags \["x","y"\] and item_date null differ/],
      [row('e', ['x', 'y'], '2024-01-01'), /run-e\.jsonl:3 .*item_date "2024-01-01" differ/],
      [row('f'), /run-f\.jsonl:3 copa\/7: no tags and no item_date differ/],
    ];
    for (const [r, re] of refused) assert.throws(() => spool.add(r, '0', '{}'), re);
    spool.file.discard();
  });
});
