/**
 * Every agent answer stays within 64 kB at hundreds of models (issue 39: MCP gspc_axis answered
 * 6.8 MB at 200 models), and the rest is reachable: at 400 models on a classification axis (a
 * per_model list of 401 entries on the board's row, 80,200 pairs, more tie groups than letters can
 * carry), MCP gspc_axis and gspc_board, the A2A axis-lookup and board-summary and the AG-UI state
 * each fit; following gspc_axis's next_cursor from the first page to the last reads every model,
 * every pair and every per_model entry exactly once, each page within 64 kB; A2A pages the same
 * way by metadata "cursor"; a cursor that names no list is refused.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { a2aDeps, agentAnswerSizes, bytes, mcpTool } from '../../bench/agent-answers.js';
import { MANY_AXIS, writeManyModelsCorpus } from '../../bench/many-models.js';
import { composeService } from '../../src/app.js';
import type { ModelsDocument } from '../../src/core/board/models-document.js';
import { axisLookup } from '../../src/surfaces/a2a/board-answers.js';
import { aguiState } from '../../src/surfaces/agui/agui-routes.js';
import { ANSWER_MAX_BYTES } from '../../src/surfaces/answer-budget.js';
import { demoApp } from '../helpers/app.js';
import { tempDir } from '../helpers/tmp.js';
import { assertNotSeparatedRanges } from '../helpers/not-separated.js';

const MODELS = 400;

describe(`agent answers at ${MODELS} models`, async () => {
  const corpus = join(tempDir(), 'corpus');
  writeManyModelsCorpus(corpus, { models: MODELS, items: 400, positiveLabel: true });
  const { app, state } = demoApp(corpus);
  const ctx = composeService({ state, baseUrl: 'http://localhost:8080' }).read;
  const doc = (await app.inject({ url: `/api/models?axis=${MANY_AXIS}` })).json() as ModelsDocument;
  const row = (await app.inject({ url: `/api/gspc?axis=${MANY_AXIS}` })).json().axes[0] as {
    per_model: { model: string }[];
  };

  it('the axis is large: 401 per_model entries, 80,200 pairs, no letters past 702 groups', () => {
    assert.equal(row.per_model.length, MODELS + 1);
    assert.equal(doc.pairs.length, ((MODELS + 1) * MODELS) / 2);
    assert.equal(doc.groups, null);
    assert.match(doc.groups_reason!, /more than 702 tie groups/);
  });

  it('past 702 groups every public model still says which ranks it is not separated from (not_separated)', () => {
    assertNotSeparatedRanges(doc, false);
    const runs = doc.models.reduce((n, m) => n + (m.not_separated?.length ?? 0), 0);
    // About 4 ranges a model here (noise in which pairs separate splits the runs), where the
    // letters would need more than 702 groups: linear in the models, not in the groups.
    assert.ok(runs <= 8 * MODELS, `${runs} ranges for ${MODELS} models`);
  });

  it('MCP gspc_axis and gspc_board, A2A axis-lookup and board-summary, the AG-UI state: each within 64 kB', async () => {
    const sizes = await agentAnswerSizes(ctx, MANY_AXIS);
    for (const [what, size] of Object.entries(sizes)) assert.ok(size <= ANSWER_MAX_BYTES, `${what}: ${size} bytes`);
    // The AG-UI state says what it cut, and keeps whole groups and the leader's group.
    const s = JSON.parse(aguiState(state.current()).body.toString('utf8'));
    assert.ok(s.tie_groups[MANY_AXIS].leader_group_total >= 1);
    assert.equal(s.tie_groups[MANY_AXIS].groups_total, null);
  });

  it("following gspc_axis's next_cursor reads every model, pair and per_model entry once, each page within 64 kB", async () => {
    const tool = mcpTool('gspc_axis');
    const seen = { models: [] as string[], pairs: [] as string[], per_model: [] as string[] };
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const r = await tool.run({ axis: MANY_AXIS, ...(cursor && { cursor }) }, ctx);
      assert.notEqual(r.isError, true, JSON.stringify(r.structuredContent));
      assert.ok(bytes(r) <= ANSWER_MAX_BYTES, `page ${pages}: ${bytes(r)} bytes`);
      const sc = r.structuredContent as any;
      if (pages === 0) {
        // The first page: the lead and the leader's group are said, and the row is the board's but
        // for its per_model list, which comes page by page.
        const text = (r.content[0] as { text: string }).text;
        assert.match(text, /leads|trails|too few/);
        assert.match(text, /Not separated from the leader|Every other public model is separated/);
        assert.equal(sc.row.per_model, undefined);
        assert.equal(sc.models.leader_group.length, Math.min(50, doc.leader_group.length));
      }
      seen.models.push(...sc.models.models.map((m: any) => m.model));
      seen.pairs.push(...sc.models.pairs.map((p: any) => `${p.first}|${p.second}`));
      seen.per_model.push(...sc.per_model.map((m: any) => m.model));
      pages++;
      cursor = sc.page.next_cursor ?? undefined;
      if (!cursor) break;
    }
    assert.deepEqual(
      seen.models,
      doc.models.map((m) => m.model),
    );
    assert.deepEqual(
      seen.pairs,
      doc.pairs.map((p) => `${p.first}|${p.second}`),
    );
    assert.deepEqual(
      seen.per_model,
      row.per_model.map((m) => m.model),
    );
    assert.ok(pages > 100, `${pages} pages`);
  });

  it('A2A axis-lookup pages by metadata "cursor", each answer within 64 kB; a bad cursor is refused', async () => {
    const deps = a2aDeps(ctx);
    const ask = (cursor?: string) =>
      axisLookup(
        { skill: 'axis-lookup', routedBy: 'metadata', axis: MANY_AXIS, ids: [], ...(cursor && { cursor }) },
        deps,
      );
    const first = await ask();
    assert.ok(bytes(first) <= ANSWER_MAX_BYTES);
    const page = (first.data[1]!.value as any).page;
    assert.match(page.next_cursor, /^[0-9a-f]{8}\.(models|pairs):\d+$/);
    assert.ok(first.text.includes(`"cursor": "${page.next_cursor}"`));
    const second = await ask(page.next_cursor);
    assert.ok(bytes(second) <= ANSWER_MAX_BYTES);
    assert.equal((second.data[1]!.value as any).page.cursor, page.next_cursor);
    await assert.rejects(ask('nope:1'), /cursor 'nope:1'/);
    const scope = page.next_cursor.slice(0, 8);
    const bad = await mcpTool('gspc_axis').run({ axis: MANY_AXIS, cursor: `${scope}.pairs:99999999` }, ctx);
    assert.equal(bad.isError, true);
    assert.equal((bad.structuredContent as any).code, 'bad_query');
    // A cursor keeps to the release and axis it came from (review: one kept across a republish,
    // or taken to another axis, was read as a position in other lists, skipping and repeating).
    const other = scope === '00000000' ? '11111111' : '00000000';
    const elsewhere = await mcpTool('gspc_axis').run(
      { axis: MANY_AXIS, cursor: `${other}${page.next_cursor.slice(8)}` },
      ctx,
    );
    assert.equal(elsewhere.isError, true);
    assert.match((elsewhere.content[0] as { text: string }).text, /another release or another axis/);
    await assert.rejects(ask(`${other}${page.next_cursor.slice(8)}`), /another release or another axis/);
    // The old form, <list>:<offset>, carries no scope: refused, not read as page 1's position.
    await assert.rejects(ask(page.next_cursor.slice(9)), /expected a page\.next_cursor/);
  });

  it('the axis page says why there are no tie-group letters', async () => {
    const body = (await app.inject({ url: `/dashboard/axes/${MANY_AXIS}` })).body;
    assert.match(
      body,
      /<p class="note" id="axis-groups-reason">No tie-group letters: the separations need more than 702 tie groups/,
    );
  });
});
