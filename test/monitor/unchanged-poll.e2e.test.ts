/**
 * What a poll of an unchanged board costs against the real service (issue 42, item 3; MT1, MT4):
 * watched through a proxy that counts every request, after the first poll (the whole log, and
 * the full verification), a poll fetches the checkpoint and one other body: no tile, no
 * `/log/entries.json`, and every other document (the DID document, release documents, the
 * per-item manifest's files) answers 304 to the ETag the monitor kept. The other body is
 * `/api/corrections`, built on each request (its `correction_latency` is computed per request)
 * and served without an ETag, so no conditional request can spare it (MT4 states it).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pollOnce } from '../../src/verify/monitor.js';
import { tempDir } from '../helpers/tmp.js';
import { publishBoard, viewServer } from './board.js';

interface Seen {
  path: string;
  status: number;
  bytes: number;
}

describe('gspc monitor: an unchanged board costs the checkpoint and 304s', () => {
  it('after the first poll, the checkpoint and /api/corrections are the only bodies; the log is read by no tile and no entries.json', async () => {
    const board = await publishBoard();
    const seen: Seen[] = [];
    const proxy = await viewServer(async (req, res) => {
      const headers: Record<string, string> = {};
      const inm = req.headers['if-none-match'];
      if (typeof inm === 'string') headers['if-none-match'] = inm;
      const r = await fetch(`${board.served}${req.url}`, { headers });
      const body = Buffer.from(await r.arrayBuffer());
      seen.push({ path: req.url!, status: r.status, bytes: body.length });
      const out: Record<string, string> = { 'content-type': r.headers.get('content-type') ?? 'application/json' };
      const etag = r.headers.get('etag');
      if (etag !== null) out.etag = etag;
      res.writeHead(r.status, out).end(r.status === 304 ? undefined : body);
    });
    const dir = tempDir();
    const now = () => new Date();
    const first = await pollOnce([proxy], dir, now);
    assert.deepEqual(first.alerts, []);
    assert.deepEqual(
      first.log.map((l) => l.read),
      ['entries.json'],
    );
    const firstCount = seen.length;
    seen.length = 0;
    const second = await pollOnce([proxy], dir, now);
    assert.deepEqual(second.alerts, []);
    assert.deepEqual(second.log, [{ view: proxy, read: 'tiles', requests: 0, bytes: 0 }]);
    const bodies = seen.filter((s) => s.status === 200).map((s) => s.path);
    assert.deepEqual(bodies, ['/log/checkpoint', '/api/corrections'], JSON.stringify(seen));
    assert.equal(seen.filter((s) => s.path.startsWith('/log/tile/')).length, 0);
    const notModified = seen.filter((s) => s.status === 304).length;
    const notFound = seen.filter((s) => s.status === 404).map((s) => s.path);
    // This board's keys never changed: no transitions document, at the view and the DID's host (not proxied).
    assert.deepEqual(notFound, ['/keys/transitions.json', '/keys/transitions.json']);
    assert.equal(notModified + notFound.length + bodies.length, seen.length);
    const bytes = seen.reduce((n, s) => n + (s.status === 200 ? s.bytes : 0), 0);
    console.log(
      `unchanged poll of the demo board: ${seen.length} requests (first poll ${firstCount}): bodies ${bodies.join(', ')} (${bytes} bytes), ${notModified} 304, ${notFound.length} 404`,
    );
  });
});
