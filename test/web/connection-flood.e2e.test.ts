/**
 * The connection flood (issue 38, finding 1): idle TCP connections, with no request bytes, from
 * one address, against `gspc serve --demo` whose file-descriptor limit is lowered for the test
 * (prlimit on the child). Before, the flood used every descriptor, the key-health check read the
 * board key with EMFILE, and over a connection opened before the flood the board was served
 * without its signature (cacheable for 5 minutes) while new connections were reset.
 *
 * Now: the board is never served unsigned (signed, or 503 no-store), /readyz says whether it is
 * signed, an operator's health check from another address answers, and the idle connections are
 * closed after the header timeout.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { request, Agent } from 'node:http';
import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { freePort, waitFor } from '../helpers/process.js';
import { repoRoot } from '../helpers/repo.js';

const FD_LIMIT = 400;
const FLOOD = 1_000;
const prlimit = spawnSync('prlimit', ['--version']).status === 0;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, opts: { agent?: Agent; localAddress?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, agent: opts.agent, localAddress: opts.localAddress, timeout: 5_000 },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${path}: no answer within 5 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** The board as answered: signed (200 with a signature) or refused uncacheably; never unsigned. */
function assertNeverUnsigned(a: Answer, what: string): void {
  if (a.status === 200) {
    const board = JSON.parse(a.body) as { site_attestation: { sig?: string } };
    assert.ok(typeof board.site_attestation.sig === 'string', `${what}: the board was served unsigned`);
  } else {
    assert.equal(a.status, 503, `${what}: ${a.status} ${a.body}`);
    assert.equal(a.headers['cache-control'], 'no-store', what);
  }
}

/** `gspc serve --demo` under `prlimit --nofile=FD_LIMIT`, with `env`; resolves once it answers. */
async function serveLimited(
  env: Record<string, string>,
): Promise<{ port: number; dir: string; output: () => string; stop(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'gspc-flood-'));
  const port = await freePort();
  const child = spawn(
    'prlimit',
    [
      `--nofile=${FD_LIMIT}:${FD_LIMIT}`,
      process.execPath,
      'bin/gspc.js',
      'serve',
      '--demo',
      '--data-dir',
      join(dir, 'data'),
      '--port',
      String(port),
    ],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        GSPC_RELOAD_INTERVAL_MS: '100',
        GSPC_LOG_LEVEL: 'warn',
        GSPC_LEDGER_PATH: join(dir, 'ledger.sqlite'),
        GSPC_DRAIN_TIMEOUT_MS: '500',
        ...env,
      },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(`http://127.0.0.1:${port}/healthz`, 60_000, () => out);
  } catch (e) {
    stop();
    throw e;
  }
  return { port, dir, output: () => out, stop };
}

/** Opens FLOOD idle connections (no request byte); counts those the server closes. */
async function flood(port: number): Promise<{ sockets: Socket[]; closed: () => number }> {
  const sockets: Socket[] = [];
  let closed = 0;
  await Promise.all(
    Array.from(
      { length: FLOOD },
      () =>
        new Promise<void>((done) => {
          const s = connect({ host: '127.0.0.1', port });
          sockets.push(s);
          s.on('connect', () => done());
          s.on('error', () => done());
          s.on('close', () => {
            closed++;
            done();
          });
        }),
    ),
  );
  return { sockets, closed: () => closed };
}

describe('the connection flood (issue 38)', { skip: prlimit ? false : 'prlimit is not installed' }, () => {
  const stops: (() => void)[] = [];
  after(() => {
    for (const stop of stops) stop();
  });

  it('keeps the board signed or refused, /readyz truthful, the operator answered, and closes idle sockets', async () => {
    const served = await serveLimited({ GSPC_HEADERS_TIMEOUT_MS: '2000' });
    stops.push(served.stop);
    const { port } = served;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const before = await get(port, '/api/gspc', { agent });
    assert.equal(before.status, 200);
    assertNeverUnsigned(before, 'before the flood');

    const { sockets, closed } = await flood(port);
    // Several key-health checks (every 100 ms) while the flood is held.
    await sleep(1_000);
    try {
      const board = await get(port, '/api/gspc', { agent });
      assertNeverUnsigned(board, 'during the flood, over a connection opened before it');
      const did = await get(port, '/.well-known/did.json', { agent });
      if (did.status === 200)
        assert.ok(
          (JSON.parse(did.body) as { verificationMethod: unknown[] }).verificationMethod.length > 0,
          'the DID document lists no keys',
        );
      const ready = await get(port, '/readyz', { agent });
      assert.equal(ready.status === 200, board.status === 200, `/readyz ${ready.status} but the board ${board.status}`);
      // The operator's health check, from another address, on a new connection.
      const health = await get(port, '/healthz', { localAddress: '127.0.0.2' });
      assert.equal(health.status, 200, 'the operator health check answers');
      const opBoard = await get(port, '/api/gspc', { localAddress: '127.0.0.2' });
      assertNeverUnsigned(opBoard, 'during the flood, from another address');
      // The idle sockets (no request byte) are closed within the header timeout (2 s here) and
      // the check interval.
      const deadline = Date.now() + 6_000;
      while (closed() < FLOOD && Date.now() < deadline) await sleep(200);
      assert.equal(closed(), FLOOD, `${FLOOD - closed()} idle connections still open after 6 s`);
    } finally {
      for (const s of sockets) s.destroy();
      agent.destroy();
    }
    assert.doesNotMatch(served.output(), /EMFILE/, 'no descriptor ran out');
  });

  it('with every connection cap off, descriptors run out but the keys held in memory keep the board signed', async () => {
    const served = await serveLimited({ GSPC_MAX_CONNECTIONS_PER_CLIENT: '0', GSPC_MAX_CONNECTIONS: '0' });
    stops.push(served.stop);
    const { port } = served;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    assertNeverUnsigned(await get(port, '/api/gspc', { agent }), 'before the flood');
    const { sockets } = await flood(port);
    try {
      // The signing key files touched while descriptors are out: the next check reads them again
      // and cannot (EMFILE); the keys held stay, since a read that ran out of descriptors says
      // nothing of the keys.
      await sleep(300);
      const keyDir = join(served.dir, 'data', 'keys');
      for (const f of readdirSync(keyDir).filter((n) => n.endsWith('.key')))
        utimesSync(join(keyDir, f), new Date(), new Date());
      await sleep(1_000);
      const board = await get(port, '/api/gspc', { agent });
      // Not only never unsigned: still signed, the keys being in memory.
      assert.equal(board.status, 200, `descriptors exhausted: ${board.status} ${board.body}`);
      assertNeverUnsigned(board, 'descriptors exhausted, over a connection opened before the flood');
      const ready = await get(port, '/readyz', { agent });
      assert.equal(ready.status, 200, `/readyz ${ready.body}`);
    } finally {
      for (const s of sockets) s.destroy();
      agent.destroy();
    }
  });
});
