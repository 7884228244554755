/**
 * The every-model documents off the request path (issue 29): warming builds each
 * model-comparison axis's document once per release, one axis per turn of the event loop, and
 * stops when told; the tie groups the AG-UI state carries are those of GET /api/models.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { isBuilt, tieGroupsOf, warmModelsDocuments } from '../../src/serve/documents/models.js';
import { ServedState } from '../../src/serve/served-state.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

function demoState(): ServedState {
  const signing = testSigning();
  const { dir } = publishRelease(demoCorpus, tempDir(), signing.inputs);
  return new ServedState(loadRelease(dir), liveSigning(signing));
}

const comparisonAxes = (s: ServedState) =>
  s
    .current()
    .release.corpus.definitions.filter((d) => d.kind === 'model-comparison')
    .map((d) => d.axis);

describe('every-model documents built ahead of their readers', () => {
  it('warming builds every comparison axis once, not in the calling turn, and the route then serves those bytes', async () => {
    const state = demoState();
    const p = state.current();
    const axes = comparisonAxes(state);
    assert.ok(axes.length > 5);
    const warm = warmModelsDocuments(p);
    assert.deepEqual(
      axes.filter((a) => isBuilt(p, a)),
      [],
      'nothing is built in the turn that asked',
    );
    assert.equal(await warm.done, axes.length);
    assert.deepEqual(
      axes.filter((a) => !isBuilt(p, a)),
      [],
    );
    const app = buildApp({ state, logLevel: 'silent' });
    const r = await app.inject(`/api/models?axis=${axes[0]}`);
    assert.equal(r.statusCode, 200);
    assert.equal(JSON.parse(r.body).axis, axes[0]);
    await app.close();
  });

  it('a stopped warming builds nothing more', async () => {
    const state = demoState();
    const p = state.current();
    const warm = warmModelsDocuments(p);
    warm.stop();
    assert.equal(await warm.done, 0);
    assert.deepEqual(
      comparisonAxes(state).filter((a) => isBuilt(p, a)),
      [],
    );
  });

  it('the tie groups are each axis letters and public models as GET /api/models gives them', async () => {
    const state = demoState();
    const app = buildApp({ state, logLevel: 'silent' });
    const groups = tieGroupsOf(state.current());
    assert.deepEqual(Object.keys(groups), comparisonAxes(state));
    for (const axis of comparisonAxes(state)) {
      const doc = JSON.parse((await app.inject(`/api/models?axis=${axis}`)).body);
      const expected: Record<string, string[]> = {};
      for (const m of doc.models)
        if (!m.own) for (const l of m.tie_groups as string[]) expected[l] = [...(expected[l] ?? []), m.model];
      assert.deepEqual(
        groups[axis],
        {
          source: `/api/models?axis=${axis}`,
          m: doc.m,
          groups: expected,
          groups_total: doc.groups,
          leader_group: doc.leader_group,
        },
        axis,
      );
    }
    assert.ok(
      Object.values(groups).some((g) => Object.keys(g.groups).length >= 2),
      'the demo has two tie groups somewhere',
    );
    await app.close();
  });
});
