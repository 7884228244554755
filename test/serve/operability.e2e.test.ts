/**
 * Operable in production (issue 18): `GET /metrics` counts real traffic; `GET /readyz` says whether a balancer should send this
 * process traffic (a release loaded, the board signed or deliberately unsigned, the ledger
 * reachable), separately from `/healthz`; SIGTERM lets requests in flight complete, then exits.
 * The compiled `gspc serve`, PostgreSQL reached through a TCP proxy the test can cut, and for the
 * drain a paid request held open by the local rail's slow facilitator.
 */
import assert from 'node:assert/strict';
import { chmodSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type LocalRail, startLocalRail } from '../../demo/local-rail/index.js';
import { demoApp } from '../helpers/app.js';
import { noAnvil } from '../helpers/chain.js';
import { gspc } from '../helpers/cli.js';
import { freePort, start, waitFor } from '../helpers/process.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';
import { challengeOf, officialPayment } from '../payments/paid-harness.js';
import { freshDatabaseUrl, probePostgres } from '../store/postgres-harness.js';

const pgProbe = await probePostgres();

interface Readiness {
  status: string;
  checks: { check: string; ok: boolean; detail: string }[];
}

async function readyz(url: string): Promise<{ code: number; body: Readiness }> {
  const r = await fetch(`${url}/readyz`);
  return { code: r.status, body: (await r.json()) as Readiness };
}

/** A TCP proxy to PostgreSQL on a fixed port that the test can cut (the database "stops") and restore. */
async function cuttableProxy(target: { host: string; port: number }) {
  const port = await freePort();
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  const up = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server!.close(() => resolve());
    });
  await up();
  after(() => (server?.listening ? down() : undefined));
  return { port, up, down };
}

/** Keys and the demo published for http://localhost:<port>, ready for `gspc serve`. */
async function published(port: number): Promise<string> {
  const data = tempDir();
  assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
  const r = await gspc(['publish', demoCorpus, '--data-dir', data, '--public-url', `http://localhost:${port}`]);
  assert.equal(r.status, 0, r.stderr);
  return data;
}

async function serve(port: number, data: string, env: Record<string, string>) {
  const { child, output } = start(
    process.execPath,
    ['bin/gspc.js', 'serve', '--data-dir', data, '--port', String(port)],
    {
      GSPC_LOG_LEVEL: 'silent',
      GSPC_RELOAD_INTERVAL_MS: '100',
      ...env,
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/healthz`, 20_000, output);
  return { child, url, output };
}

/** What `gspc serve` needs to sell on the local rail, with a SQLite ledger of its own. */
const railEnv = (rail: LocalRail, more: Record<string, string> = {}): Record<string, string> => ({
  GSPC_PAY_TO: rail.payTo.address,
  GSPC_FACILITATOR_URL: rail.facilitatorUrl!,
  GSPC_ASSET: rail.usdc,
  GSPC_PROMO: 'none',
  GSPC_LEDGER_PATH: join(tempDir(), 'ledger.sqlite'),
  ...more,
});

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('/readyz', () => {
  it('ready with a release, a signed board and no ledger (read-only); /healthz stays the liveness answer', async () => {
    const { app } = demoApp();
    const r = await app.inject({ url: '/readyz' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['cache-control'], 'no-store');
    const body = r.json() as Readiness;
    assert.equal(body.status, 'ready');
    assert.deepEqual(
      body.checks.map((c) => [c.check, c.ok]),
      [
        ['release', true],
        ['board', true],
        ['keys', true],
        ['ledger', true],
      ],
    );
    assert.match(body.checks[3]!.detail, /no ledger configured/);
  });

  it('unready while the ledger database is unreachable, ready again when it returns', {
    skip: pgProbe.ok ? false : `PostgreSQL is not reachable (${pgProbe.reason})`,
  }, async () => {
    const db = new URL(await freshDatabaseUrl());
    const proxy = await cuttableProxy({ host: db.hostname, port: Number(db.port || 5432) });
    db.host = `127.0.0.1:${proxy.port}`;
    const port = await freePort();
    const { url } = await serve(port, await published(port), { GSPC_DATABASE_URL: db.toString() });
    assert.equal((await readyz(url)).code, 200);

    await proxy.down();
    const down = await until(
      () => readyz(url),
      (r) => r.code === 503,
    );
    assert.equal(down.code, 503);
    assert.equal(down.body.status, 'unready');
    const ledger = down.body.checks.find((c) => c.check === 'ledger')!;
    assert.equal(ledger.ok, false);
    assert.match(ledger.detail, /^unreachable: /);
    assert.equal((await fetch(`${url}/healthz`)).status, 200, 'alive all along');

    await proxy.up();
    const back = await until(
      () => readyz(url),
      (r) => r.code === 200,
    );
    assert.equal(back.code, 200);
    assert.equal(back.body.status, 'ready');
  });

  it('unready while the board key is unhealthy for a signed release (the board would be served unsigned)', async () => {
    const port = await freePort();
    const data = await published(port);
    const { url } = await serve(port, data, {});
    assert.equal((await readyz(url)).code, 200);
    const boardKey = join(data, 'keys', 'board-attestation-1.key');
    chmodSync(boardKey, 0o640); // group-readable: refused as unhealthy at the next check
    const bad = await until(
      () => readyz(url),
      (r) => r.code === 503,
    );
    assert.equal(bad.code, 503);
    const board = bad.body.checks.find((c) => c.check === 'board')!;
    assert.equal(board.ok, false);
    assert.match(board.detail, /^the release is signed but its board is served UNSIGNED/);
    // Meanwhile a signed release is never served unsigned (issue 38): the board is a 503 no cache
    // keeps, on the fast path's target and with an axis.
    for (const path of ['/api/gspc', '/api/gspc?axis=care']) {
      const r = await fetch(`${url}${path}`);
      assert.equal(r.status, 503, path);
      assert.equal(r.headers.get('cache-control'), 'no-store', path);
      const body = (await r.json()) as { code: string; error: string };
      assert.equal(body.code, 'keys_unhealthy', path);
      assert.match(body.error, /board-attestation-1 is unhealthy/);
    }
    chmodSync(boardKey, 0o600);
    assert.equal(
      (
        await until(
          () => readyz(url),
          (r) => r.code === 200,
        )
      ).code,
      200,
    );
  });
});

describe('SIGTERM drains', { skip: noAnvil() }, () => {
  it('a paid request in flight across SIGTERM completes (200), new connections are refused, then the process exits 0', async () => {
    const rail = await startLocalRail({ payerUsdc: 10_000_000n });
    after(() => rail.stop());
    const port = await freePort();
    const { child, url } = await serve(port, await published(port), railEnv(rail));
    const bundle = (await (await fetch(`${url}/cards-bundle.json`)).json()) as {
      cards: { surface: string; subject: string; sig_ed25519: string | null }[];
    };
    const subject = bundle.cards.find((c) => c.surface === 'board.measurement' && c.sig_ed25519)!.subject;
    const paid = `${url}/api/request-attestation?subject=${encodeURIComponent(subject)}`;
    const { header } = await officialPayment(rail, await challengeOf(paid));
    rail.facilitatorMode('slow', { delayMs: 1500 }); // /verify answers after 1.5 s
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const inFlight = fetch(paid, { headers: { 'payment-signature': header } });
    await new Promise((r) => setTimeout(r, 300));
    process.kill(child.pid!, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    await assert.rejects(fetch(`${url}/healthz`), 'the listener is closed: no new connection');
    const res = await inFlight;
    assert.equal(res.status, 200, 'the request in flight completed');
    assert.equal(((await res.json()) as { surface: string }).surface, 'ras.commission');
    const t0 = Date.now();
    assert.equal(await exited, 0);
    assert.ok(Date.now() - t0 < 5_000, 'exits once drained, not at the drain timeout (30 s)');
  });
});

/** One sample's value from the Prometheus text, by metric name and exact label set. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort();
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = (m[2] ?? '')
      .split(/,(?=[a-z_]+=")/)
      .filter((x) => x !== '')
      .sort();
    if (JSON.stringify(got) === JSON.stringify(want)) return Number(m[3]);
  }
  return undefined;
}

describe('/metrics', { skip: noAnvil() }, () => {
  it('after real traffic: requests by route and status, latency, the release, key health, ledger calls, settlements, reloads', async () => {
    const rail = await startLocalRail({ payerUsdc: 10_000_000n });
    after(() => rail.stop());
    const port = await freePort();
    const data = await published(port);
    const { url } = await serve(port, data, railEnv(rail));
    // The capability fabric probes the origin's own documents in the background, so exact counts
    // are taken on a route it never reads (card files), and as a difference around the traffic.
    const cardsBefore = sample(await (await fetch(`${url}/metrics`)).text(), 'gspc_http_requests_total', {
      route: '/cards/:file',
      method: 'GET',
      status: '200',
    });
    assert.equal(cardsBefore, undefined, 'no card file read yet');
    for (let i = 0; i < 3; i++) assert.equal((await fetch(`${url}/api/gspc`)).status, 200);
    assert.equal((await fetch(`${url}/api/gspc?axis=jail`)).status, 200);
    assert.equal((await fetch(`${url}/no/such/path`)).status, 404);
    const bundle = (await (await fetch(`${url}/cards-bundle.json`)).json()) as {
      cards: { surface: string; subject: string; sig_ed25519: string | null; sha256: string }[];
    };
    const subject = bundle.cards.find((c) => c.surface === 'board.measurement' && c.sig_ed25519)!.subject;
    for (const c of bundle.cards.slice(0, 3))
      assert.equal((await fetch(`${url}/cards/${c.sha256.slice(0, 16)}.json`)).status, 200);
    const paid = `${url}/api/request-attestation?subject=${encodeURIComponent(subject)}`;
    const { header } = await officialPayment(rail, await challengeOf(paid));
    assert.equal((await fetch(paid, { headers: { 'payment-signature': header } })).status, 200);
    assert.equal((await fetch(paid, { headers: { 'payment-signature': header } })).status, 200);
    // A new release, picked up while serving.
    const corpus = join(tempDir(), 'corpus');
    cpSync(demoCorpus, corpus, { recursive: true });
    const meta = JSON.parse(readFileSync(join(corpus, 'board.json'), 'utf8')) as { as_of: string };
    writeFileSync(join(corpus, 'board.json'), JSON.stringify({ ...meta, as_of: '2026-11-20T00:00:00Z' }));
    const pub = await gspc(['publish', corpus, '--data-dir', data, '--public-url', `http://localhost:${port}`]);
    assert.equal(pub.status, 0, pub.stderr);
    const release = /^published (r-[0-9a-f]{20})/.exec(pub.stdout)![1]!;

    const scrape = () =>
      fetch(`${url}/metrics`).then(async (r) => ({ type: r.headers.get('content-type'), text: await r.text() }));
    const m = await until(scrape, (s) => sample(s.text, 'gspc_release_reloads_total', { result: 'loaded' }) === 1);
    assert.match(m.type!, /^text\/plain; version=0\.0\.4/);
    const t = m.text;
    assert.equal(sample(t, 'gspc_http_requests_total', { route: '/cards/:file', method: 'GET', status: '200' }), 3);
    assert.ok((sample(t, 'gspc_http_requests_total', { route: '/api/gspc', method: 'GET', status: '200' }) ?? 0) >= 4);
    assert.equal(sample(t, 'gspc_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' }), 1);
    assert.equal(
      sample(t, 'gspc_http_requests_total', { route: '/api/request-attestation', method: 'GET', status: '402' }),
      1,
    );
    assert.equal(sample(t, 'gspc_http_request_duration_seconds_count', { route: '/cards/:file', method: 'GET' }), 3);
    assert.equal(sample(t, 'gspc_settlements_total', { outcome: 'settled' }), 1);
    assert.equal(sample(t, 'gspc_settlements_total', { outcome: 'replayed' }), 1);
    assert.ok((sample(t, 'gspc_ledger_operations_total', { operation: 'reserve', outcome: 'ok' }) ?? 0) >= 1);
    assert.equal(sample(t, 'gspc_ledger_operations_total', { operation: 'markSettled', outcome: 'ok' }), 1);
    assert.equal(sample(t, 'gspc_release_info', { release, as_of: '2026-11-20T00:00:00Z' }), 1);
    assert.equal(sample(t, 'gspc_release_as_of_seconds'), Date.parse('2026-11-20T00:00:00Z') / 1000);
    assert.equal(sample(t, 'gspc_board_key_healthy'), 1);
    assert.ok((sample(t, 'gspc_process_resident_memory_bytes') ?? 0) > 0);
  });

  it('GSPC_METRICS=0 serves no /metrics', async () => {
    const port = await freePort();
    const { url } = await serve(port, await published(port), { GSPC_METRICS: '0' });
    assert.equal((await fetch(`${url}/metrics`)).status, 404);
  });
});

/** A GET from a chosen local address (127.0.0.x), with optional headers: status, headers, body. */
function getFrom(
  localAddress: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpGet(
      { host: u.hostname, port: u.port, path: `${u.pathname}${u.search}`, localAddress, headers },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
  });
}

describe('rate limits', () => {
  it('a flood from one address gets 429 with Retry-After while another address, and the probes, are still served', async () => {
    const port = await freePort();
    const { url } = await serve(port, await published(port), {
      GSPC_RATE_LIMITS: 'free=20,verify=3',
      GSPC_TRUST_PROXY: '127.0.0.1',
    });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await getFrom('127.0.0.2', `${url}/api/gspc`)).status);
    assert.deepEqual(statuses.slice(0, 20), Array(20).fill(200));
    assert.deepEqual(statuses.slice(20), Array(10).fill(429));
    const limited = await getFrom('127.0.0.2', `${url}/api/gspc`);
    assert.equal(limited.status, 429);
    assert.match(String(limited.headers['retry-after']), /^\d+$/);
    const body = JSON.parse(limited.body) as { code: string; error: string; class: string; limit: number };
    assert.equal(body.code, 'rate_limited');
    assert.equal(body.class, 'free');
    assert.equal(body.limit, 20);
    assert.match(body.error, /^too many free requests from 127\.0\.0\.2: at most 20 a minute; retry in /);

    assert.equal((await getFrom('127.0.0.3', `${url}/api/gspc`)).status, 200, 'another address is served');
    for (const probe of ['/healthz', '/readyz', '/metrics'])
      assert.equal((await getFrom('127.0.0.2', `${url}${probe}`)).status, 200, `${probe} is never limited`);
    // Behind a trusted proxy (127.0.0.1 here), the client is the address it forwards.
    const forwarded = await getFrom('127.0.0.1', `${url}/api/gspc`, { 'x-forwarded-for': '127.0.0.2' });
    assert.equal(forwarded.status, 429, 'the forwarded client is the flooded one');
    const other = await getFrom('127.0.0.1', `${url}/api/gspc`, { 'x-forwarded-for': '198.51.100.7' });
    assert.equal(other.status, 200);

    // Verification has its own, smaller budget.
    const verify = async () =>
      (
        await fetch(`${url}/api/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).status;
    const v = [await verify(), await verify(), await verify(), await verify()];
    assert.notEqual(v[0], 429);
    assert.equal(v[3], 429);
  });

  it('a settled payment exempts nothing from the paid budget (issue 37: one settled header, replayed, used to open every door)', {
    skip: noAnvil(),
  }, async () => {
    const rail = await startLocalRail({ payerUsdc: 10_000_000n });
    after(() => rail.stop());
    const port = await freePort();
    const { url } = await serve(port, await published(port), railEnv(rail, { GSPC_RATE_LIMITS: 'paid=2,challenge=3' }));
    const bundle = (await (await fetch(`${url}/cards-bundle.json`)).json()) as {
      cards: { surface: string; subject: string; sig_ed25519: string | null }[];
    };
    const subject = bundle.cards.find((c) => c.surface === 'board.measurement' && c.sig_ed25519)!.subject;
    const paid = `${url}/api/request-attestation?subject=${encodeURIComponent(subject)}`;
    const { header } = await officialPayment(rail, await challengeOf(paid));
    const first = await fetch(paid, { headers: { 'payment-signature': header } });
    assert.equal(first.status, 200);
    // The paid budget spent on payments that are not settled (unreadable ones count too).
    const junk = await Promise.all(
      [1, 2, 3].map(
        async () => (await fetch(paid, { headers: { 'payment-signature': 'bm90IGEgcGF5bWVudA==' } })).status,
      ),
    );
    assert.ok(junk.includes(429), `the budget is spent: ${junk}`);
    const replay = await fetch(paid, { headers: { 'payment-signature': header } });
    assert.equal(replay.status, 429, 'the settled payment waits like any other');
    const body = (await replay.json()) as { code: string; class: string };
    assert.deepEqual([body.code, body.class], ['rate_limited', 'paid']);
  });
});
