/**
 * Agent answers within 64 kB at any number of axes (review of issue 39: a board of 150 axes gave
 * a 176 kB AG-UI snapshot and a 153 kB MCP gspc_board answer). The AG-UI run sends the state as a
 * snapshot and deltas, each event within 64 kB, and the official HttpAgent holds the whole state
 * after them; gspc_board pages the axes, and following page.next_cursor reads each axis once;
 * A2A's board summary stays within 64 kB.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type BaseEvent, HttpAgent } from '@ag-ui/client';
import { a2aDeps, bytes, mcpTool } from '../../bench/agent-answers.js';
import { buildApp, composeService } from '../../src/app.js';
import { boardSummary } from '../../src/surfaces/a2a/board-answers.js';
import { aguiState } from '../../src/surfaces/agui/agui-routes.js';
import { ANSWER_MAX_BYTES } from '../../src/surfaces/answer-budget.js';
import { demoApp } from '../helpers/app.js';
import { writeManyAxesCorpus } from '../helpers/many-axes-corpus.js';
import { tempDir } from '../helpers/tmp.js';

const AXES = 150;

describe(`agent answers at ${AXES} axes`, async () => {
  const corpus = join(tempDir(), 'corpus');
  const slugs = writeManyAxesCorpus(corpus, AXES);
  const { state } = demoApp(corpus);
  const app = buildApp({ state, logLevel: 'silent' });
  let origin = '';
  before(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  after(() => app.close());
  const ctx = composeService({ state, baseUrl: 'http://localhost:8080' }).read;

  it('the state is larger than one event: the AG-UI run sends it in events of at most 64 kB, and HttpAgent holds all of it', async () => {
    const full = JSON.parse(aguiState(state.current()).body.toString('utf8'));
    assert.ok(bytes(full) > ANSWER_MAX_BYTES, `${bytes(full)} bytes of state`);
    const agent = new HttpAgent({ url: `${origin}/api/agui/gspc-state`, threadId: 'many-axes' });
    const events: BaseEvent[] = [];
    await agent.runAgent({ runId: 'r' }, { onEvent: ({ event }) => void events.push(event) });
    const types = events.map((e) => e.type);
    assert.equal(types[1], 'STATE_SNAPSHOT');
    assert.ok(types.filter((t) => t === 'STATE_DELTA').length >= 2, types.join(' '));
    for (const e of events) assert.ok(bytes(e) <= ANSWER_MAX_BYTES, `${e.type}: ${bytes(e)} bytes`);
    assert.deepEqual(agent.state, full, 'snapshot + deltas = the whole state');
    assert.deepEqual(
      (agent.state as { axes: { axis: string }[] }).axes.map((a) => a.axis),
      slugs,
    );
  });

  it('MCP gspc_board: pages of at most 64 kB; following page.next_cursor reads every axis once', async () => {
    const tool = mcpTool('gspc_board');
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 50; pages++) {
      const r = await tool.run({ ...(cursor && { cursor }) }, ctx);
      assert.notEqual(r.isError, true, JSON.stringify(r.structuredContent).slice(0, 300));
      assert.ok(bytes(r) <= ANSWER_MAX_BYTES, `page ${pages}: ${bytes(r)} bytes`);
      const sc = r.structuredContent as { axes: { axis: string }[]; page: { next_cursor: string | null } };
      seen.push(...sc.axes.map((a) => a.axis));
      cursor = sc.page.next_cursor ?? undefined;
      if (!cursor) break;
    }
    assert.deepEqual(seen, slugs);
    const bad = await tool.run({ cursor: '00000000.axes:0' }, ctx);
    assert.equal(bad.isError, true, 'a cursor of another release is refused');
  });

  it('A2A board-summary: pages of at most 64 kB; following metadata cursor reads every axis once', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 50; pages++) {
      const answer = await boardSummary(
        { skill: 'board-summary', routedBy: 'metadata', ids: [], ...(cursor && { cursor }) },
        a2aDeps(ctx),
      );
      assert.ok(bytes(answer) <= ANSWER_MAX_BYTES, `page ${pages}: ${bytes(answer)} bytes`);
      const value = answer.data[0]!.value as { axes: { axis: string }[]; page: { next_cursor: string | null } };
      seen.push(...value.axes.map((a) => a.axis));
      cursor = value.page.next_cursor ?? undefined;
      if (!cursor) break;
      assert.ok(answer.text.includes(`"cursor": "${cursor}"`), 'the text says how to get the next page');
    }
    assert.deepEqual(seen, slugs);
  });
});
