/**
 * Past one machine (issue 17): three `gspc serve` replicas sharing one PostgreSQL ledger behind
 * Debian's nginx as the load balancer (no stickiness: any request lands anywhere), each given its
 * releases by `gspc pull` over HTTP from the publisher's data directory (served by the same nginx
 * as static files: no shared disk). Loopback only; every process stops when the file ends.
 *
 * Asserts: `gspc verify` passes through the balancer; the replicas answer byte-identical
 * documents; during a roll-out of a new release every response is wholly one release's (body,
 * ETag and as_of agree); a release that fails the checks is never made current; a replica killed
 * with SIGKILL leaves the balancer answering.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { currentReleaseDir } from '../../src/release/data-dir.js';
import { EVIDENCE_DIR } from '../../src/release/evidence.js';
import { gspc } from '../helpers/cli.js';
import { goTlogCheck, runTlogCheck } from '../helpers/go-tlogcheck.js';
import { nginxMissing } from '../helpers/nginx.js';
import { freePort } from '../helpers/process.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';
import { probePostgres } from '../store/postgres-harness.js';
import { ok, startTopology } from './topology.js';

const pgProbe = await probePostgres();
const skip = nginxMissing() ?? (pgProbe.ok ? undefined : `PostgreSQL is not reachable (${pgProbe.reason})`);

const topology = skip === undefined ? await startTopology() : undefined;

/** The signed public root: its as_of is the release's, its ETag the bytes'. */
async function rootDoc(url: string): Promise<{ etag: string; asOf: string; body: string }> {
  const r = await fetch(`${url}/root.json`);
  assert.equal(r.status, 200);
  const body = await r.text();
  return { etag: r.headers.get('etag')!, asOf: (JSON.parse(body) as { as_of: string }).as_of, body };
}

describe('replicas on PostgreSQL behind nginx', { skip }, () => {
  const t = topology!;

  it('gspc verify passes through the balancer, and every replica answers the same bytes', async () => {
    const v = await gspc(['verify', t.lb]);
    assert.equal(v.status, 0, v.stdout);
    assert.match(v.stdout, /^VALID: every check passes, 36 of 36 cards valid$/m);
    for (const path of [
      '/api/gspc',
      '/api/gspc?axis=jail',
      '/root.json',
      '/cards/index.json',
      '/log/checkpoint',
      // The log's C2SP tiles (issue 42): the demo's 36 entries are one partial tile and bundle.
      '/log/tile/0/000.p/36',
      '/log/tile/entries/000.p/36',
    ]) {
      const bodies = await Promise.all(
        t.replicas.map(async (r) => {
          const res = await fetch(`${r.url}${path}`);
          return `${res.headers.get('etag')}\n${await res.text()}`;
        }),
      );
      assert.equal(new Set(bodies).size, 1, `${path}: one answer from every replica`);
    }
  });

  it("the log's tiles through the balancer pass the Go tlog checker (issue 42)", async (c) => {
    const go = goTlogCheck();
    if (!go.ok) return c.skip(go.reason);
    const r = await runTlogCheck(go.bin, `${t.lb}/log`);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout) as { records_proved: number; origin: string; root: string };
    assert.equal(report.records_proved, 36);
    // The publisher's own log, not whatever log the balancer signs under a vkey it serves (review R3).
    const [origin, , root] = readFileSync(
      join(currentReleaseDir(t.publisher)!, EVIDENCE_DIR, 'log-checkpoint'),
      'utf8',
    ).split('\n');
    assert.deepEqual([report.origin, report.root], [origin, root]);
  });

  it('a roll-out, one replica after another: every response is wholly one release (body, ETag and as_of agree)', async () => {
    const before = await rootDoc(t.lb);
    const corpus = demoCopy();
    const boardFile = join(corpus, 'board.json');
    const meta = JSON.parse(readFileSync(boardFile, 'utf8')) as { as_of: string };
    meta.as_of = '2026-11-20T00:00:00Z';
    writeFileSync(boardFile, `${JSON.stringify(meta, null, 2)}\n`);
    await ok(['publish', corpus, '--data-dir', t.publisher, '--public-url', t.origin]);

    const seen: { etag: string; asOf: string; body: string }[] = [];
    let reading = true;
    const reader = (async () => {
      while (reading) seen.push(await rootDoc(t.lb));
    })();
    for (const r of t.replicas) {
      await ok(['pull', t.store, '--data-dir', r.dataDir, '--public-url', t.origin]);
      process.kill(r.child.pid!, 'SIGHUP'); // picked up at once (else on the next reload)
      await new Promise((done) => setTimeout(done, 300));
    }
    // Every replica serves the new release before the reader stops.
    for (let i = 0; i < 50; i++) {
      const answers = await Promise.all(t.replicas.map((r) => rootDoc(r.url)));
      if (answers.every((a) => a.asOf === meta.as_of)) break;
      await new Promise((done) => setTimeout(done, 100));
    }
    reading = false;
    await reader;
    const after = await rootDoc(t.lb);
    assert.equal(after.asOf, meta.as_of);
    assert.notEqual(after.etag, before.etag);
    const known = new Map([
      [before.etag, before],
      [after.etag, after],
    ]);
    assert.ok(seen.length > 20, `the reader read during the roll-out (${seen.length} responses)`);
    for (const s of seen) {
      const release = known.get(s.etag);
      assert.ok(release !== undefined, `an ETag of neither release: ${s.etag}`);
      assert.equal(s.body, release.body, 'the body is the release its ETag names');
      assert.equal(s.asOf, release.asOf);
    }
    assert.ok(seen.some((s) => s.etag === before.etag) && seen.some((s) => s.etag === after.etag));
  });

  it('a release that fails the checks is never made current: the replica keeps serving its own', async () => {
    const replica = t.replicas[0]!;
    const servedBefore = currentReleaseDir(replica.dataDir);
    // A copy of the publisher's current release with one card file changed and release.json
    // rewritten to match it: every per-file hash agrees, the signatures do not.
    const store = tempDir('gspc-bad-store-');
    const release = currentReleaseDir(t.publisher)!;
    await ok(['pull', release, '--data-dir', store, '--public-url', t.origin]);
    const copy = currentReleaseDir(store)!;
    const desc = JSON.parse(readFileSync(join(copy, 'release.json'), 'utf8')) as {
      evidence: { path: string; sha256: string; bytes: number }[];
    };
    const card = desc.evidence.find(
      (f) =>
        /^evidence\/cards\/[0-9a-f]{16}\.json$/.test(f.path) &&
        readFileSync(join(copy, f.path), 'utf8').includes('"correct": '),
    )!;
    const text = readFileSync(join(copy, card.path), 'utf8').replace(
      /"correct": (\d+)/,
      (_, n: string) => `"correct": ${Number(n) + 1}`,
    );
    writeFileSync(join(copy, card.path), text);
    card.sha256 = (await import('node:crypto')).createHash('sha256').update(text).digest('hex');
    card.bytes = Buffer.byteLength(text);
    writeFileSync(join(copy, 'release.json'), `${JSON.stringify(desc, null, 2)}\n`);

    const other = tempDir('gspc-replica-other-');
    const r = await gspc(['pull', copy, '--data-dir', other, '--public-url', t.origin]);
    assert.equal(r.status, 2);
    // An active card's file differs from the signed bundle card; a withdrawn card's no longer hashes to its address.
    assert.match(
      r.stderr,
      /fails the checks of gspc verify, so it was not made current: card_files: \/cards\/[0-9a-f]{16}\.json: (first difference at byte \d+|content_address: hash mismatch)/,
    );
    assert.equal(currentReleaseDir(other), undefined, 'nothing made current');
    const closed = await freePort();
    const unreachable = await gspc([
      'pull',
      `http://127.0.0.1:${closed}`,
      '--data-dir',
      other,
      '--public-url',
      t.origin,
    ]);
    assert.equal(unreachable.status, 2);
    assert.equal(
      unreachable.stderr,
      `gspc: cannot fetch http://127.0.0.1:${closed}/current/release.json (ECONNREFUSED); nothing was changed\n`,
    );
    assert.equal(currentReleaseDir(replica.dataDir), servedBefore, 'the serving replica is untouched');
  });

  it('a replica killed with SIGKILL: the balancer keeps answering every request', async () => {
    const victim = t.replicas[2]!;
    process.kill(victim.child.pid!, 'SIGKILL');
    const statuses = await Promise.all(
      Array.from({ length: 30 }, async () => (await fetch(`${t.lb}/api/gspc?axis=jail`)).status),
    );
    assert.deepEqual([...new Set(statuses)], [200], t.nginxErrors());
    const v = await gspc(['verify', t.lb]);
    assert.equal(v.status, 0, v.stdout);
  });
});
