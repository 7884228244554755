/**
 * A monitor alert says what was fetched, from where, and why it failed (issue 39, item 6): the
 * operator saw only "fetch failed", undici's message, whose reason is in its `cause`. And an
 * alert about a witness (`--submit-witness`) names it as `witness`, as the `submitted` line does,
 * not as a `view` it is not.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fetchFailure } from '../../src/verify/fetch-failure.js';
import { freePort } from '../helpers/process.js';
import { tempDir } from '../helpers/tmp.js';
import { monitorOnce, publishBoard } from './board.js';

const undici = (cause: object) => Object.assign(new TypeError('fetch failed'), { cause });

describe('why a fetch failed, in words', () => {
  it('names the code, what it means and the underlying error; never only "fetch failed"', () => {
    assert.equal(
      fetchFailure(undici({ code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND witness.example' })),
      'the host name does not resolve (DNS) (getaddrinfo ENOTFOUND witness.example)',
    );
    assert.equal(
      fetchFailure(undici({ code: 'UND_ERR_CONNECT_TIMEOUT', message: 'Connect Timeout Error' })),
      'the connection timed out (UND_ERR_CONNECT_TIMEOUT: Connect Timeout Error)',
    );
    // Happy eyeballs: one error per address tried, the code on the aggregate or on each.
    const both = Object.assign(
      new AggregateError([Object.assign(new Error('connect ETIMEDOUT ::1:443'), { code: 'ETIMEDOUT' })]),
      {
        message: '',
      },
    );
    assert.equal(fetchFailure(undici(both)), 'the connection timed out (connect ETIMEDOUT ::1:443)');
    assert.equal(
      fetchFailure(undici({ code: 'CERT_HAS_EXPIRED', message: 'certificate has expired' })),
      'its TLS certificate was refused (CERT_HAS_EXPIRED: certificate has expired)',
    );
    assert.equal(fetchFailure(undici({ code: 'EWHATEVER', message: 'something' })), 'EWHATEVER: something');
    assert.equal(fetchFailure(new TypeError('fetch failed')), 'fetch failed');
    assert.equal(
      fetchFailure(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      'no whole answer in time (The operation was aborted due to timeout)',
    );
  });
});

describe('gspc monitor: alerts that say where and why', () => {
  it('a view that refuses connections: the URL fetched and ECONNREFUSED, explained', async () => {
    const port = await freePort();
    const r = await monitorOnce([`http://127.0.0.1:${port}`], tempDir());
    assert.equal(r.status, 1);
    assert.equal(r.lines[0].alert, 'unreachable');
    assert.match(
      r.lines[0].detail,
      new RegExp(
        `^GET http://127\\.0\\.0\\.1:${port}/\\S+ failed: connection refused: nothing listens at that address and port \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)$`,
      ),
    );
  });

  it('a witness that cannot be reached: witness_submit names the witness (not a view), the POST, the checkpoint and the cause', async () => {
    const board = await publishBoard();
    const witness = `http://127.0.0.1:${await freePort()}`;
    const r = await monitorOnce([board.origin], tempDir(), ['--submit-witness', witness]);
    assert.equal(r.status, 1, JSON.stringify(r.lines));
    const alert = r.lines.find((l) => l.alert === 'witness_submit');
    assert.ok(alert !== undefined, JSON.stringify(r.lines));
    assert.deepEqual(Object.keys(alert).sort(), ['alert', 'detail', 'time', 'witness']);
    assert.equal(alert.witness, witness);
    assert.match(
      alert.detail,
      new RegExp(
        `^the witness could not be reached: POST ${witness.replace(/\./g, '\\.')}/add-checkpoint \\(the checkpoint of size \\d+\\) failed: connection refused: nothing listens at that address and port \\(connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+\\)$`,
      ),
    );
  });
});
