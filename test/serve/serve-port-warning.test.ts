/**
 * Review R2, first-time use: `gspc serve --public-url http://localhost:8182` listened on 8080 and
 * said nothing, so the board it named answered nowhere. The service now warns when its public
 * URL is a loopback origin on another port than the one it listens on (src/service.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { localOriginElsewhere } from '../../src/service.js';

describe('serve: a loopback public URL on another port', () => {
  it('names the port the public URL gives when the service listens elsewhere, and nothing otherwise', () => {
    assert.equal(localOriginElsewhere('http://localhost:8182', 8080), 8182);
    assert.equal(localOriginElsewhere('http://127.0.0.1:9000', 8080), 9000);
    assert.equal(localOriginElsewhere('http://[::1]:9000', 8080), 9000);
    assert.equal(localOriginElsewhere('http://localhost', 8080), 80);
    assert.equal(localOriginElsewhere('http://localhost:8080', 8080), undefined);
    // Another host is reached through whatever forwards it: no warning.
    assert.equal(localOriginElsewhere('https://board.example.org', 8080), undefined);
  });
});
