/**
 * Every view states the same thing of a refused bank (issue 28): a model-comparison axis whose
 * label menu has one label is, on the board, MEASURED with separation UNTESTED and bank_state
 * REFUSED_ONE_LABEL_MENU; the dashboard's table said UNTESTED while its plot said
 * REFUSED_ONE_LABEL_MENU. Both now say `UNTESTED · REFUSED_ONE_LABEL_MENU`, for the demo's
 * refused bank and for one imported from the real Every Eval Ever fixture.
 */
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { demoApp } from '../helpers/app.js';
import { fixturePath } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';
import { importQuiet } from '../import/helpers.js';

async function views(corpus?: string) {
  const { app } = demoApp(corpus);
  const board = (await app.inject({ url: '/api/gspc' })).json() as {
    axes: { axis: string; status: string; separation?: string; bank_state?: string }[];
  };
  const page = (await app.inject({ url: '/dashboard' })).body;
  const island = JSON.parse(
    /<script type="application\/json" id="dashboard-data">([\s\S]*?)<\/script>/.exec(page)![1]!,
  ) as {
    noResult: { axis: string; state: string }[];
  };
  const cell = (axis: string) =>
    new RegExp(`data-axis="${axis}"[\\s\\S]*?<td[^>]*data-field="separation"[^>]*>([\\s\\S]*?)</td>`)
      .exec(page)?.[1]
      ?.replace(/<[^>]+>/g, '')
      .trim();
  return { board, island, cell };
}

function assertOneStatement(v: Awaited<ReturnType<typeof views>>, axis: string) {
  const row = v.board.axes.find((a) => a.axis === axis)!;
  assert.deepEqual([row.status, row.separation, row.bank_state], ['MEASURED', 'UNTESTED', 'REFUSED_ONE_LABEL_MENU']);
  const words = `${row.separation} · ${row.bank_state}`;
  assert.equal(v.cell(axis), words, 'the table');
  assert.equal(v.island.noResult.find((r) => r.axis === axis)?.state, words, 'the plot');
}

describe('a refused one-label bank reads the same in every view', () => {
  it("the demo's detector-interop", async () => {
    assertOneStatement(await views(), 'detector-interop');
  });
  it('an axis imported from the Every Eval Ever fixture (a one-label menu)', async () => {
    // The instance rows alone: the fixture's aggregate (0.75) disagrees with its one row, which
    // the importer refuses (test/import/formats-e2e.test.ts).
    const rows = join(tempDir(), 'demo_samples.jsonl');
    copyFileSync(fixturePath('every-eval-ever', 'demo_samples.jsonl'), rows);
    const corpus = join(tempDir(), 'eee');
    await importQuiet('eee', [rows], { into: corpus, asOf: '2026-01-01' });
    const v = await views(corpus);
    const refused = v.board.axes.filter((a) => a.bank_state === 'REFUSED_ONE_LABEL_MENU');
    assert.equal(refused.length, 1);
    assertOneStatement(v, refused[0]!.axis);
  });
});
