/**
 * `gspc verify <url>` and the log's tiles (issue 42, item 3; MT9): a view's tiles must give the
 * root its checkpoint signs and its last bundle must hold the last entries of its
 * `/log/entries.json` (`log_tiles`); a view that serves no tiles (an older release, a mirror
 * exported before them) passes, and the check says the log was read from its entries alone.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gspc } from '../helpers/cli.js';
import { publishBoard, viewServer } from '../monitor/board.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- reports as JSON */
type Json = any;

const board = await publishBoard();

/** A view answering as the origin, with `change` applied to the paths it names (undefined: 404). */
function changed(change: (path: string, body: Buffer) => Buffer | undefined | 'as is') {
  return viewServer(async (req, res) => {
    const r = await fetch(`${board.served}${req.url}`);
    const body = Buffer.from(await r.arrayBuffer());
    const mine = r.status === 200 ? change(req.url!, body) : 'as is';
    if (mine === undefined) return void res.writeHead(404).end();
    res
      .writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' })
      .end(mine === 'as is' ? body : mine);
  });
}

async function logTiles(view: string): Promise<{ ok: boolean; detail: string; verdict: string }> {
  const r = await gspc(['verify', view, '--json']);
  const report: Json = JSON.parse(r.stdout);
  const c = report.checks.find((x: Json) => x.check === 'log_tiles');
  assert.ok(c, `no log_tiles check: ${r.stdout.slice(0, 400)}`);
  return { ok: c.ok, detail: c.detail, verdict: report.verdict };
}

describe('gspc verify <url>: the log served as tiles is the signed log', () => {
  it("honest: the right edge's tiles give the root, and the last bundle is the last entries", async () => {
    const c = await logTiles(board.served);
    assert.equal(c.ok, true, c.detail);
    assert.match(
      c.detail,
      /^the tiles of the right edge give the checkpoint's root \(\d+ tiles\) and the last bundle holds the last \d+ entries of \/log\/entries\.json$/,
    );
  });

  it('a view serving no tiles passes, and says the log was read from its entries alone', async () => {
    const view = await changed((path) => (path.startsWith('/log/tile/') ? undefined : 'as is'));
    const c = await logTiles(view);
    assert.equal(c.ok, true);
    assert.match(c.detail, /serves no tiles .* checked from \/log\/entries\.json alone/);
  });

  it('a tile with one byte changed: log_tiles fails, naming it', async () => {
    const view = await changed((path, b) => {
      if (!path.startsWith('/log/tile/0/')) return 'as is';
      b[3] = b[3]! ^ 1;
      return b;
    });
    const c = await logTiles(view);
    assert.equal(c.ok, false);
    assert.match(c.detail, /^the tiles are not the signed log: the tiles give another root at size \d+$/);
    assert.equal(c.verdict, 'INVALID');
  });

  it("a last bundle that is not entries.json's entries: log_tiles fails, naming the entry", async () => {
    const view = await changed((path, b) => {
      if (!path.startsWith('/log/tile/entries/')) return 'as is';
      b[b.length - 1] = b[b.length - 1]! ^ 1;
      return b;
    });
    const c = await logTiles(view);
    assert.equal(c.ok, false);
    assert.match(c.detail, /^entry \d+ of the last bundle is not \/log\/entries\.json's$/);
  });
});
