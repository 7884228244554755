/**
 * `/api/agui/gspc-state` (specification, "Endpoints" and "Events": a read-only AG-UI event
 * stream of the board for presentation; "presentation transport only; does not prove provider
 * execution"). POST a `RunAgentInput` (what `@ag-ui/client`'s HttpAgent sends) or GET; either
 * way the answer is a `text/event-stream` of AG-UI events (board-run.ts). docs/drafts/agui.md.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { modelsReady, tieGroupsOf } from '../../serve/documents/models.js';
import { boardState } from './board-state.js';
import { BASE_HEADERS } from '../../serve/headers.js';
import type { PreparedRelease } from '../../serve/prepared.js';
import { readQuery } from '../../serve/query.js';
import type { SurfaceContext } from '../context.js';
import { BoardRun, type BoardSource, type RunSink, type RunState } from './board-run.js';
import { readGetRun, readRunInput, type RunRequest } from './run-input.js';

export const AGUI_PATH = '/api/agui/gspc-state';

/** Tunables; the defaults are what the service runs with (tests shorten them). */
export interface AguiOptions {
  /** Interval of keep-alive comments on a held run (default 15 s, G4). */
  heartbeatMs?: number;
  /** Held runs open at once; a run beyond it is answered at once with RUN_FINISHED `busy` (G6). */
  maxHeldRuns?: number;
  /** Held runs one client address may hold of them (issue 38); beyond it, `busy` too. */
  maxHeldRunsPerClient?: number;
}

export const DEFAULT_HEARTBEAT_MS = 15_000;
export const DEFAULT_MAX_HELD_RUNS = 100;
/** One client's share of the held runs (issue 38): a tenth, so ten clients are needed to fill them. */
export const DEFAULT_MAX_HELD_RUNS_PER_CLIENT = 10;
/** A POST body: the client may send the board back as its `state`, so the app's 1 MiB limit. */
export const AGUI_BODY_LIMIT = 1024 * 1024;
// A client that stops reading while the run writes: past this, the stream is dropped.
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** Response headers of every stream: never cached, never buffered by a proxy, readable cross-origin. */
export const STREAM_HEADERS = {
  ...BASE_HEADERS,
  'content-type': 'text/event-stream',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
} as const;

const PREFLIGHT_HEADERS = {
  ...BASE_HEADERS,
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, accept',
  'access-control-max-age': '86400',
} as const;

function sinkOf(res: ServerResponse): RunSink {
  const open = () => !res.destroyed && !res.writableEnded;
  return {
    write: (chunk) => {
      if (!open()) return;
      res.write(chunk);
      if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
    },
    end: () => {
      if (open()) res.end();
    },
  };
}

// One state per served board (a swap that re-signs the board makes a new one), shared by every run.
const states = new WeakMap<object, RunState>();

/**
 * The run's state: the served board's document, key for key as GET /api/gspc sends it, with one
 * key added, `tie_groups` (issue 29): each model-comparison axis's letters and their public
 * models, from the release's /api/models documents (docs/agents.md §3, decision S3), within 64 kB
 * (board-state.ts, issue 39: the groups as fit, and per_model cut, said in `cut`, when a board is
 * too large). The ETag is the board's, so a client can still match the state's board to GET
 * /api/gspc.
 */
export function aguiState(p: PreparedRelease): RunState {
  const board = p.boards.get('')!;
  let state = states.get(board);
  if (state === undefined) {
    const doc = JSON.parse(board.body.toString('utf8')) as Record<string, unknown>;
    state = { body: Buffer.from(JSON.stringify(boardState(doc, tieGroupsOf(p)))), etag: board.etag };
    states.set(board, state);
  }
  return state;
}

/** Registers POST, GET (and HEAD) and the CORS preflight of {@link AGUI_PATH}. */
export function registerAguiRoutes(app: FastifyInstance, ctx: SurfaceContext, opts: AguiOptions = {}): void {
  const heartbeatMs = opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const maxHeld = opts.maxHeldRuns ?? DEFAULT_MAX_HELD_RUNS;
  const perClient = opts.maxHeldRunsPerClient ?? DEFAULT_MAX_HELD_RUNS_PER_CLIENT;
  const held = new Set<BoardRun>();
  const heldBy = new Map<string, number>();
  const source: BoardSource = {
    board: () => aguiState(ctx.state.current()),
    // The new release's tie groups are built in slices first: never in the swap's own call.
    onBoard: (listener) =>
      ctx.state.onChange((next) => {
        modelsReady(next).then(
          () => {
            if (ctx.state.current() === next) listener(aguiState(next));
          },
          () => undefined,
        );
      }),
  };

  const serve = (reply: FastifyReply, request: RunRequest, headOnly: boolean, client: string): void => {
    // Everything that can be refused was checked before this point: from here on the response
    // is ours (Fastify sends nothing for a hijacked reply).
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, STREAM_HEADERS);
    if (headOnly || res.destroyed) {
      res.end();
      return;
    }
    const mine = heldBy.get(client) ?? 0;
    const busy = request.holdMs > 0 && (held.size >= maxHeld || mine >= perClient);
    const run: BoardRun = new BoardRun(source, sinkOf(res), {
      ...request,
      heartbeatMs,
      busy,
      now: ctx.now,
      onStop: () => {
        if (!held.delete(run)) return;
        const n = (heldBy.get(client) ?? 1) - 1;
        if (n <= 0) heldBy.delete(client);
        else heldBy.set(client, n);
      },
    });
    res.on('close', () => run.abandon());
    if (request.holdMs > 0 && !busy) {
      held.add(run);
      heldBy.set(client, mine + 1);
    }
    try {
      run.start();
    } catch (err) {
      reply.log.error({ err }, 'AG-UI board run failed');
      run.abandon();
      res.destroy();
    }
  };

  /** Until the release served when it resolves has every document built (a swap may come meanwhile). */
  const currentReady = async (): Promise<void> => {
    for (;;) {
      const p = ctx.state.current();
      await modelsReady(p);
      if (ctx.state.current() === p) return;
    }
  };
  // The state carries every axis's tie groups: a run starts once their documents are built, in
  // slices, so one request cannot hold the event loop for a large board's build (review of
  // issue 39); already built, this is one resolved promise.
  app.post(AGUI_PATH, { bodyLimit: AGUI_BODY_LIMIT }, async (req, reply) => {
    // Parameters belong in the RunAgentInput; a query string is refused rather than ignored.
    readQuery(req.url, []);
    const request = readRunInput(req.body);
    await currentReady();
    serve(reply, request, false, req.ip);
    return reply;
  });
  app.get(AGUI_PATH, async (req, reply) => {
    const request = readGetRun(req.url, randomUUID);
    await currentReady();
    serve(reply, request, req.method === 'HEAD', req.ip);
    return reply;
  });
  // Browsers preflight a cross-origin JSON POST; the stream is public, so any origin may.
  app.options(AGUI_PATH, (_req, reply) => {
    reply.code(204).headers(PREFLIGHT_HEADERS).send();
  });
  // Held runs end with RUN_FINISHED before the server closes, so close does not wait for them.
  app.addHook('preClose', async () => {
    for (const run of [...held]) run.finish('server_closing');
  });
}
