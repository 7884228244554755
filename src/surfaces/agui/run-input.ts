/**
 * What a board run needs from its request: the ids it echoes and how long it stays open.
 * POST bodies are AG-UI `RunAgentInput`s (AG-UI 1.0 "Architecture": an agent endpoint accepts a
 * POST of a `RunAgentInput`), checked with `@ag-ui/core`'s own schema; a GET (the specification's
 * "GET /api/agui/gspc-state", the capability fabric's probe, a browser `EventSource`) names no
 * ids, so the service chooses them. `messages`, `tools`, `context` and the client's `state` are
 * never read: the board is the service's state, not the client's.
 */
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { GspcError } from '../../core/errors.js';
import { readQuery } from '../../serve/query.js';

/** How long a POST run stays open for live deltas when the client does not say (G3). */
export const DEFAULT_HOLD_SECONDS = 30;
/** The longest hold a client may ask for (`forwardedProps.hold_seconds`, `?hold_seconds=`). */
export const MAX_HOLD_SECONDS = 300;
/** Longest `threadId` / `runId` echoed back: ids are labels, not payloads. */
export const MAX_ID_LENGTH = 256;
/** The thread every GET run belongs to (a GET carries no ids of its own). */
export const GET_THREAD_ID = 'gspc-state';

export interface RunRequest {
  threadId: string;
  runId: string;
  /** Milliseconds the run stays open after its snapshot; 0 finishes at once. */
  holdMs: number;
}

const MAX_ISSUES = 10;

function holdMs(value: unknown, where: string, code: 'bad_body' | 'bad_query'): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_HOLD_SECONDS) {
    throw new GspcError(code, `${where} must be a number of seconds from 0 to ${MAX_HOLD_SECONDS}`, {
      max_hold_seconds: MAX_HOLD_SECONDS,
    });
  }
  return Math.round(value * 1000);
}

function id(value: string, name: string): string {
  if (value.length > MAX_ID_LENGTH)
    throw new GspcError('bad_body', `${name} is longer than ${MAX_ID_LENGTH} characters`);
  return value;
}

/**
 * Reads a POST body as a `RunAgentInput` (`@ag-ui/core/schemas`). A body the schema rejects is a
 * `bad_body` (400) naming the first issues; so is a `forwardedProps.hold_seconds` that is not a
 * number of seconds within {@link MAX_HOLD_SECONDS}.
 */
export function readRunInput(body: unknown): RunRequest {
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, MAX_ISSUES)
      .map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
    throw new GspcError(
      'bad_body',
      'the body is not an AG-UI RunAgentInput (threadId, runId and messages are required)',
      { issues },
    );
  }
  const input = parsed.data;
  const props: unknown = input.forwardedProps;
  // forwardedProps is opaque to the protocol; only an object can carry hold_seconds.
  const asked =
    props !== null && typeof props === 'object' && !Array.isArray(props) && Object.hasOwn(props, 'hold_seconds')
      ? holdMs((props as Record<string, unknown>).hold_seconds, 'forwardedProps.hold_seconds', 'bad_body')
      : DEFAULT_HOLD_SECONDS * 1000;
  return { threadId: id(input.threadId, 'threadId'), runId: id(input.runId, 'runId'), holdMs: asked };
}

/**
 * Reads a GET run: the only query parameter is `hold_seconds` (default 0: the snapshot, then
 * RUN_FINISHED at once, so a probe or a plain client is answered promptly). Ids are chosen here.
 */
export function readGetRun(url: string, newRunId: () => string): RunRequest {
  const hold = readQuery(url, ['hold_seconds']).get('hold_seconds');
  // Decimal seconds only: "1e3", "0x10" or " 5" are not read as numbers by accident.
  if (hold !== undefined && !/^\d+(\.\d+)?$/.test(hold))
    throw new GspcError('bad_query', `hold_seconds must be a number of seconds from 0 to ${MAX_HOLD_SECONDS}`, {
      max_hold_seconds: MAX_HOLD_SECONDS,
    });
  return {
    threadId: GET_THREAD_ID,
    runId: newRunId(),
    holdMs: hold === undefined ? 0 : holdMs(Number(hold), 'hold_seconds', 'bad_query'),
  };
}
