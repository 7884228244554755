/**
 * `gspc monitor` reading a log by its C2SP tiles (issue 42, item 3, "Done when"): watching a
 * 1,000,000-entry log, a poll of the unchanged log fetches the checkpoint and no tile (the other
 * documents are 304s or 404s, counted), and a poll after 1,000 new entries fetches O(log n) hash
 * tiles and the bundles of the new entries only. The test server counts every request and byte.
 * Then the lies, each with its alert: a tile of the wrong level, a bundle that does not hash to
 * the leaves, tiles that do not give the signed root, a shrinking log, a fork between two views.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { verifyConsistency } from '../../src/core/evidence/merkle/rfc6962-verify.js';
import { parseAddCheckpointRequest } from '../../src/core/evidence/note/witness.js';
import { parseMonitorState, STATE_SCHEMA } from '../../src/core/monitor/monitor-state.js';
import { pollOnce } from '../../src/verify/monitor.js';
import { releaseDigest } from '../../src/verify/monitor-documents.js';
import { boundedGet, DEFAULT_LIMITS } from '../../src/verify/monitor-fetch.js';
import { statePath, writeMonitorState } from '../../src/verify/monitor-state-file.js';
import { tempDir } from '../helpers/tmp.js';
import { costOf, type SyntheticLog, syntheticLog, type TiledView, tiledView as serve } from './tiled-log.js';

/** A tiled view closed when the file's tests end. */
async function tiledView(log: SyntheticLog, size: number, didPort?: number): Promise<TiledView> {
  const v = await serve(log, size, didPort);
  after(() => v.close());
  return v;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const now = () => new Date('2026-11-29T05:00:00Z');

/**
 * A monitor state that verified `views` at `size` (as a clean poll of the entries would have left
 * it), with the digest of each of `digested` too (views that serve no release documents, so a
 * full verification is never due).
 */
async function stateAt(
  views: readonly TiledView[],
  log: SyntheticLog,
  size: number,
  digested: readonly TiledView[] = [],
): Promise<string> {
  const dir = tempDir();
  const documents: Record<string, string> = {};
  for (const v of [...views, ...digested])
    documents[v.url] = await releaseDigest(boundedGet(v.url, DEFAULT_LIMITS, new AbortController().signal));
  writeMonitorState(dir, {
    schema: STATE_SCHEMA,
    views: views.map((v) => v.url),
    last: { size, root: hex(log.rootAt(size)), boardKey: views[0]!.boardX },
    did: views[0]!.did,
    log_origin: `${views[0]!.did.slice('did:web:'.length).replace('%3A', ':')}/log`,
    documents,
    transition_leaves: {},
  });
  for (const v of [...views, ...digested]) v.log.length = 0;
  return dir;
}

const poll = (views: readonly TiledView[], dir: string) =>
  pollOnce(
    views.map((v) => v.url),
    dir,
    now,
  );
const kinds = (r: Awaited<ReturnType<typeof poll>>) => r.alerts.map((a) => a.alert).sort();

describe('gspc monitor over a 1,000,000-entry log served as tiles', () => {
  const N = 1_000_000;
  const log = syntheticLog(N);

  it('an unchanged poll fetches the checkpoint and no tile; after 1,000 new entries, O(log n) tiles and the new bundles', async () => {
    const view = await tiledView(log, N - 1000);
    const dir = await stateAt([view], log, N - 1000);

    const same = await poll([view], dir);
    assert.deepEqual(kinds(same), [], JSON.stringify(same.alerts));
    let cost = costOf(view.log);
    assert.equal(cost.checkpoints, 1);
    assert.equal(cost.tiles + cost.bundles, 0, 'no tile and no bundle for an unchanged log');
    // Every other answer is a 304 (the DID document, kept from the state's first read) or a 404
    // (this view serves no release documents): no body but the checkpoint's.
    assert.deepEqual(
      cost.otherBodies,
      ['/.well-known/did.json', '/.well-known/did.json'],
      'first poll: the DID document, at the view and at the DID host, read once',
    );
    const first = cost;
    view.log.length = 0;
    const again = await poll([view], dir);
    assert.deepEqual(kinds(again), []);
    cost = costOf(view.log);
    assert.deepEqual(cost.otherBodies, [], 'the DID document is now a 304 too');
    assert.equal(cost.tiles + cost.bundles, 0);
    assert.ok(cost.notModified >= 2, `${cost.notModified} 304s`);
    assert.equal(cost.notModified, again.conditional.notModified);
    assert.equal(cost.requests, first.requests);
    // The checkpoint is the only body of the poll.
    assert.equal(cost.bytes, view.log.find((r) => r.path === '/log/checkpoint')!.bytes);

    view.log.length = 0;
    view.size = N;
    const grown = await poll([view], dir);
    assert.deepEqual(kinds(grown), [], JSON.stringify(grown.alerts));
    assert.equal(grown.last?.size, N);
    assert.equal(grown.last?.root, hex(log.rootAt(N)));
    cost = costOf(view.log);
    // 1,000 entries from 999,000: bundles 3,902 to 3,906 (the last partial: 64 entries).
    assert.equal(cost.bundles, 5);
    // The old size's peaks: at most two tiles a level, three levels (log256 10^6 < 3).
    assert.ok(cost.tiles <= 6, `${cost.tiles} tiles: ${view.log.map((r) => r.path).join(' ')}`);
    assert.ok(cost.tileBytes + cost.bundleBytes < 100_000, `${cost.tileBytes} + ${cost.bundleBytes} bytes`);
    assert.deepEqual(grown.log, [
      { view: view.url, read: 'tiles', requests: cost.tiles + cost.bundles, bytes: cost.tileBytes + cost.bundleBytes },
    ]);
    const state = JSON.parse(readFileSync(statePath(dir), 'utf8'));
    assert.equal(state.last.size, N);
    assert.deepEqual(state.transition_leaves, {});
    // A poll of the grown log, now unchanged, fetches no tile again.
    view.log.length = 0;
    assert.deepEqual(kinds(await poll([view], dir)), []);
    assert.equal(costOf(view.log).tiles + costOf(view.log).bundles, 0);
    console.log(
      `monitor at ${N}: unchanged poll ${first.requests} requests (${again.conditional.notModified} 304, ${again.conditional.conditional} conditional), ` +
        `grown by 1,000: ${cost.tiles} tiles ${cost.tileBytes} B + ${cost.bundles} bundles ${cost.bundleBytes} B`,
    );
  });
});

describe('gspc monitor: lies told through tiles, each with its alert', () => {
  const S = 5_000;
  const log = syntheticLog(S);
  // Another log that agrees up to entry 2,000 and then differs, signed by the same board key.
  const fork = syntheticLog(S, 2_000);

  it('a tile of the wrong level (level 1 served with level 0 bytes): tiles_invalid', async () => {
    const view = await tiledView(log, S - 1000);
    const dir = await stateAt([view], log, S - 1000);
    view.size = S;
    view.tamper = (path, b) =>
      path.startsWith('/log/tile/1/') ? Buffer.from(log.tree.hashes(0, 0, b.length / 32)) : b;
    const r = await poll([view], dir);
    assert.deepEqual(kinds(r), ['tiles_invalid'], JSON.stringify(r.alerts));
    assert.equal(r.last?.size, S - 1000, 'nothing learnt');
  });

  it('a bundle whose entries do not hash to the leaves: tiles_invalid, naming the bundles', async () => {
    const view = await tiledView(log, S - 1000);
    const dir = await stateAt([view], log, S - 1000);
    view.size = S;
    view.tamper = (path, b) => {
      if (path.startsWith('/log/tile/entries/')) b[10] = b[10]! ^ 1;
      return b;
    };
    const r = await poll([view], dir);
    assert.deepEqual(kinds(r), ['tiles_invalid']);
    assert.match(r.alerts[0]!.detail, /entry bundles are not the log's new entries/);
  });

  it('a bundle cut short, or with an entry too few: tiles_invalid', async () => {
    const view = await tiledView(log, S - 1000);
    const dir = await stateAt([view], log, S - 1000);
    view.size = S;
    view.tamper = (path, b) => (path.startsWith('/log/tile/entries/') ? b.subarray(0, b.length - 34) : b);
    const r = await poll([view], dir);
    assert.deepEqual(kinds(r), ['tiles_invalid']);
    assert.match(r.alerts[0]!.detail, /has 255 entries, not 256|entries, not/);
  });

  it('tiles and bundles of another log than the checkpoint signs: tiles_invalid', async () => {
    const view = await tiledView(log, S - 1000);
    const dir = await stateAt([view], log, S - 1000);
    view.size = S;
    view.served = syntheticLog(S, S - 500);
    const r = await poll([view], dir);
    assert.deepEqual(kinds(r), ['tiles_invalid']);
    assert.match(r.alerts[0]!.detail, /do not give the root the checkpoint signs/);
  });

  it('a shrinking log: rollback when its entries are the first ones (an honest view shows it), fork when not', async () => {
    const honest = await tiledView(log, S - 1000);
    const behind = await tiledView(log, S - 1500, Number(new URL(honest.url).port));
    const forked = await tiledView(fork, S - 1500, Number(new URL(honest.url).port));
    // A state per poll: a poll keeps the documents' digests of the views it polled only.
    const fresh = () => stateAt([honest], log, S - 1000, [behind, forked]);
    const r = await poll([honest, behind], await fresh());
    assert.deepEqual(
      r.alerts.map((a) => [a.alert, a.view]),
      [['rollback', behind.url]],
      JSON.stringify(r.alerts),
    );
    assert.match(r.alerts[0]!.detail, /they are the first 3500 of that log/);
    const f = await poll([honest, forked], await fresh());
    assert.deepEqual(kinds(f), ['fork', 'split_view'], JSON.stringify(f.alerts));
    assert.match(f.alerts.find((a) => a.alert === 'fork')!.detail, /a fork, not a rollback/);
    // Alone, a smaller log cannot be told from a rollback (the monitor keeps no entries).
    assert.deepEqual(kinds(await poll([behind], await fresh())), ['rollback']);
  });

  it('a fork between two views of the same size, signed by the board key: fork and split_view', async () => {
    const honest = await tiledView(log, S - 1000);
    const forked = await tiledView(fork, S, Number(new URL(honest.url).port));
    const dir = await stateAt([honest], log, S - 1000, [forked]);
    honest.size = S;
    const r = await poll([honest, forked], dir);
    assert.deepEqual(
      r.alerts.map((a) => [a.alert, a.view]).sort(),
      [
        ['fork', forked.url],
        ['split_view', `${honest.url} | ${forked.url}`],
      ],
      JSON.stringify(r.alerts),
    );
    assert.equal(r.last?.size, S - 1000, 'nothing learnt');
    // The honest view alone is clean.
    assert.deepEqual(kinds(await poll([honest], dir)), []);
  });

  it('two honest views of different sizes prove their prefix from the tiles: clean', async () => {
    const a = await tiledView(log, S - 1000);
    const b = await tiledView(log, S - 700, Number(new URL(a.url).port));
    const dir = await stateAt([a], log, S - 1000, [b]);
    a.size = S;
    const r = await poll([a, b], dir);
    assert.deepEqual(kinds(r), [], JSON.stringify(r.alerts));
    assert.equal(r.last?.size, S);
  });
});

describe('gspc monitor --submit-witness over tiles (MT7)', () => {
  it("the witness gets the consistency proof from the size it cosigned, computed from the view's tiles", async () => {
    const S = 5_000;
    const log = syntheticLog(S);
    const view = await tiledView(log, S - 1000);
    const dir = await stateAt([view], log, S - 1000);
    view.size = S;
    // A tlog-witness that cosigned size 3,000: it answers 409 to `old 0`, then checks the proof.
    const bodies: string[] = [];
    const witness = await new Promise<{ url: string; close(): void }>((resolve) => {
      const server = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => {
          body += c;
        });
        req.on('end', () => {
          bodies.push(body);
          const p = parseAddCheckpointRequest(body);
          if (!p.ok) return void res.writeHead(400).end(p.reason);
          if (p.request.oldSize !== 3_000)
            return void res.writeHead(409, { 'content-type': 'text/x.tlog.size' }).end('3000\n');
          const holds = verifyConsistency(3_000, S, p.request.proof, log.rootAt(3_000), log.rootAt(S)).ok;
          res.writeHead(holds ? 200 : 422).end(holds ? '\u2014 witness.example AAAA\n' : 'bad proof');
        });
      });
      server.listen(0, '127.0.0.1', () =>
        resolve({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          close: () => {
            server.closeAllConnections();
            server.close();
          },
        }),
      );
    });
    after(() => witness.close());
    const r = await pollOnce([view.url], dir, now, { submitTo: [witness.url] });
    assert.deepEqual(r.alerts, []);
    assert.deepEqual(
      r.log.map((l) => l.read),
      ['tiles'],
      'the log was read by its tiles, not whole',
    );
    assert.deepEqual(r.submitted, [{ witness: witness.url, cosigned: true }]);
    assert.deepEqual(
      bodies.map((b) => b.split('\n')[0]),
      ['old 0', 'old 3000'],
    );
    // entries.json is asked for only by the release digest (MT5; this view answers 404).
    assert.deepEqual(
      view.log.filter((r) => r.path === '/log/entries.json').map((r) => r.status),
      [404],
    );
  });
});

describe('the state keeps where key transitions sit (MT3), read strictly', () => {
  const base = {
    schema: STATE_SCHEMA,
    views: [],
    last: { size: 10, root: 'ab'.repeat(32), boardKey: 'A'.repeat(43) },
  };
  const id = 'cd'.repeat(32);

  it('a leaf below last.size reads; one at or past it, a fraction, or a leaf without last is refused', () => {
    const read = (v: unknown) => parseMonitorState(JSON.stringify(v), 'monitor.json');
    assert.deepEqual(read({ ...base, transition_leaves: { [id]: 9 } }).transition_leaves, { [id]: 9 });
    for (const bad of [{ [id]: 10 }, { [id]: 1.5 }, { [id]: -1 }, { nothex: 1 }])
      assert.throws(
        () => read({ ...base, transition_leaves: bad }),
        (e: Error & { code?: string }) => e.code === 'monitor_state_invalid' && /transition_leaves/.test(e.message),
        JSON.stringify(bad),
      );
    assert.throws(() => read({ schema: STATE_SCHEMA, transition_leaves: { [id]: 0 } }), /transition_leaves/);
  });
});
