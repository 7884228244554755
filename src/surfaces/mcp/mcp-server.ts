/**
 * The MCP server of this service (MCP 2025-06-18 / 2025-11-25 and 2026-07-28, "Tools"): a fresh
 * `McpServer` per request (the SDK's stateless pattern; a server instance serves one exchange)
 * with the 17 tools below and nothing else. `witness_hash` is quarantined by not being
 * registered at all: it is absent from `tools/list`, and a call to it gets the same "Tool
 * witness_hash not found" error as any name that never existed.
 */
import { McpServer } from '@modelcontextprotocol/server';
import type { SurfaceContext } from '../context.js';
import { COST_TOOL } from './cost-tool.js';
import { METERED_TOOLS } from './metered-tools.js';
import { READER_TOOLS } from './reader-tools.js';
import { READ_ONLY, type McpTool } from './tool-results.js';
import { VERIFY_CARD } from './verify-tool.js';

/** The 13 free tools: 11 document readers, gspc_cost and verify_card. */
export const FREE_TOOLS: readonly McpTool[] = [...READER_TOOLS, COST_TOOL, VERIFY_CARD];
/** Every tool `tools/list` advertises, in its order: 13 free, then 4 metered. */
export const MCP_TOOLS: readonly McpTool[] = [...FREE_TOOLS, ...METERED_TOOLS];

/** `serverInfo` of `initialize` and `server/discover`. */
export const SERVER_INFO = { name: 'gspc-board', version: '0.1.0' } as const;

const INSTRUCTIONS =
  "Read-only tools over the public GSPC measurement board and its signed evidence. Every free tool answers the same JSON as the HTTP route it names, in structuredContent. The metered tools answer a product's free preview and its x402 payment challenge, never the artefact; payment happens over HTTP at the URL they give. Verification is free (verify_card).";

/** Builds the server of one request; every tool reads `ctx` when it is called. */
export function mcpServerFor(ctx: SurfaceContext): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  for (const t of MCP_TOOLS) {
    server.registerTool(
      t.name,
      {
        title: t.title,
        description: t.description,
        inputSchema: t.sdkInput,
        annotations: { title: t.title, ...READ_ONLY },
      },
      (args: Record<string, unknown>) => t.run(args, ctx),
    );
  }
  return server;
}
