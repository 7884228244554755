/**
 * Which `gspc serve` is its DID's host (issue 36, decision K13): only one that is not a replica,
 * whose public origin is the DID's host and, for a loopback origin, listens on that origin's
 * port. Any other (a replica `gspc pull` filled, a public origin other than the DID's host, an
 * impostor on another local port) reads its keys at the DID's host.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REPLICA_MARKER } from '../../src/release/release-keys.js';
import { atDidHost } from '../../src/service.js';
import { tempDir } from '../helpers/tmp.js';

describe('a service at its DID’s host', () => {
  const dataDir = tempDir();
  const at = (baseUrl: string, port: number, did: string, dir = dataDir) =>
    atDidHost({ dataDir: dir, baseUrl, port }, did);

  it('is the host when its origin is the DID’s host and, on loopback, it listens on that port', () => {
    assert.equal(at('http://localhost:8080', 8080, 'did:web:localhost%3A8080'), true);
    assert.equal(at('https://board.example', 8080, 'did:web:board.example'), true, 'behind a proxy: not judged');
  });

  it('is not the host on another local port, with another public origin, or as a replica', () => {
    assert.equal(at('http://localhost:8080', 9090, 'did:web:localhost%3A8080'), false);
    assert.equal(at('https://www.board.example', 8080, 'did:web:board.example'), false);
    assert.equal(at('http://board.example', 8080, 'did:web:board.example'), false, 'did:web is https');
    const replica = tempDir();
    writeFileSync(join(replica, REPLICA_MARKER), '{}\n');
    assert.equal(at('https://board.example', 8080, 'did:web:board.example', replica), false);
  });
});
