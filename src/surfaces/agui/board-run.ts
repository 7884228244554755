/**
 * One AG-UI run over the served board (AG-UI 1.0 "Events" and "State Management"):
 * RUN_STARTED → STATE_SNAPSHOT (the `/api/gspc` document with the axes' tie groups) → a
 * STATE_DELTA (RFC 6902) each time the served state changes while the run is held open →
 * RUN_FINISHED, after which nothing is
 * written. Presentation transport only (specification, "Other endpoints"): it reads the served
 * bytes and proves nothing about provider execution. Transport-free: the route gives it a sink.
 */
import { EventType, PROTOCOL_VERSION, type BaseEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import type { Prepared } from '../../serve/prepared-bytes.js';
import { ANSWER_MAX_BYTES, jsonBytes } from '../answer-budget.js';
import { ENVELOPE_BYTES } from '../axis-answer.js';
import { diffJson, type JsonValue, type PatchOperation } from './json-patch.js';
import { chunkOperations, splitState } from './state-events.js';

/** The JSON a snapshot or delta may carry in one event: every event stays within 64 kB. */
const EVENT_BUDGET = ANSWER_MAX_BYTES - ENVELOPE_BYTES;

/** What a run sends as its state: JSON bytes, and the ETag its metadata names. */
export type RunState = Pick<Prepared, 'body' | 'etag'>;

/**
 * Where a run reads its state (the served board with its tie groups, agui-routes.ts) and the
 * changes to it.
 */
export interface BoardSource {
  board(): RunState;
  /** Called with the new state after every swap; returns the function that stops it. */
  onBoard(listener: (board: RunState) => void): () => void;
}

/** Where a run writes its frames. */
export interface RunSink {
  write(chunk: string): void;
  end(): void;
}

/** Why a run finished, reported in RUN_FINISHED's `result.ended`. */
export type RunEnd = 'no_hold' | 'hold_elapsed' | 'server_closing' | 'busy';

export interface BoardRunOptions {
  threadId: string;
  runId: string;
  /** How long the run stays open after its snapshot; 0 (or `busy`) finishes at once. */
  holdMs: number;
  /** Interval of SSE keep-alive comments while held; 0 sends none. */
  heartbeatMs: number;
  /** The service is at its limit of held runs: snapshot, then RUN_FINISHED `busy`. */
  busy?: boolean;
  now: () => Date;
  /** Called once when the run stops, whichever way (finished or abandoned). */
  onStop?: () => void;
}

/** The SSE comment sent to keep idle proxies from closing a held stream; clients ignore it. */
export const KEEP_ALIVE = ': keep-alive\n\n';
/** What snapshots and deltas say they mirror. */
export const BOARD_SOURCE = '/api/gspc';
const NOTE = 'presentation transport only; does not prove provider execution';

// One parse per served board, shared by every open run (the parsed value is never mutated).
const parsed = new WeakMap<RunState, JsonValue>();
function boardDocument(p: RunState): JsonValue {
  let doc = parsed.get(p);
  if (doc === undefined) {
    doc = JSON.parse(p.body.toString('utf8')) as JsonValue;
    parsed.set(p, doc);
  }
  return doc;
}

export class BoardRun {
  private readonly encoder = new EventEncoder();
  private stopped = false;
  private last: RunState | undefined;
  private changes = 0;
  private unsubscribe: (() => void) | undefined;
  private holdTimer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly source: BoardSource,
    private readonly sink: RunSink,
    private readonly o: BoardRunOptions,
  ) {}

  /** Writes RUN_STARTED and the snapshot, then holds (listening for board changes) or finishes. */
  start(): void {
    const { threadId, runId } = this.o;
    this.emit({
      type: EventType.RUN_STARTED,
      threadId,
      runId,
      protocolVersion: PROTOCOL_VERSION,
      metadata: { presentation_only: true, note: NOTE },
    });
    // Subscribed in the same tick as the snapshot is read: swaps are synchronous, so no change
    // can fall between the two.
    this.last = this.source.board();
    this.emitState(this.last);
    if (this.o.busy || this.o.holdMs <= 0) return this.finish(this.o.busy ? 'busy' : 'no_hold');
    this.unsubscribe = this.source.onBoard((next) => this.changed(next));
    // Timers stay referenced: a run that failed to clear them would keep the process alive, which
    // tests notice; preClose finishes every held run, so they never delay a shutdown.
    this.holdTimer = setTimeout(() => this.finish('hold_elapsed'), this.o.holdMs);
    if (this.o.heartbeatMs > 0 && this.o.heartbeatMs < this.o.holdMs) {
      this.heartbeat = setInterval(() => {
        if (!this.stopped) this.sink.write(KEEP_ALIVE);
      }, this.o.heartbeatMs);
    }
  }

  /** Ends the run with RUN_FINISHED (the last frame) and closes the sink; idempotent. */
  finish(ended: RunEnd): void {
    if (this.stopped) return;
    this.stop();
    const { threadId, runId } = this.o;
    this.emit({ type: EventType.RUN_FINISHED, threadId, runId, result: { ended, board_changes: this.changes } });
    this.sink.end();
  }

  /** The client went away: stop listening and timing, write nothing; idempotent. */
  abandon(): void {
    if (!this.stopped) this.stop();
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  private stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearTimeout(this.holdTimer);
    clearInterval(this.heartbeat);
    this.o.onStop?.();
  }

  private changed(next: RunState): void {
    const last = this.last;
    // A swap that leaves the board's bytes alone (witness evidence, a re-read) sends nothing.
    if (this.stopped || last === undefined || next === last || next.body.equals(last.body)) return;
    this.last = next;
    const delta = diffJson(boardDocument(last), boardDocument(next));
    if (delta.length === 0) return;
    const metadata = { source: BOARD_SOURCE, etag: next.etag };
    this.changes++;
    // A patch larger than the board itself buys nothing: resynchronise with a snapshot (G5); so
    // does one with an operation larger than an event. Otherwise the patch in events of 64 kB.
    const runs = chunkOperations(delta, EVENT_BUDGET);
    if (jsonBytes(delta) > next.body.length || runs.some((r) => r.length === 1 && jsonBytes(r) > EVENT_BUDGET))
      this.emitState(next);
    else for (const run of runs) this.emit({ type: EventType.STATE_DELTA, delta: run, metadata });
  }

  /**
   * The whole state: one STATE_SNAPSHOT, or, larger than an event holds, a snapshot with its
   * largest members emptied and the deltas that put them back (state-events.ts).
   */
  private emitState(state: RunState): void {
    const metadata = { source: BOARD_SOURCE, etag: state.etag };
    const { snapshot, deltas } = splitState(boardDocument(state) as { [key: string]: JsonValue }, EVENT_BUDGET);
    this.emit({ type: EventType.STATE_SNAPSHOT, snapshot, metadata });
    for (const delta of deltas) this.emit({ type: EventType.STATE_DELTA, delta: delta as PatchOperation[], metadata });
  }

  private emit(event: BaseEvent): void {
    this.sink.write(this.encoder.encodeSSE({ ...event, timestamp: this.o.now().getTime() }));
  }
}
