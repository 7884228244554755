/**
 * The every-model documents off the request path (issue 29): warming builds each
 * model-comparison axis's document once per release, not in the turn that asked, and stops when
 * told; the tie groups the AG-UI state carries are those of GET /api/models. A large axis is built
 * in slices that let other work run between them (issue 39), and its bytes are exactly
 * `JSON.stringify` of the document, whose frozen value in-process readers get.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { join } from 'node:path';
import { MANY_AXIS, writeManyModelsCorpus } from '../../bench/many-models.js';
import { buildApp, composeService } from '../../src/app.js';
import type { ModelComparisonAxis } from '../../src/core/board/model.js';
import { modelsDocument, type ModelsDocument, PAIRS_PER_STEP } from '../../src/core/board/models-document.js';
import { isBuilding, isBuilt, tieGroupsOf, warmModelsDocuments } from '../../src/serve/documents/models.js';
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
  it('a large axis: built in slices that let other callbacks run, bytes exactly JSON.stringify of the document, the same value in-process', async () => {
    const corpus = join(tempDir(), 'corpus');
    writeManyModelsCorpus(corpus, { models: 150, items: 200 });
    const signing = testSigning();
    const { dir } = publishRelease(corpus, tempDir(), signing.inputs);
    const state = new ServedState(loadRelease(dir), liveSigning(signing));
    const p = state.current();
    const def = p.release.corpus.definitions.find((d) => d.axis === MANY_AXIS)!;
    assert.equal(def.kind, 'model-comparison');
    const expected = modelsDocument(
      def as ModelComparisonAxis,
      p.release.corpus.tables.get(MANY_AXIS),
      p.release.corpus.meta.own_models,
    );
    assert.ok(expected.pairs.length > 2 * PAIRS_PER_STEP, `${expected.pairs.length} pairs: several steps and chunks`);
    // Other work gets turns while the document is built: callbacks queued after the read began.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const app = buildApp({ state, logLevel: 'silent' });
    const r = await app.inject(`/api/models?axis=${MANY_AXIS}`);
    ticking = false;
    assert.equal(r.statusCode, 200);
    assert.ok(turns > 2, `${turns} other callbacks ran while it was built`);
    assert.equal(r.body, JSON.stringify(expected), 'the bytes are JSON.stringify of the document');
    const { read } = composeService({ state });
    const inProcess = await read.documents.readPath(`/api/models?axis=${MANY_AXIS}`);
    assert.ok(inProcess.ok);
    assert.deepStrictEqual(inProcess.value, JSON.parse(r.body), 'the in-process value is the parsed bytes');
    assert.ok(Object.isFrozen((inProcess.value as unknown as ModelsDocument).pairs[0]), 'and frozen');
    await app.close();
  });

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

  it('a build that throws is dropped: the reader gets the error, the next one builds it again; warming does not reject', async () => {
    const state = demoState();
    const p = state.current();
    const axis = comparisonAxes(state)[0]!;
    const tables = p.release.corpus.tables as Map<string, unknown>;
    const table = tables.get(axis) as object;
    let throws = 1;
    // The first build to read the table's items fails (as running out of memory would).
    tables.set(
      axis,
      new Proxy(table, {
        get: (t, k, r) => {
          if (k === 'items' && throws-- > 0) throw new Error('injected failure');
          return Reflect.get(t, k, r);
        },
      }),
    );
    const warm = warmModelsDocuments(p);
    assert.equal(
      await warm.done,
      comparisonAxes(state).length - 1,
      'the failed axis is not counted, and done resolves',
    );
    assert.equal(isBuilt(p, axis), false);
    const app = buildApp({ state, logLevel: 'silent' });
    const r = await app.inject(`/api/models?axis=${axis}`);
    assert.equal(r.statusCode, 200, 'built again on the next read');
    assert.equal(JSON.parse(r.body).axis, axis);
    throws = 1;
    tables.set(axis, table);
    await app.close();
  });

  it('the AG-UI state of a large board waits for its documents without holding the event loop, and a key swap keeps them', async () => {
    const corpus = join(tempDir(), 'corpus');
    writeManyModelsCorpus(corpus, { models: 150, items: 200 });
    const signing = testSigning();
    const { dir } = publishRelease(corpus, tempDir(), signing.inputs);
    const state = new ServedState(loadRelease(dir), liveSigning(signing));
    const app = buildApp({ state, logLevel: 'silent' });
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const r = await app.inject({ method: 'GET', url: '/api/agui/gspc-state' });
    ticking = false;
    assert.equal(r.statusCode, 200);
    assert.match(r.body, /STATE_SNAPSHOT/);
    assert.ok(turns > 2, `${turns} other callbacks ran while its documents were built`);
    assert.ok(isBuilt(state.current(), MANY_AXIS));
    // New key health is a new PreparedRelease of the same corpus: the document is not rebuilt.
    state.setSigning(liveSigning(signing));
    assert.ok(isBuilt(state.current(), MANY_AXIS), 'kept across a swap of the same corpus');
    await app.close();
  });

  it('a warm-up stopped mid-build abandons it, unless a reader waits on it', async () => {
    const corpus = join(tempDir(), 'corpus');
    writeManyModelsCorpus(corpus, { models: 150, items: 200 });
    const signing = testSigning();
    const { dir } = publishRelease(corpus, tempDir(), signing.inputs);
    const state = new ServedState(loadRelease(dir), liveSigning(signing));
    const p = state.current();
    // Until its first slice ran (a build of 150 models takes many 10 ms slices).
    const started = async () => {
      while (!isBuilding(p, MANY_AXIS)) await new Promise((resolve) => setImmediate(resolve));
    };
    const alone = warmModelsDocuments(p);
    await started();
    alone.stop();
    assert.equal(await alone.done, 0);
    assert.equal(isBuilt(p, MANY_AXIS), false, 'abandoned: no second heap kept for a release no longer served');
    const app = buildApp({ state, logLevel: 'silent' });
    const withReader = warmModelsDocuments(p);
    await started();
    const read = app.inject(`/api/models?axis=${MANY_AXIS}`);
    withReader.stop();
    assert.equal((await read).statusCode, 200, 'the reader gets its document');
    assert.equal(isBuilt(p, MANY_AXIS), true);
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
        if (!m.own) for (const l of (m.tie_groups ?? []) as string[]) expected[l] = [...(expected[l] ?? []), m.model];
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
