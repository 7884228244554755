/**
 * What every MCP tool of this service answers (MCP 2025-06-18 and 2026-07-28, "Tools" →
 * "Tool Result", "Structured Content"): the document in `structuredContent`, exactly the JSON the
 * HTTP route serves, plus one short text line; a broken request is an `isError` result whose
 * `structuredContent` is the HTTP route's own error body (`{ error, code, ...details }`).
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { Prepared } from '../../serve/prepared-bytes.js';
import type { SurfaceContext } from '../context.js';

/** Every tool only reads this service's own documents: same answer on retry, nothing outside. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false, idempotentHint: true } as const;

/** One tool: its closed zod input schema and what it answers. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  /** `input` as the SDK takes it, its JSON Schema converted once (see withJsonSchemaOnce). */
  sdkInput: z.ZodObject;
  run: (args: Record<string, unknown>, ctx: SurfaceContext) => Promise<CallToolResult>;
}

/** A tool whose `run` sees its arguments typed by its own schema (the SDK validated them). */
export function tool<S extends z.ZodObject>(t: {
  name: string;
  title: string;
  description: string;
  input: S;
  run: (args: z.infer<S>, ctx: SurfaceContext) => Promise<CallToolResult>;
}): McpTool {
  return { ...t, sdkInput: withJsonSchemaOnce(t.input) } as unknown as McpTool;
}

/**
 * The schema as a Standard Schema whose JSON Schema is converted once per process: every request
 * builds a new McpServer, which would otherwise convert every input schema again for each
 * `tools/list` (16 conversions) and each 2026-07-28 `tools/call` (the SDK's Mcp-Param scan).
 * Validation is zod's own. The cached JSON Schema is frozen: the SDK copies, never edits, it.
 */
function withJsonSchemaOnce<S extends z.ZodObject>(schema: S): S {
  const std = schema['~standard'];
  const memo = new Map<string, Record<string, unknown>>();
  const once = (io: 'input' | 'output') => (params: { target: string; libraryOptions?: Record<string, unknown> }) => {
    const key = `${io}:${params.target}`;
    let json = memo.get(key);
    if (!json) {
      json = deepFreeze(std.jsonSchema[io](params));
      memo.set(key, json);
    }
    return json;
  };
  const standard = {
    version: std.version,
    vendor: std.vendor,
    validate: std.validate,
    jsonSchema: { input: once('input'), output: once('output') },
  };
  return { '~standard': standard } as unknown as S;
}

/** A JSON document as a route serves it. */
export type Document = Record<string, unknown>;

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

// Parsed once per prepared file (a new release is a new Prepared). Frozen because one object
// answers every concurrent call: nothing may change it in place.
const parsed = new WeakMap<Prepared, Document>();

/** The JSON document of a prepared file, as served. */
export function documentOf(p: Prepared): Document {
  let d = parsed.get(p);
  if (!d) {
    d = deepFreeze(JSON.parse(p.body.toString('utf8')) as Document);
    parsed.set(p, d);
  }
  return d;
}

/** A document answer: the document itself and a one-line text saying where it comes from. */
export function documentResult(doc: Document, source: string, headline?: string): CallToolResult {
  const schema = typeof doc.schema === 'string' ? `${doc.schema} ` : '';
  const text = `${headline ? `${headline}. ` : ''}The ${schema}document is in structuredContent: the same JSON as ${source}.`;
  return { content: [{ type: 'text', text }], structuredContent: doc };
}

/** An isError answer carrying the HTTP route's error body. */
export function errorResult(body: { error: string; code: string } & Document, text?: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: text ?? `${body.code}: ${body.error}` }],
    structuredContent: body,
  };
}

/**
 * One of the service's own GET routes, read in-process: its JSON body as a document result, or
 * its JSON error body as an isError result (a route that does not answer JSON is a bug: thrown).
 */
export async function routeResult(
  ctx: SurfaceContext,
  path: string,
  headline?: (doc: Document) => string,
): Promise<CallToolResult> {
  const r = await ctx.documents.readPath<Document>(path);
  if (!r.ok) return errorResult(r.value);
  return documentResult(r.value, `GET ${path}`, headline?.(r.value));
}
