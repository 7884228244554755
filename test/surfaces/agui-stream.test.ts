/**
 * `/api/agui/gspc-state` against a real listening app, with the official `@ag-ui/client`
 * HttpAgent: RUN_STARTED, a snapshot equal to GET /api/gspc, a STATE_DELTA when a new release is
 * served mid-run (after which the agent's state equals the new GET /api/gspc), RUN_FINISHED last;
 * every frame checked with `@ag-ui/core`'s schemas; no listener or timer left behind; the
 * fabric's GET probe; a 400 through HttpAgent (the other refusals: agui-input.test.ts); client
 * disconnects; shutdown; the held-run limit and keep-alive comments.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { HttpAgent, type BaseEvent } from '@ag-ui/client';
import {
  EventSchema,
  RunFinishedEventSchema,
  RunStartedEventSchema,
  StateDeltaEventSchema,
  StateSnapshotEventSchema,
} from '@ag-ui/core/schemas';
import { buildApp, composeService } from '../../src/app.js';
import { installErrorHandling } from '../../src/web/errors.js';
import { ServedState } from '../../src/serve/served-state.js';
import { loadRelease, type LoadedRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { railById } from '../../src/core/fabric/rails.js';
import { railObservation } from '../../src/core/fabric/rail-state.js';
import { probeRail } from '../../src/status/fabric-probe.js';
import { registerAguiRoutes } from '../../src/surfaces/agui/agui-routes.js';
import { MAX_HOLD_SECONDS } from '../../src/surfaces/agui/run-input.js';
import type { SurfaceContext } from '../../src/surfaces/context.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';

const PATH = '/api/agui/gspc-state';
const SCHEMA_BY_TYPE: Record<string, { safeParse(v: unknown): { success: boolean } }> = {
  RUN_STARTED: RunStartedEventSchema,
  STATE_SNAPSHOT: StateSnapshotEventSchema,
  STATE_DELTA: StateDeltaEventSchema,
  RUN_FINISHED: RunFinishedEventSchema,
};

/** Every event parses under EventSchema and under its own event schema. */
function assertValidEvents(events: readonly unknown[]): void {
  for (const e of events) {
    const type = (e as { type?: string }).type ?? '';
    assert.ok(EventSchema.safeParse(e).success, `EventSchema rejects ${JSON.stringify(e).slice(0, 200)}`);
    assert.ok(
      SCHEMA_BY_TYPE[type]?.safeParse(e).success,
      `${type} is not one of this stream's events, or its schema rejects it`,
    );
  }
}

/** Splits an SSE body into AG-UI events (data frames) and comments. */
function frames(text: string): { events: Record<string, any>[]; comments: string[] } {
  const blocks = text.split('\n\n');
  assert.equal(blocks.pop(), '', 'the stream ends at a frame boundary');
  const events: Record<string, any>[] = [];
  const comments: string[] = [];
  for (const b of blocks) {
    if (b.startsWith(':')) comments.push(b);
    else {
      assert.match(b, /^data: [^\n]+$/);
      events.push(JSON.parse(b.slice(6)) as Record<string, any>);
    }
  }
  return { events, comments };
}

const listenersOf = (state: ServedState) => (state as unknown as { listeners: Set<unknown> }).listeners.size;
const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

async function until(cond: () => boolean, what: string, ms = 3000): Promise<void> {
  for (const end = Date.now() + ms; !cond(); await new Promise((r) => setTimeout(r, 10)))
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

const post = (origin: string, body: unknown, init: RequestInit = {}) =>
  fetch(`${origin}${PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
const input = (extra: Record<string, unknown> = {}) => ({
  threadId: 'th',
  runId: 'ru',
  messages: [],
  state: {},
  tools: [],
  context: [],
  forwardedProps: {},
  ...extra,
});

/** Reads a stream until `done` says so (or it ends); returns the text read. */
async function readUntil(res: Response, done: (text: string) => boolean): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    text += decoder.decode(r.value, { stream: true });
    if (done(text)) return reader.cancel().then(() => text);
  }
  return text;
}

describe('the AG-UI board stream over HTTP', () => {
  const signing = testSigning();
  const corpus = demoCopy();
  const dataDir = tempDir();
  const state = new ServedState(loadRelease(publishRelease(corpus, dataDir, signing.inputs).dir), liveSigning(signing));
  const original = state.current().release;
  // The next release: one more limitation and a retitled axis, published from the edited corpus.
  const boardFile = join(corpus, 'board.json');
  const board = JSON.parse(readFileSync(boardFile, 'utf8')) as { limitations: string[] };
  writeFileSync(
    boardFile,
    `${JSON.stringify({ ...board, limitations: [...board.limitations, 'SYNTHETIC: a second release, published while a stream was open.'] }, null, 2)}\n`,
  );
  const axisFile = join(corpus, 'axes', 'affect.json');
  writeFileSync(
    axisFile,
    `${JSON.stringify({ ...JSON.parse(readFileSync(axisFile, 'utf8')), title: 'Affect recognition (retitled)' }, null, 2)}\n`,
  );
  const next: LoadedRelease = loadRelease(publishRelease(corpus, dataDir, signing.inputs).dir);

  const app = buildApp({ state, logLevel: 'silent' });
  after(async () => {
    // undici opens a spare connection when a fetch is aborted mid-body and sends nothing on it;
    // Node counts it as busy until its headers timeout (60 s), so close would wait that long.
    // Every run's own cleanup is asserted inside the tests; this only drops that empty socket.
    app.server.closeAllConnections();
    await app.close();
  });
  let origin = '';
  before(async () => {
    origin = await listen(app);
  });
  const getBoard = async () => {
    const res = await fetch(`${origin}/api/gspc`);
    assert.equal(res.status, 200);
    return res.json() as Promise<Record<string, unknown>>;
  };
  /**
   * The state a run must send: the board as GET /api/gspc answers it, plus `tie_groups`, each
   * model-comparison axis's letters and their public models as GET /api/models?axis= lists them.
   */
  const getState = async () => {
    const board = await getBoard();
    const tie_groups: Record<string, unknown> = {};
    for (const row of board['axes'] as { axis: string; kind: string }[]) {
      if (row.kind !== 'model-comparison') continue;
      const source = `/api/models?axis=${row.axis}`;
      const doc = (await (await fetch(origin + source)).json()) as {
        m: number;
        groups: number | null;
        leader_group: string[];
        models: { model: string; own: boolean; tie_groups: string[] | null }[];
      };
      const groups: Record<string, string[]> = {};
      for (const m of doc.models.filter((x) => !x.own))
        for (const letter of m.tie_groups ?? []) groups[letter] = [...(groups[letter] ?? []), m.model];
      // The demo's groups all fit in the state's 64 kB (issue 39): every one is there.
      tie_groups[row.axis] = {
        source,
        m: doc.m,
        groups,
        groups_shown: Object.keys(groups).length,
        groups_total: doc.groups,
        leader_group: doc.leader_group,
        leader_group_total: doc.leader_group.length,
      };
    }
    return { ...board, tie_groups };
  };

  it('HttpAgent: RUN_STARTED, the served board, a STATE_DELTA to the next release, RUN_FINISHED; no listener or timer left', async () => {
    state.swap(original);
    const [boardBefore, listenersBefore, timersBefore] = [await getState(), listenersOf(state), timers()];
    const agent = new HttpAgent({ url: `${origin}${PATH}`, threadId: 'board-thread' });
    const events: BaseEvent[] = [];
    let listenersDuring = -1;
    const result = await agent.runAgent(
      { runId: 'run-1', forwardedProps: { hold_seconds: 2 } },
      {
        onEvent: ({ event }) => {
          events.push(event);
          if (event.type === 'STATE_SNAPSHOT') {
            listenersDuring = listenersOf(state);
            state.swap(next); // a new release is served while the stream is open
          }
        },
      },
    );
    assert.deepEqual(
      events.map((e) => e.type),
      ['RUN_STARTED', 'STATE_SNAPSHOT', 'STATE_DELTA', 'RUN_FINISHED'],
    );
    assertValidEvents(events);
    const [started, snapshot, delta, finished] = events as Record<string, any>[];
    assert.deepEqual([started!.threadId, started!.runId], ['board-thread', 'run-1']);
    assert.deepEqual([finished!.threadId, finished!.runId], ['board-thread', 'run-1']);
    assert.deepEqual(snapshot!.snapshot, boardBefore, 'the snapshot is GET /api/gspc with the tie groups');
    assert.ok(Object.keys(boardBefore.tie_groups).length > 0, 'the demo has tie groups');
    const boardAfter = await getState();
    assert.notDeepEqual(boardAfter, boardBefore);
    assert.ok(
      (delta!.delta as unknown[]).length > 0 && JSON.stringify(delta!.delta).length < JSON.stringify(boardAfter).length,
    );
    assert.ok(
      (delta!.delta as { path: string }[]).some((op) => op.path.startsWith('/limitations/')),
      'the new limitation is in the patch',
    );
    assert.deepEqual(agent.state, boardAfter, 'snapshot + delta = the new GET /api/gspc and its tie groups');
    assert.deepEqual(result.result, { ended: 'hold_elapsed', board_changes: 1 });
    assert.deepEqual([listenersBefore, listenersDuring, listenersOf(state)], [0, 1, 0]);
    await until(() => timers() <= timersBefore, 'the run timers to be cleared');
  });

  it('the wire: SSE data frames only, the stream headers, RUN_FINISHED the last bytes', async () => {
    state.swap(original);
    const res = await post(origin, input({ forwardedProps: { hold_seconds: 0.3 } }));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('x-accel-buffering'), 'no');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    const text = await res.text();
    const { events } = frames(text);
    assert.deepEqual(
      events.map((e) => e.type),
      ['RUN_STARTED', 'STATE_SNAPSHOT', 'RUN_FINISHED'],
    );
    assertValidEvents(events);
    assert.ok(text.endsWith(`data: ${JSON.stringify(events[2])}\n\n`));
    assert.deepEqual(events[2]!.result, { ended: 'hold_elapsed', board_changes: 0 });
    assert.deepEqual(events[1]!.snapshot, await getState());
    assert.equal(events[1]!.metadata.etag, (await fetch(`${origin}/api/gspc`)).headers.get('etag'));
    assert.equal(listenersOf(state), 0);
  });

  it('GET with accept text/event-stream: a short run (snapshot, then RUN_FINISHED), and the fabric probe observes it', async () => {
    const res = await fetch(`${origin}${PATH}`, { headers: { accept: 'text/event-stream' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    const { events } = frames(await res.text());
    assert.deepEqual(
      events.map((e) => e.type),
      ['RUN_STARTED', 'STATE_SNAPSHOT', 'RUN_FINISHED'],
    );
    assertValidEvents(events);
    assert.equal(events[0]!.threadId, 'gspc-state');
    assert.match(events[0]!.runId, /^[0-9a-f-]{36}$/);
    assert.equal(events[2]!.runId, events[0]!.runId);
    assert.deepEqual(events[2]!.result, { ended: 'no_hold', board_changes: 0 });
    const def = railById('agui-gspc-state')!;
    const outcome = await probeRail(def, {
      origin,
      timeoutMs: 3500,
      fetch: (u, i) => fetch(u, i),
      now: () => new Date(),
    });
    assert.equal(railObservation(def, outcome).state, 'RUNTIME_OBSERVED', JSON.stringify(outcome));
    assert.equal(listenersOf(state), 0);
  });

  it('GET ?hold_seconds= holds the run open (an EventSource) and sends the change', async () => {
    state.swap(original);
    const res = await fetch(`${origin}${PATH}?hold_seconds=2`);
    const text = await readUntil(res, (t) => {
      if (t.includes('"STATE_SNAPSHOT"') && state.current().release === original) state.swap(next);
      return t.includes('"RUN_FINISHED"');
    });
    const { events } = frames(text);
    assert.deepEqual(
      events.map((e) => e.type),
      ['RUN_STARTED', 'STATE_SNAPSHOT', 'STATE_DELTA', 'RUN_FINISHED'],
    );
    assertValidEvents(events);
    await until(() => listenersOf(state) === 0, 'the listener to go');
  });

  it('HEAD answers the stream headers with no body; OPTIONS is a CORS preflight', async () => {
    const head = await fetch(`${origin}${PATH}`, { method: 'HEAD' });
    assert.deepEqual(
      [head.status, head.headers.get('content-type'), await head.text()],
      [200, 'text/event-stream', ''],
    );
    const pre = await fetch(`${origin}${PATH}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://elsewhere.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), '*');
    assert.match(pre.headers.get('access-control-allow-methods')!, /POST/);
    assert.match(pre.headers.get('access-control-allow-headers')!, /content-type/);
    assert.equal(listenersOf(state), 0);
  });

  it('a malformed RunAgentInput through HttpAgent: runAgent rejects with the 400 (agui-input.test.ts has the cases)', async () => {
    const agent = new HttpAgent({ url: `${origin}${PATH}`, threadId: 't' });
    await assert.rejects(
      agent.runAgent({ forwardedProps: { hold_seconds: 'forever' } }),
      (e: { status?: number; payload?: { code?: string } }) => e.status === 400 && e.payload?.code === 'bad_body',
    );
    assert.equal(listenersOf(state), 0);
  });

  it('a client that disconnects mid-run: the listener goes, nothing is written to it afterwards', async () => {
    state.swap(original);
    const timersBefore = timers();
    const agent = new HttpAgent({ url: `${origin}${PATH}`, threadId: 'gone' });
    const seen: Record<string, any>[] = [];
    await agent
      .runAgent(
        { forwardedProps: { hold_seconds: 60 } },
        {
          onEvent: ({ event }) => {
            seen.push(event);
            if (event.type === 'STATE_SNAPSHOT') agent.abortRun();
          },
        },
      )
      .catch(() => undefined);
    // The client reports its own abort as a RUN_ERROR with code "abort" (made locally, not sent).
    assert.deepEqual(
      seen.map((e) => (e.type === 'RUN_ERROR' ? `${e.type}:${e.code}` : e.type)),
      ['RUN_STARTED', 'STATE_SNAPSHOT', 'RUN_ERROR:abort'],
    );
    await until(() => listenersOf(state) === 0, 'the aborted run to unsubscribe');
    // The raw client too: read the snapshot, then cancel the body.
    const res = await post(origin, input({ forwardedProps: { hold_seconds: 60 } }));
    await readUntil(res, (t) => t.includes('"STATE_SNAPSHOT"'));
    await until(() => listenersOf(state) === 0, 'the cancelled run to unsubscribe');
    // Both runs asked for a 60 s hold: their hold timers must be gone with them.
    await until(() => timers() <= timersBefore, "the abandoned runs' timers to be cleared");
    state.swap(next); // would write to a closed socket if anything were still listening
    state.swap(original);
  });

  it('closing the app finishes held runs with RUN_FINISHED "server_closing" at once', { timeout: 10_000 }, async () => {
    const other = buildApp({ state, logLevel: 'silent' });
    const o = await listen(other);
    const res = await post(o, input({ forwardedProps: { hold_seconds: MAX_HOLD_SECONDS } }));
    const reading = res.text();
    await until(() => listenersOf(state) === 1, 'the run to be held');
    const t0 = Date.now();
    await other.close();
    assert.ok(Date.now() - t0 < 2000, 'close did not wait for the hold');
    const { events } = frames(await reading);
    assert.deepEqual(
      events.map((e) => e.type),
      ['RUN_STARTED', 'STATE_SNAPSHOT', 'RUN_FINISHED'],
    );
    assert.deepEqual(events[2]!.result, { ended: 'server_closing', board_changes: 0 });
    assert.equal(listenersOf(state), 0);
  });
});

describe('the held-run limit and keep-alive comments', () => {
  const signing = testSigning();
  const state = new ServedState(
    loadRelease(publishRelease(demoCopy(), tempDir(), signing.inputs).dir),
    liveSigning(signing),
  );
  const app = Fastify({ logger: false });
  installErrorHandling(app);
  const ctx: SurfaceContext = composeService({ state, baseUrl: 'http://localhost:8080' }).read;
  registerAguiRoutes(app, ctx, { maxHeldRuns: 1, heartbeatMs: 100 });
  after(() => app.close());
  let origin = '';
  before(async () => {
    origin = await listen(app);
  });

  it('beyond the limit a run is answered at once with RUN_FINISHED "busy"; the held one sends keep-alives', async () => {
    const held = await post(origin, input({ forwardedProps: { hold_seconds: 1 } }));
    const heldText = held.text();
    await until(() => listenersOf(state) === 1, 'the first run to be held');
    const busy = frames(await (await post(origin, input({ forwardedProps: { hold_seconds: 30 } }))).text());
    assert.deepEqual(
      busy.events.map((e) => e.type),
      ['RUN_STARTED', 'STATE_SNAPSHOT', 'RUN_FINISHED'],
    );
    assert.deepEqual(busy.events[2]!.result, { ended: 'busy', board_changes: 0 });
    assert.equal(
      frames(await (await fetch(`${origin}${PATH}`)).text()).events[2]!.result.ended,
      'no_hold',
      'a run without a hold is never busy',
    );
    const first = frames(await heldText);
    assert.deepEqual(
      first.events.map((e) => e.type),
      ['RUN_STARTED', 'STATE_SNAPSHOT', 'RUN_FINISHED'],
    );
    assert.ok(
      first.comments.length >= 3 && first.comments.every((c) => c === ': keep-alive'),
      JSON.stringify(first.comments),
    );
    assert.equal(listenersOf(state), 0);
    // The slot is free again.
    const again = frames(await (await post(origin, input({ forwardedProps: { hold_seconds: 0.1 } }))).text());
    assert.equal(again.events[2]!.result.ended, 'hold_elapsed');
  });

  it('HttpAgent reads through keep-alive comments', async () => {
    const agent = new HttpAgent({ url: `${origin}${PATH}`, threadId: 'kept' });
    const seen: string[] = [];
    const { result } = await agent.runAgent(
      { forwardedProps: { hold_seconds: 0.35 } },
      {
        onEvent: ({ event }) => {
          seen.push(event.type);
        },
      },
    );
    assert.deepEqual(
      [seen, result],
      [['RUN_STARTED', 'STATE_SNAPSHOT', 'RUN_FINISHED'], { ended: 'hold_elapsed', board_changes: 0 }],
    );
  });
});
