/** `/mcp`'s DNS-rebinding rule (decision T2), as a function of the Host and Origin headers. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rebindingProblem } from '../../src/surfaces/mcp/origin-check.js';

const PUBLIC = 'https://board.example.org';

describe('rebindingProblem', () => {
  it('serves the public host and loopback names on any port, with no Origin or an allowed one', () => {
    for (const host of ['board.example.org', 'BOARD.example.org:443', 'localhost:8080', '127.0.0.1', '[::1]:9000'])
      assert.equal(rebindingProblem({ host }, PUBLIC), undefined, host);
    for (const origin of ['https://board.example.org', 'http://localhost:6274', 'http://127.0.0.1', 'http://[::1]:1'])
      assert.equal(rebindingProblem({ host: 'board.example.org', origin }, PUBLIC), undefined, origin);
  });
  it('refuses a foreign or missing Host, and a foreign, null or malformed Origin', () => {
    for (const host of [undefined, 'evil.example.com', 'board.example.org.evil.com', 'gspc_replicas'])
      assert.match(
        String(rebindingProblem({ host }, PUBLIC)),
        /Host header .* does not name this service/,
        String(host),
      );
    for (const origin of ['http://evil.example.com', 'null', 'not a url', 'http://board.example.org', 'file:///x'])
      assert.match(
        String(rebindingProblem({ host: 'board.example.org', origin }, PUBLIC)),
        /Origin .* is not this service's/,
        origin,
      );
  });
});
