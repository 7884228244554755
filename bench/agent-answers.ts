/**
 * The bytes of the agent answers about one axis (issue 39: each within 64 kB at any number of
 * models): the MCP `gspc_axis` and `gspc_board` results (as the SDK sends them: content and
 * structuredContent), the A2A `axis-lookup` answer (text and data parts), the AG-UI snapshot
 * (the state event's JSON), and the cost answers (MCP `gspc_cost`, A2A `cost-lookup`; issue 40). Read in-process from the same context the routes use. Shared by
 * bench/axis-page.ts and test/surfaces/answer-bounds.test.ts.
 */
import type { SurfaceContext } from '../src/surfaces/context.js';
import { axisLookup, boardSummary } from '../src/surfaces/a2a/board-answers.js';
import { costLookup } from '../src/surfaces/a2a/cost-answers.js';
import { COST_TOOL } from '../src/surfaces/mcp/cost-tool.js';
import type { AnswerDeps } from '../src/surfaces/a2a/answer-kit.js';
import { aguiState } from '../src/surfaces/agui/agui-routes.js';
import { READER_TOOLS } from '../src/surfaces/mcp/reader-tools.js';

export interface AnswerSizes {
  mcpAxis: number;
  mcpBoard: number;
  a2aAxis: number;
  a2aBoard: number;
  aguiSnapshot: number;
  mcpCost: number;
  a2aCost: number;
}

export const mcpTool = (name: string) => READER_TOOLS.find((t) => t.name === name)!;

export const a2aDeps = (ctx: SurfaceContext): AnswerDeps => ({
  ctx,
  verifyCards: async () => ({ status: 500, body: '' }),
  cardSignature: () => ({}) as ReturnType<AnswerDeps['cardSignature']>,
});

export const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

export async function agentAnswerSizes(ctx: SurfaceContext, axis: string): Promise<AnswerSizes> {
  const deps = a2aDeps(ctx);
  return {
    mcpAxis: bytes(await mcpTool('gspc_axis').run({ axis }, ctx)),
    mcpBoard: bytes(await mcpTool('gspc_board').run({}, ctx)),
    a2aAxis: bytes(await axisLookup({ skill: 'axis-lookup', routedBy: 'metadata', axis, ids: [] }, deps)),
    a2aBoard: bytes(await boardSummary({ skill: 'board-summary', routedBy: 'metadata', ids: [] }, deps)),
    aguiSnapshot: aguiState(ctx.state.current()).body.length,
    mcpCost: bytes(await COST_TOOL.run({ axis }, ctx)),
    a2aCost: bytes(await costLookup({ skill: 'cost-lookup', routedBy: 'metadata', axis, ids: [] }, deps)),
  };
}
