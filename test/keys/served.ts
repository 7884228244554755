/**
 * A `gspc serve` process as the key lifecycle tests watch it (issue 36): started from the
 * compiled bin on loopback with a short reload interval, told to reload at once (SIGHUP), and
 * read back as a reader would: what it serves about its keys and release (byte for byte), whether
 * it is ready, and what `gspc verify` says of it.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gspc } from '../helpers/cli.js';
import { waitFor } from '../helpers/process.js';
import { repoRoot } from '../helpers/repo.js';

export interface Served {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * `gspc serve --data-dir <dataDir> --port <port> --public-url <origin> ...extra`; resolves when it
 * answers. Started here rather than with helpers/process.ts `start`, whose `after` hook would be
 * the hook's own when a suite starts a service in `before`: the caller stops it (`stop`).
 */
export async function serve(
  dataDir: string,
  port: number,
  origin: string,
  extra: string[] = [],
  env: Record<string, string> = {},
): Promise<Served> {
  const ledger = mkdtempSync(join(tmpdir(), 'gspc-served-'));
  const args = [
    'bin/gspc.js',
    'serve',
    '--data-dir',
    dataDir,
    '--port',
    String(port),
    '--public-url',
    origin,
    ...extra,
  ];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: {
      ...process.env,
      GSPC_RELOAD_INTERVAL_MS: '100',
      GSPC_LOG_LEVEL: 'warn',
      GSPC_RATE_LIMITS: 'off',
      // A stopped service drains for at most this long (keep-alive sockets of the other services).
      GSPC_DRAIN_TIMEOUT_MS: '1000',
      GSPC_LEDGER_PATH: join(ledger, 'ledger.sqlite'),
      ...env,
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const output = () => out;
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
    rmSync(ledger, { recursive: true, force: true });
  };
  try {
    await waitFor(`${url}/healthz`, 30_000, output);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, child, output, stop };
}

/** Makes the service check its keys and the current release at once, and gives it time to. */
export async function reload(s: Served, ms = 600): Promise<void> {
  process.kill(s.child.pid!, 'SIGHUP');
  await sleep(ms);
}

/** Everything a reader reads about the keys and the release, byte for byte (status and body). */
export const SNAPSHOT_PATHS = [
  '/.well-known/did.json',
  '/keys/transitions.json',
  '/log/vkey',
  '/log/checkpoint',
  '/log/entries.json',
  '/root.json',
  '/api/gspc',
  '/.well-known/agent-card.json',
] as const;

export async function snapshot(url: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of SNAPSHOT_PATHS) {
    const r = await fetch(`${url}${path}`);
    out[path] = `${r.status}\n${await r.text()}`;
  }
  return out;
}

/** /readyz's status and its failing checks (for the assertion message). */
export async function readiness(url: string): Promise<{ status: number; body: string }> {
  const r = await fetch(`${url}/readyz`);
  return { status: r.status, body: await r.text() };
}

/** Asserts the service at `url` is ready and `gspc verify` says VALID of it; returns the report. */
export async function assertServing(url: string, what: string): Promise<Record<string, unknown>> {
  const ready = await readiness(url);
  assert.equal(ready.status, 200, `${what}: /readyz ${ready.body}`);
  const v = await gspc(['verify', url, '--json']);
  const report = JSON.parse(v.stdout) as {
    verdict: string;
    checks: { check: string; ok: boolean; detail: string }[];
    cards: { invalid: unknown[] };
  };
  const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.check}: ${c.detail}`);
  assert.equal(
    v.status,
    0,
    `${what}: gspc verify ${url}: ${failed.join(' | ')} ${JSON.stringify(report.cards.invalid[0] ?? '')}${v.stderr}`,
  );
  assert.equal(report.verdict, 'VALID', what);
  return report;
}

/** The living stamp of the served board (VERIFIED while the board key signs and is served). */
export async function livingStamp(url: string): Promise<string> {
  const board = (await (await fetch(`${url}/api/gspc`)).json()) as {
    measured_on: { living_stamp: { verification_state: string } };
  };
  return board.measured_on.living_stamp.verification_state;
}

/** Waits until `predicate` holds of the service (a publish picked up), or fails naming what it saw. */
export async function until(what: string, predicate: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > deadline) assert.fail(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}
