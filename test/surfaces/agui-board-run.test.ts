/**
 * One AG-UI board run without a network: the frames it writes for each way a run can go
 * (no hold, busy, held with changes, heartbeats, client gone), checked against `@ag-ui/core`'s
 * event schemas, with mocked timers so holds and heartbeats are exact.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { EventSchema } from '@ag-ui/core/schemas';
import { compactEvents, type BaseEvent } from '@ag-ui/client';
import { prepare, type Prepared } from '../../src/serve/prepared-bytes.js';
import {
  BoardRun,
  KEEP_ALIVE,
  type BoardRunOptions,
  type BoardSource,
  type RunSink,
} from '../../src/surfaces/agui/board-run.js';

const NOW = new Date('2026-11-02T10:00:00Z');

class FakeSource implements BoardSource {
  readonly listeners = new Set<(b: Prepared) => void>();
  current: Prepared;
  constructor(doc: unknown) {
    this.current = FakeSource.prepared(doc);
  }
  static prepared(doc: unknown): Prepared {
    return prepare(Buffer.from(JSON.stringify(doc)), 'application/json; charset=utf-8');
  }
  board(): Prepared {
    return this.current;
  }
  onBoard(listener: (b: Prepared) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
  /** A swap: a new prepared board (possibly with the same bytes) is served. */
  publish(doc: unknown): void {
    this.current = FakeSource.prepared(doc);
    for (const l of this.listeners) l(this.current);
  }
}

class FakeSink implements RunSink {
  readonly chunks: string[] = [];
  ended = false;
  write(chunk: string): void {
    assert.equal(this.ended, false, `written after end: ${chunk}`);
    this.chunks.push(chunk);
  }
  end(): void {
    assert.equal(this.ended, false, 'ended twice');
    this.ended = true;
  }
  /** The AG-UI events written, each checked as one SSE `data:` frame. */
  events(): BaseEvent[] {
    return this.chunks
      .filter((c) => c !== KEEP_ALIVE)
      .map((c) => {
        assert.match(c, /^data: [^\n]+\n\n$/);
        const event = JSON.parse(c.slice(6)) as BaseEvent;
        const checked = EventSchema.safeParse(event);
        assert.ok(checked.success, `${event.type}: ${JSON.stringify(checked.error?.issues)}`);
        return event;
      });
  }
  types(): string[] {
    return this.events().map((e) => e.type);
  }
}

const BOARD = {
  schema: 'svc.gspc-axes/0.5',
  axes: [
    { axis: 'a', n: 1 },
    { axis: 'b', n: 2 },
  ],
  limitations: ['x'],
};

function runWith(t: TestContext, opts: Partial<BoardRunOptions> = {}) {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const source = new FakeSource(BOARD);
  const sink = new FakeSink();
  let stops = 0;
  const run = new BoardRun(source, sink, {
    threadId: 't',
    runId: 'r',
    holdMs: 0,
    heartbeatMs: 0,
    now: () => NOW,
    onStop: () => {
      stops++;
    },
    ...opts,
  });
  return { source, sink, run, stops: () => stops };
}

describe('a board run', () => {
  it('without a hold: RUN_STARTED (ids echoed), the snapshot, RUN_FINISHED, and nothing held', (t) => {
    const { source, sink, run, stops } = runWith(t);
    run.start();
    const [started, snapshot, finished] = sink.events() as Record<string, any>[];
    assert.deepEqual(sink.types(), ['RUN_STARTED', 'STATE_SNAPSHOT', 'RUN_FINISHED']);
    assert.deepEqual(
      [started!.threadId, started!.runId, started!.protocolVersion, started!.timestamp],
      ['t', 'r', '1.0', NOW.getTime()],
    );
    assert.deepEqual(snapshot!.snapshot, BOARD);
    assert.deepEqual(snapshot!.metadata, { source: '/api/gspc', etag: source.current.etag });
    assert.deepEqual(
      [finished!.threadId, finished!.runId, finished!.result],
      ['t', 'r', { ended: 'no_hold', board_changes: 0 }],
    );
    assert.equal(sink.ended, true);
    assert.equal(source.listeners.size, 0);
    assert.equal(stops(), 1);
    source.publish({ changed: true });
    t.mock.timers.tick(60_000);
    assert.equal(sink.chunks.length, 3, 'nothing after RUN_FINISHED');
  });

  it('busy: the snapshot, then RUN_FINISHED "busy" at once even though a hold was asked', (t) => {
    const { source, sink, run } = runWith(t, { holdMs: 30_000, heartbeatMs: 1_000, busy: true });
    run.start();
    assert.deepEqual(sink.types(), ['RUN_STARTED', 'STATE_SNAPSHOT', 'RUN_FINISHED']);
    assert.deepEqual((sink.events()[2] as Record<string, any>).result, { ended: 'busy', board_changes: 0 });
    assert.equal(source.listeners.size, 0);
  });

  it('held: a delta per changed board, none for unchanged bytes, a snapshot when a patch would outgrow the board, then RUN_FINISHED at the hold', (t) => {
    const { source, sink, run, stops } = runWith(t, { holdMs: 5_000 });
    run.start();
    assert.equal(source.listeners.size, 1);
    source.publish(BOARD); // same bytes, a new prepared object (a witness refresh)
    assert.deepEqual(sink.types(), ['RUN_STARTED', 'STATE_SNAPSHOT']);
    const changed = { ...BOARD, axes: [BOARD.axes[0], { axis: 'b', n: 3 }], limitations: ['x', 'y'] };
    source.publish(changed);
    const delta = sink.events()[2] as Record<string, any>;
    assert.equal(delta.type, 'STATE_DELTA');
    assert.deepEqual(delta.delta, [
      { op: 'replace', path: '/axes/1/n', value: 3 },
      { op: 'add', path: '/limitations/1', value: 'y' },
    ]);
    assert.deepEqual(delta.metadata, { source: '/api/gspc', etag: source.current.etag });
    const other = { entirely: 'different', rows: [1, 2] };
    source.publish(other);
    const resync = sink.events()[3] as Record<string, any>;
    assert.deepEqual([resync.type, resync.snapshot], ['STATE_SNAPSHOT', other]);
    t.mock.timers.tick(4_999);
    assert.equal(sink.ended, false);
    t.mock.timers.tick(1);
    assert.deepEqual(sink.types(), ['RUN_STARTED', 'STATE_SNAPSHOT', 'STATE_DELTA', 'STATE_SNAPSHOT', 'RUN_FINISHED']);
    assert.deepEqual((sink.events()[4] as Record<string, any>).result, { ended: 'hold_elapsed', board_changes: 2 });
    assert.deepEqual([sink.ended, source.listeners.size, stops()], [true, 0, 1]);
    // What a client holds at the end is the last served board.
    const folded = compactEvents(sink.events().filter((e) => e.type.startsWith('STATE_')));
    assert.deepEqual((folded[0] as Record<string, any>).snapshot, other);
  });

  it('keep-alive comments while held, none after the run ends', (t) => {
    const { sink, run } = runWith(t, { holdMs: 3_500, heartbeatMs: 1_000 });
    run.start();
    t.mock.timers.tick(3_000);
    assert.equal(sink.chunks.filter((c) => c === KEEP_ALIVE).length, 3);
    t.mock.timers.tick(500);
    assert.equal(sink.ended, true);
    t.mock.timers.tick(10_000);
    assert.equal(sink.chunks.filter((c) => c === KEEP_ALIVE).length, 3);
    assert.equal(sink.chunks.at(-1)!.includes('RUN_FINISHED'), true);
  });

  it('no heartbeat when the hold is shorter than its interval', (t) => {
    const { sink, run } = runWith(t, { holdMs: 500, heartbeatMs: 1_000 });
    run.start();
    t.mock.timers.tick(500);
    assert.deepEqual(
      sink.chunks.filter((c) => c === KEEP_ALIVE),
      [],
    );
    assert.equal(sink.ended, true);
  });

  it('a client that goes away: the listener and timers stop, nothing more is written', (t) => {
    const { source, sink, run, stops } = runWith(t, { holdMs: 5_000, heartbeatMs: 1_000 });
    run.start();
    run.abandon();
    run.abandon();
    assert.deepEqual([source.listeners.size, stops(), run.isStopped], [0, 1, true]);
    source.publish({ changed: true });
    t.mock.timers.tick(10_000);
    run.finish('server_closing');
    assert.deepEqual(sink.types(), ['RUN_STARTED', 'STATE_SNAPSHOT']);
    assert.equal(sink.ended, false);
  });

  it('finish is idempotent: one RUN_FINISHED, then the hold timer does nothing', (t) => {
    const { sink, run } = runWith(t, { holdMs: 5_000 });
    run.start();
    run.finish('server_closing');
    run.finish('hold_elapsed');
    t.mock.timers.tick(5_000);
    assert.deepEqual(sink.types(), ['RUN_STARTED', 'STATE_SNAPSHOT', 'RUN_FINISHED']);
    assert.deepEqual((sink.events()[2] as Record<string, any>).result, { ended: 'server_closing', board_changes: 0 });
  });
});
