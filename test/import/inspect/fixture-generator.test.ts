/** bench/inspect-fixture.ts writes logs the reader (through yauzl) reads as Inspect's own. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeInspectEval } from '../../../bench/inspect-fixture.js';
import { tempDir } from '../../helpers/tmp.js';
import { boardCorrect, readRun } from './helpers.js';

describe('bench/inspect-fixture.ts', () => {
  for (const zip64 of [false, true])
    it(`50 samples${zip64 ? ' with the ZIP64 end records' : ''}: 50 rows, 40 correct, reported 0.8`, async () => {
      const log = writeInspectEval(join(tempDir(), 'synthetic.eval'), 50, zip64);
      assert.deepEqual([log.samples, log.correct], [50, 40]);
      const run = await readRun(log.path);
      assert.equal(run.rows.length, 50);
      assert.equal(run.rows.filter(boardCorrect).length, 40);
      for (const row of run.rows) assert.equal(boardCorrect(row), row.verdict?.correct);
      assert.equal(run.reported?.value, 0.8);
      assert.equal(new Set(run.rows.map((r) => r.item)).size, 50);
      assert.notDeepEqual(
        run.rows.slice(0, 5).map((r) => r.provenance.sample_id),
        [1, 2, 3, 4, 5],
        'written in shuffled order, as Inspect writes samples',
      );
    });
});
