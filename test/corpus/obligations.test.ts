import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { GspcError, CorpusProblem } from '../../src/core/errors.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { demoCopy, demoCorpus } from '../helpers/tmp.js';

const problemsOf = (dir: string): string[] => {
  try {
    readCorpus(dir);
    return [];
  } catch (e) {
    const problems = (e as GspcError).details?.problems as CorpusProblem[] | undefined;
    if (problems === undefined) throw e;
    return problems.map((p) => `${p.file} ${p.field}: ${p.reason}`);
  }
};

describe('obligations.json', () => {
  it('the demo offers four obligations; article-50 is EU-AI-ACT-50', () => {
    const c = readCorpus(demoCorpus);
    assert.deepEqual(
      c.obligations.map((o) => [o.id, o.control_id]),
      [
        ['article-50', 'EU-AI-ACT-50'],
        ['article-53', 'EU-AI-ACT-53'],
        ['dora', 'DORA-ICT-RISK'],
        ['cra', 'CRA-ANNEX-I'],
      ],
    );
    assert.ok(c.files.some((f) => f.path === 'obligations.json'));
  });

  it('refuses a duplicate id, an unknown axis, a wrong article-50 control and a missing field, all at once', () => {
    const dir = demoCopy();
    const file = join(dir, 'obligations.json');
    const list = JSON.parse(readFileSync(file, 'utf8'));
    list[0].control_id = 'EU-AI-ACT-5';
    list[1].id = 'dora';
    list[3].axes = ['no-such-axis'];
    writeFileSync(file, JSON.stringify(list, null, 2));
    assert.deepEqual(
      problemsOf(dir).sort(),
      [
        'obligations.json [0].control_id: article-50 is control EU-AI-ACT-50',
        "obligations.json [2].id: duplicate obligation id 'dora'",
        "obligations.json [3].axes[0]: 'no-such-axis' is not an axis of board.json",
      ].sort(),
    );
    delete list[0].honesty;
    writeFileSync(file, JSON.stringify(list, null, 2));
    assert.ok(problemsOf(dir).some((p) => p.startsWith('obligations.json') && p.includes('honesty')));
  });
});
