/**
 * What `/api/agui/gspc-state` accepts: `RunAgentInput` bodies checked with `@ag-ui/core`'s schema,
 * the hold a client may ask for, GET's query; and the 400/413 JSON errors for everything else.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GspcError } from '../../src/core/errors.js';
import {
  DEFAULT_HOLD_SECONDS,
  GET_THREAD_ID,
  MAX_HOLD_SECONDS,
  readGetRun,
  readRunInput,
} from '../../src/surfaces/agui/run-input.js';
import { demoApp } from '../helpers/app.js';

const PATH = '/api/agui/gspc-state';
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
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof GspcError);
    return e.code;
  }
  return assert.fail('expected a GspcError');
};

describe('reading a run request', () => {
  it('a RunAgentInput: ids echoed, the default hold, or the hold asked for (fractions allowed)', () => {
    assert.deepEqual(readRunInput(input()), { threadId: 'th', runId: 'ru', holdMs: DEFAULT_HOLD_SECONDS * 1000 });
    assert.equal(readRunInput(input({ forwardedProps: { hold_seconds: 0 } })).holdMs, 0);
    assert.equal(readRunInput(input({ forwardedProps: { hold_seconds: 1.5 } })).holdMs, 1500);
    assert.equal(
      readRunInput(input({ forwardedProps: { hold_seconds: MAX_HOLD_SECONDS } })).holdMs,
      MAX_HOLD_SECONDS * 1000,
    );
    // Only threadId, runId and messages are required (the schema's rule); the rest is ignored.
    assert.deepEqual(readRunInput({ threadId: 't', runId: 'r', messages: [] }), {
      threadId: 't',
      runId: 'r',
      holdMs: DEFAULT_HOLD_SECONDS * 1000,
    });
    assert.equal(
      readRunInput(input({ forwardedProps: 'opaque' })).holdMs,
      DEFAULT_HOLD_SECONDS * 1000,
      'non-object forwardedProps carry no hold',
    );
    assert.equal(
      readRunInput(input({ state: { axes: ['forged'] }, messages: [{ id: 'm', role: 'user', content: 'hi' }] }))
        .threadId,
      'th',
    );
  });
  it('refuses what is not a RunAgentInput, and holds outside 0..MAX', () => {
    for (const bad of [
      {},
      [],
      'text',
      null,
      { threadId: 1, runId: 'r', messages: [] },
      { threadId: 't', runId: 'r' },
      input({ messages: [{ role: 'nobody' }] }),
    ]) {
      assert.equal(
        code(() => readRunInput(bad)),
        'bad_body',
        JSON.stringify(bad),
      );
    }
    for (const hold of [-1, MAX_HOLD_SECONDS + 0.001, '5', null, Number.NaN, true]) {
      assert.equal(
        code(() => readRunInput(input({ forwardedProps: { hold_seconds: hold } }))),
        'bad_body',
        String(hold),
      );
    }
    assert.equal(
      code(() => readRunInput(input({ threadId: 'x'.repeat(257) }))),
      'bad_body',
    );
    assert.equal(
      code(() => readRunInput(input({ runId: 'x'.repeat(257) }))),
      'bad_body',
    );
    assert.equal(readRunInput(input({ runId: 'x'.repeat(256) })).runId.length, 256);
  });
  it('a GET: the service picks the ids, no hold unless ?hold_seconds= asks', () => {
    assert.deepEqual(
      readGetRun(PATH, () => 'id-1'),
      { threadId: GET_THREAD_ID, runId: 'id-1', holdMs: 0 },
    );
    assert.equal(readGetRun(`${PATH}?hold_seconds=2.5`, () => 'x').holdMs, 2500);
    for (const q of [
      'hold_seconds=abc',
      `hold_seconds=${MAX_HOLD_SECONDS + 1}`,
      'hold_seconds=1e2',
      'hold_seconds=-1',
      'hold_seconds=',
      'hold_seconds=1&hold_seconds=2',
      'other=1',
    ]) {
      assert.equal(
        code(() => readGetRun(`${PATH}?${q}`, () => 'x')),
        'bad_query',
        q,
      );
    }
  });
});

describe('errors on the wire', () => {
  const { app } = demoApp();
  const post = (
    payload: string | object,
    headers: Record<string, string> = { 'content-type': 'application/json' },
    url = PATH,
  ) =>
    app.inject({
      method: 'POST',
      url,
      headers: { accept: 'text/event-stream', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  it('a malformed RunAgentInput is a 400 JSON error naming the issues, with the CORS headers', async () => {
    const res = await post({ threadId: 1, runId: 'r', messages: [] });
    assert.equal(res.statusCode, 400);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(res.headers['access-control-allow-origin'], '*');
    const body = res.json() as { code: string; error: string; issues: { path: string; message: string }[] };
    assert.equal(body.code, 'bad_body');
    assert.deepEqual(
      body.issues.map((i) => i.path),
      ['threadId'],
    );
    const hold = (await post(input({ forwardedProps: { hold_seconds: 301 } }))).json() as Record<string, unknown>;
    assert.deepEqual([hold.code, hold.max_hold_seconds], ['bad_body', MAX_HOLD_SECONDS]);
  });
  it('a body that is not JSON, not an object, too large, or a POST with a query string', async () => {
    assert.deepEqual(
      [(await post('{"threadId": ')).statusCode, (await post('{"threadId": ')).json().code],
      [400, 'bad_body'],
    );
    assert.deepEqual(
      [
        (await post('hello', { 'content-type': 'text/plain' })).statusCode,
        (await post('hello', { 'content-type': 'text/plain' })).json().code,
      ],
      [400, 'bad_body'],
    );
    assert.equal((await post(input({ pad: 'x'.repeat(1024 * 1024) }))).statusCode, 413);
    const q = await post(input(), undefined, `${PATH}?hold_seconds=1`);
    assert.deepEqual([q.statusCode, q.json().code], [400, 'bad_query']);
  });
  it('a GET with a bad query is a 400 bad_query', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `${PATH}?hold_seconds=forever`,
      headers: { accept: 'text/event-stream' },
    });
    assert.deepEqual(
      [res.statusCode, res.json().code, res.headers['access-control-allow-origin']],
      [400, 'bad_query', '*'],
    );
  });
});
