/**
 * `runs.json` checked against the rows it describes (decision RS10, docs/formats.md "runs.json"):
 * an entry whose harness or version contradicts what the model's rows record, whose `limit` is
 * below the items the model answered on one task, or whose date is after the corpus's `as_of` is
 * refused at file:line. Before, such an entry was accepted, and a hand-written `harness: "helm"`
 * for a model whose every row says lm-eval made its pairs UNTESTED ("not like for like"), taking
 * them out of the Holm family after the outcomes were known.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type CorpusProblem, formatProblem, GspcError } from '../../src/core/errors.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { demoCopy } from '../helpers/tmp.js';

const ATLAS = 'demo/atlas-70b';

/** The demo with `provenance(row, i)` merged into each governance row and `runs` as runs.json. */
function corpus(
  runs: Record<string, unknown>[],
  provenance: (row: Record<string, unknown>, i: number) => Record<string, unknown> = () => ({}),
): string {
  const dir = demoCopy();
  const path = join(dir, 'peritem/governance.jsonl');
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l, i) => {
      const row = JSON.parse(l) as Record<string, unknown>;
      return JSON.stringify({ ...row, ...provenance(row, i) });
    });
  writeFileSync(path, `${rows.join('\n')}\n`);
  const entries = runs.map((r) => ({ model: ATLAS, axis: 'governance', ...r }));
  writeFileSync(
    join(dir, 'runs.json'),
    `${JSON.stringify({ schema: 'svc.gspc-corpus-runs/1', runs: entries }, null, 2)}\n`,
  );
  return dir;
}

function problems(dir: string): string[] {
  try {
    readCorpus(dir);
    return [];
  } catch (e) {
    assert.ok(e instanceof GspcError && e.code === 'corpus_invalid', String(e));
    return (e.details!.problems as CorpusProblem[]).map(formatProblem);
  }
}

const lmEval = () => ({ harness: 'lm-eval', harness_version: '0.4.13', task: 'governance' });

describe('runs.json against the rows', () => {
  it('refuses a harness and a version the rows contradict, at the line of each field (the review case)', () => {
    const text = problems(corpus([{ harness: 'helm', harness_version: '9.9', date: '2020-01-01T00:00:00Z' }], lmEval));
    assert.equal(text.length, 2, text.join('\n'));
    assert.match(
      text[0]!,
      /^runs\.json:7 runs\.0\.harness: is 'helm' but peritem\/governance\.jsonl:1 records harness 'lm-eval' for 'demo\/atlas-70b'/,
    );
    assert.match(
      text[1]!,
      /^runs\.json:8 runs\.0\.harness_version: is '9\.9' but peritem\/governance\.jsonl:1 records harness_version '0\.4\.13'/,
    );
  });

  it('accepts settings that agree with the rows, and an Inspect row version read up to its "; log format"', () => {
    assert.deepEqual(problems(corpus([{ harness: 'lm-eval', harness_version: '0.4.13', limit: 400 }], lmEval)), []);
    const inspect = () => ({ harness: 'inspect', harness_version: '0.3.140; log format 2' });
    assert.deepEqual(problems(corpus([{ harness: 'inspect', harness_version: '0.3.140' }], inspect)), []);
    assert.equal(problems(corpus([{ harness: 'inspect', harness_version: '0.3.139' }], inspect)).length, 1);
  });

  it('one row that says otherwise is enough, and it is the one named', () => {
    const text = problems(
      corpus([{ harness: 'lm-eval' }], (row) =>
        row.model !== ATLAS ? {} : { harness: row.item === 'governance/0042' ? 'inspect' : 'lm-eval' },
      ),
    );
    assert.equal(text.length, 1);
    // Line 206 of the demo's governance rows is atlas's answer to governance/0042.
    assert.match(text[0]!, /peritem\/governance\.jsonl:206 records harness 'inspect'/);
  });

  it('compares nothing where the rows do not say the same thing: no harness fields, or rows imported from Every Eval Ever', () => {
    assert.deepEqual(problems(corpus([{ harness: 'helm', harness_version: '9.9' }])), []);
    // An EEE row's harness is the record format and its version the EEE schema's, not the run's.
    const eee = () => ({ harness: 'eee', harness_version: '0.2.2' });
    assert.deepEqual(problems(corpus([{ harness: 'lm-eval', harness_version: '0.4.9' }], eee)), []);
    // Another model's rows say nothing about atlas's run.
    const others = (row: Record<string, unknown>) => (row.model === ATLAS ? {} : lmEval());
    assert.deepEqual(problems(corpus([{ harness: 'helm' }], others)), []);
  });

  it('refuses a limit below the items answered on one task; a share (below 1) is not checked', () => {
    // atlas has 400 governance rows.
    const text = problems(corpus([{ limit: 3 }]));
    assert.deepEqual(text, [
      "runs.json:7 runs.0.limit: is 3 but 'demo/atlas-70b' has 400 rows on 'governance': a cap on items cannot be below the items answered",
    ]);
    assert.equal(problems(corpus([{ limit: 399.5 }])).length, 1);
    assert.deepEqual(problems(corpus([{ limit: 400 }])), []);
    assert.deepEqual(problems(corpus([{ limit: 0.05 }])), []);
    // Two tasks merged into one axis, 200 rows each: the limit caps each task.
    const twoTasks = (row: Record<string, unknown>) => ({
      task: Number(String(row.item).slice(-4)) % 2 === 0 ? 'gov-a' : 'gov-b',
    });
    assert.deepEqual(problems(corpus([{ limit: 200 }], twoTasks)), []);
    assert.match(problems(corpus([{ limit: 199 }], twoTasks))[0] ?? '', /has 200 rows on 'governance' of task 'gov-/);
  });

  it('refuses a run dated after the corpus as_of; as_of itself is fine', () => {
    const text = problems(corpus([{ date: '2026-11-01T00:00:01Z' }]));
    assert.deepEqual(text, [
      "runs.json:7 runs.0.date: is 2026-11-01T00:00:01Z, after the corpus's as_of 2026-11-01T00:00:00Z (board.json): a run cannot postdate the board it is on",
    ]);
    assert.deepEqual(problems(corpus([{ date: '2026-11-01T00:00:00Z' }])), []);
  });
});
