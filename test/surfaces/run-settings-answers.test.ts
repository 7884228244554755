/**
 * Run settings at their largest keep every agent answer within 64 kB (issue 40 item 2, decision
 * RS8): every model of the demo's `governance` given a `runs.json` entry of almost 16,384
 * characters (long, different prompt templates, so every pair is refused as not like for like),
 * the MCP and A2A answers each fit, and following gspc_axis's next_cursor reads every model and
 * pair once, each page within the bound.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { agentAnswerSizes, bytes, mcpTool } from '../../bench/agent-answers.js';
import { composeService } from '../../src/app.js';
import type { ModelsDocument } from '../../src/core/board/models-document.js';
import { MAX_ENTRY_CHARS } from '../../src/corpus/run-settings.js';
import { ANSWER_MAX_BYTES } from '../../src/surfaces/answer-budget.js';
import { demoApp } from '../helpers/app.js';
import { demoCopy } from '../helpers/tmp.js';

const MODELS = ['demo/atlas-70b', 'demo/borealis-34b', 'demo/cirrus-8b', 'demo/dune-8b-ft', 'svc/sentinel-1'];

describe('agent answers with the largest run settings', async () => {
  const dir = demoCopy();
  const runs = MODELS.map((model, i) => {
    // Four template values of 3,900 characters each, one model's differing from the next's.
    const template = Object.fromEntries(['a', 'b', 'c', 'd'].map((k) => [k, `${i}${k}`.repeat(1950)]));
    return { model, axis: 'governance', harness: 'lm-eval', shots: 0, template };
  });
  for (const r of runs) assert.ok(JSON.stringify(r).length <= MAX_ENTRY_CHARS, `${JSON.stringify(r).length}`);
  assert.ok(JSON.stringify(runs[0]).length > MAX_ENTRY_CHARS - 1000, 'near the cap');
  writeFileSync(join(dir, 'runs.json'), JSON.stringify({ schema: 'svc.gspc-corpus-runs/1', runs }));
  const { app, state } = demoApp(dir);
  const ctx = composeService({ state, baseUrl: 'http://localhost:8080' }).read;
  const doc = (await app.inject({ url: '/api/models?axis=governance' })).json() as ModelsDocument;

  it('every pair is refused as not like for like', () => {
    assert.ok(doc.pairs.every((p) => p.like_for_like === false && p.state === 'UNTESTED'));
    assert.equal(doc.m, 0);
  });

  it('MCP gspc_axis and gspc_board, A2A axis-lookup and board-summary, the AG-UI state: each within 64 kB', async () => {
    const sizes = await agentAnswerSizes(ctx, 'governance');
    for (const [what, size] of Object.entries(sizes)) assert.ok(size <= ANSWER_MAX_BYTES, `${what}: ${size} bytes`);
  });

  it("following gspc_axis's next_cursor reads every model and pair once, each page within 64 kB", async () => {
    const tool = mcpTool('gspc_axis');
    const seen = { models: [] as string[], pairs: [] as string[] };
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const r = await tool.run({ axis: 'governance', ...(cursor && { cursor }) }, ctx);
      assert.notEqual(r.isError, true, JSON.stringify(r.structuredContent));
      assert.ok(bytes(r) <= ANSWER_MAX_BYTES, `page ${pages}: ${bytes(r)} bytes`);
      const sc = r.structuredContent as any;
      if (pages === 0) assert.match((r.content[0] as { text: string }).text, /Not like for like: 10 pairs/);
      seen.models.push(...sc.models.models.map((m: any) => m.model));
      seen.pairs.push(...sc.models.pairs.map((p: any) => `${p.first}|${p.second}`));
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
    assert.ok(pages > 1, `${pages} pages: the entries did not fit one`);
  });
});
