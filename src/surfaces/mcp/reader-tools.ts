/**
 * The free reader tools of `/mcp` (issue 6; specification, "Other endpoints" and the capability
 * fabric's `mcp-tools` rail): each answers one document the HTTP routes already publish, read
 * from the served state's prepared bytes or through the document registry (`ctx.documents`, read
 * in-process, no HTTP round trip), never derived again. `verify_card` is in verify-tool.ts.
 */
import { z } from 'zod';
import { MCP_TOOL_FOR_ACTION } from '../../core/fabric/actions.js';
import type { PreparedRelease } from '../../serve/prepared.js';
import type { SurfaceContext } from '../context.js';
import type { ModelsDocument } from '../../core/board/models-document.js';
import { type Cut, cutText, fitBoard, jsonBytes } from '../answer-budget.js';
import { pageBoard, pageWords } from '../board-pages.js';
import { answerRoom, axisPage, axisWords, cursorScope } from '../axis-answer.js';
import {
  documentOf,
  documentResult,
  errorResult,
  routeResult,
  tool,
  type Document,
  type McpTool,
} from './tool-results.js';

// Any string the HTTP route would look up: an unknown one is answered like its 404, with the known slugs.
const AXIS = z
  .string()
  .min(1)
  .max(200)
  .describe('axis slug, e.g. jail (an unknown slug is answered with the known ones)');
const NO_INPUT = z.object({}).strict();

function unknownAxis(current: PreparedRelease, axis: string) {
  return errorResult(
    { error: 'unknown axis', code: 'unknown_axis', known: current.knownAxes },
    `unknown axis '${axis}'; known axes: ${current.knownAxes.join(', ')}`,
  );
}

/** A published file of the served release, as its HTTP route answers it (404 body when absent). */
function fileResult(current: PreparedRelease, path: string, headline?: (doc: Document) => string) {
  const f = current.files.get(path);
  if (!f) return errorResult({ error: `${path} is not published by this release`, code: 'not_found' });
  const doc = documentOf(f);
  return documentResult(doc, `GET ${path}`, headline?.(doc));
}

/** What the board tool says when it cut per_model lists to stay within 64 kB. */
const CUT_WORDS = 'To stay within 64 kB, per-model lists are cut to their first entries';

const boardHeadline = (doc: Document) => {
  const lid = (doc.totals as { lid?: unknown } | undefined)?.lid;
  return typeof lid === 'string' ? lid : 'The GSPC board';
};

/** A page of a board too large for one answer (board-pages.ts), with what it holds in words. */
function boardPage(
  board: Document,
  cut: Record<string, Cut>,
  source: string,
  cursor: string | undefined,
  room: number,
  scope: string,
) {
  const paged = pageBoard(board, cursor, room, scope);
  if ('error' in paged) return errorResult({ error: paged.error, code: 'bad_query' }, paged.error);
  const { value, page } = paged;
  const text = `${boardHeadline(board)}. ${pageWords(page)} (the board in pages of 64 kB${Object.keys(cut).length > 0 ? `; ${CUT_WORDS}: ${cutText(cut)}` : ''}; the signed document is ${source})${page.next_cursor ? `; the next page: cursor ${page.next_cursor}` : '; the last page'}.`;
  return {
    content: [{ type: 'text' as const, text }],
    structuredContent: { ...value, ...(Object.keys(cut).length > 0 && { cut }) },
  };
}

/** The 11 document readers, in `tools/list` order (docs/agents.md, "The 17 tools"). */
export const READER_TOOLS: readonly McpTool[] = [
  tool({
    name: MCP_TOOL_FOR_ACTION['svc.gspc.board.read'],
    title: 'Read the GSPC board',
    description:
      'The public measurement board, signed (site_attestation): every axis with its n, status, leader, Wilson interval and separation; with `axis`, the board of that axis only. Same JSON as GET /api/gspc[?axis=].',
    input: z
      .object({
        axis: AXIS.optional(),
        cursor: z
          .string()
          .min(1)
          .max(64)
          .optional()
          .describe(
            'page.next_cursor of the previous answer (<scope>.axes:<offset>), when a board of many axes came in pages; none for the first page',
          ),
      })
      .strict(),
    run: async ({ axis, cursor }, ctx) => {
      const current = ctx.state.current();
      const board = current.boards.get(axis ?? '');
      if (!board) return unknownAxis(current, axis!);
      const doc = documentOf(board);
      const source = axis ? `GET /api/gspc?axis=${axis}` : 'GET /api/gspc';
      const room = answerRoom(`${boardHeadline(doc)}. ${CUT_WORDS} ${'x'.repeat(400)}`);
      // A classification axis of hundreds of models makes per_model longer than an answer holds.
      const fitted = fitBoard(doc, room);
      // A board of many axes does not fit even with its lists cut: its axes come page by page.
      if (cursor !== undefined || jsonBytes(fitted.value) > room)
        return boardPage(fitted.value, fitted.cut, source, cursor, room, cursorScope(current.release.id, ''));
      if (Object.keys(fitted.cut).length === 0) return documentResult(doc, source, boardHeadline(doc));
      const result = documentResult(
        fitted.value,
        source,
        `${boardHeadline(doc)}. ${CUT_WORDS} (${cutText(fitted.cut)}): each whole at GET /api/gspc?axis=<axis>, and page by page from gspc_axis`,
      );
      return { ...result, _meta: { 'gspc/cut': fitted.cut } };
    },
  }),
  tool({
    name: 'gspc_axis',
    title: 'Look up one axis',
    description:
      "One axis: its row on the board (n, status, leader, interval, separation; as in GET /api/gspc?axis=<slug>), its published definition (task, dataset, labels, base models; GET /peritem/axes/<slug>.json) and, for a model comparison, every model and every pair (GET /api/models?axis=<slug>): which models are separated (Holm-adjusted exact McNemar), by how much (the difference with its interval) and what a TIE could have seen. Each answer stays within 64 kB: past that the models and pairs come page by page; pass the answer's page.next_cursor as `cursor` for the next page.",
    input: z
      .object({
        axis: AXIS,
        cursor: z
          .string()
          .min(1)
          .max(64)
          .optional()
          .describe(
            'page.next_cursor of the previous answer (<scope>.<list>:<offset>, e.g. 3f09a1c2.pairs:1200; it is good for the release and axis it came from); none for the first page',
          ),
      })
      .strict(),
    run: async ({ axis, cursor }, ctx) => {
      const current = ctx.state.current();
      const board = current.boards.get(axis);
      if (!board) return unknownAxis(current, axis);
      const row = (documentOf(board).axes as Document[])[0]!;
      const definition = current.files.get(`/peritem/axes/${axis}.json`);
      // The every-model document, read through the registry as GET /api/models answers it.
      const models = row.kind === 'model-comparison' ? await ctx.documents.readPath(`/api/models?axis=${axis}`) : null;
      const modelsDoc = models?.ok ? (models.value as unknown as ModelsDocument) : undefined;
      const headline = `Axis ${axis}: ${String(row.status)}${row.n !== undefined ? `, n = ${String(row.n)}` : ''}${row.separation !== undefined ? `, ${String(row.separation)}` : ''}.`;
      const words = [headline, ...axisWords(row, modelsDoc)].join(' ');
      // The text's last sentence names the page, whose cursor is known only once it is cut.
      const tail = (next: string | null) =>
        ` The row, the definition and ${next === null ? (cursor ? 'the last page of' : 'all of') : 'a page of'} the models and pairs are in structuredContent (GET /api/gspc?axis=${axis}, ${definition ? `/peritem/axes/${axis}.json` : 'no published definition'}, ${modelsDoc ? `/api/models?axis=${axis}` : 'no every-model document'})${next === null ? '' : `; the next page: cursor ${next}`}.`;
      const page = axisPage(
        axis,
        row,
        definition ? documentOf(definition) : null,
        modelsDoc,
        cursor,
        answerRoom(words + tail('00000000.pairs:999999999')),
        cursorScope(current.release.id, axis),
      );
      if ('error' in page) return errorResult({ error: page.error, code: 'bad_query', axis }, page.error);
      return { content: [{ type: 'text', text: words + tail(page.next) }], structuredContent: page.value };
    },
  }),
  tool({
    name: 'gspc_card',
    title: 'Read one signed card',
    description:
      'A card-v1 of this release by its sha256 (64 hex) or its first 16 hex characters, withdrawn ones included. Same JSON as GET /cards/<id16>.json; its inclusion proof is at /cards/<id16>.proof.json.',
    input: z
      .object({
        id: z
          .string()
          .regex(/^([0-9a-f]{16}|[0-9a-f]{64})$/)
          .describe('card sha256 (64 hex) or its first 16 hex characters'),
      })
      .strict(),
    run: async ({ id }, ctx) => {
      const current = ctx.state.current();
      const card = current.cardById(id);
      if (!card) return errorResult({ error: `no card with id ${id}`, code: 'not_found', id });
      return fileResult(
        current,
        `/cards/${card.sha256.slice(0, 16)}.json`,
        () => `Card ${card.sha256.slice(0, 16)} (${card.surface}, ${card.subject}, axis ${card.axis})`,
      );
    },
  }),
  tool({
    name: 'gspc_card_matrix',
    title: 'Read the card matrix',
    description:
      'The dated matrix of signed cards: one cell per subject, axis and surface with the card sha256 and URL. Same JSON as GET /signed/card-matrix.json.',
    input: NO_INPUT,
    run: async (_args, ctx) => fileResult(ctx.state.current(), '/signed/card-matrix.json'),
  }),
  tool({
    name: MCP_TOOL_FOR_ACTION['svc.evidence.root.read'],
    title: 'Read the signed public root',
    description:
      'The signed Merkle root over every active card, binding its leaf count (Ed25519, key in the DID document). Same JSON as GET /root.json.',
    input: NO_INPUT,
    run: async (_args, ctx) =>
      fileResult(
        ctx.state.current(),
        '/root.json',
        (d) => `Root ${String(d.merkle_root)} over ${String(d.leaf_count)} cards, as of ${String(d.as_of)}`,
      ),
  }),
  tool({
    name: 'gspc_root_witness',
    title: 'Read the root witness record',
    description:
      'The witness record of the served root bytes: their SHA-256 and the state of each witness. Same JSON as GET /interop/root-witness-latest.json.',
    input: NO_INPUT,
    run: async (_args, ctx) => fileResult(ctx.state.current(), '/interop/root-witness-latest.json'),
  }),
  tool({
    name: 'gspc_did_document',
    title: 'Read the DID document',
    description:
      'The did:web document with the public keys every signature of this service verifies under. Same JSON as GET /.well-known/did.json.',
    input: NO_INPUT,
    run: async (_args, ctx) => fileResult(ctx.state.current(), '/.well-known/did.json', (d) => `DID ${String(d.id)}`),
  }),
  tool({
    name: 'gspc_corrections',
    title: 'Read the corrections ledger',
    description:
      'The corrections ledger: every published error and its correction, with detection and correction times. Same JSON as GET /api/corrections.',
    input: NO_INPUT,
    run: async (_args, ctx) => routeResult(ctx, '/api/corrections'),
  }),
  tool({
    name: MCP_TOOL_FOR_ACTION['svc.regulation.deadlines.read'],
    title: 'Read the regulation deadlines',
    description:
      'The version-pinned regulation deadline feed with its verified-as-of date. Same JSON as GET /api/regulation.',
    input: NO_INPUT,
    run: async (_args, ctx) =>
      routeResult(
        ctx,
        '/api/regulation',
        (d) => `Regulation feed ${String(d.version)}, verified as of ${String(d.verified_as_of)}`,
      ),
  }),
  tool({
    name: 'gspc_capability_fabric',
    title: 'Read the capability fabric',
    description:
      'The observed state of every capability rail and the action contract (what an agent may read, through which protocol). Same JSON as GET /api/capability-fabric.',
    input: NO_INPUT,
    run: async (_args, ctx) => routeResult(ctx, '/api/capability-fabric'),
  }),
  tool({
    name: 'gspc_products',
    title: 'Read the product catalogue',
    description:
      "The x402 catalogue of the metered products: prices, rail, signer and example requests. Same JSON as GET /api/x402. The metered tools of this server return a product's preview and payment challenge.",
    input: NO_INPUT,
    run: async (_args, ctx) => (ctx.products ? routeResult(ctx, '/api/x402') : noProducts(ctx, '/api/x402')),
  }),
];

/** Without products the HTTP routes are not registered: the tools say so instead of a 404. */
export function noProducts(_ctx: SurfaceContext, path: string) {
  return errorResult({
    error: `this service serves no metered products (no payment rail here), so ${path} is not served`,
    code: 'not_found',
    path,
  });
}
