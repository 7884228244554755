/**
 * Measurement 12 (issue 18): the board at the speed of bare Node, with a load generator that
 * saturates the server rather than itself.
 *
 * Section 1 (throughput.ts) drives the servers with autocannon, which on two cores saturates its
 * own core before the anchor saturates the server's, so its ratio is lenient. Here: `wrk` (C,
 * one thread, 50 connections) pinned to core 0 with taskset, each server pinned to core 1, so
 * the server's core is the bottleneck; its CPU over the measured window is read from /proc and
 * reported (a run is only meaningful with the server near 100 % of its core). Servers, one at a
 * time, alternating rounds: the app (`GET /api/gspc` through buildApp, without rate limits or
 * metrics), the same with both (as `gspc serve` runs by default: their cost), the bare `node:http` anchor sending the same bytes and
 * headers (throughput.ts's), and nginx serving the same bytes from a file with the same headers
 * (one worker). Each server's answer is compared byte for byte with the reference before and
 * after its run; wrk's non-2xx or socket errors make the run invalid.
 *
 * Goal: app / bare node:http ≥ 0.90.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nginxConfig } from '../test/helpers/nginx.js';
import { freePort } from '../test/helpers/process.js';
import { BenchChild } from './child.js';
import { childrenOf, cpuMs } from './proc-cpu.js';
import { PATH, prepare, type Reference, verifyOnce } from './throughput.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVE_CHILD = fileURLToPath(new URL('./serve-child.ts', import.meta.url));
const WRK = process.env.GSPC_WRK ?? '/usr/bin/wrk';
const NGINX = process.env.GSPC_NGINX ?? '/usr/sbin/nginx';
const SERVER_CORE = '1';
const CLIENT_CORE = '0';

export type SpeedServer = 'app' | 'served' | 'node' | 'nginx';

export interface SpeedRun {
  round: number;
  server: SpeedServer;
  rps: number;
  p50ms: number;
  p99ms: number;
  /** CPU of the server over the measured window, % of one core. */
  serverCpu: number;
  /** CPU of wrk over the run (user + system), % of one core. */
  clientCpu: number;
  problems: string[];
}

export interface SpeedFigures {
  skipped?: string;
  runs: SpeedRun[];
  bytes: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const unit = (v: string, u: string) => Number(v) * (u === 'us' ? 0.001 : u === 's' ? 1000 : 1);

/** One wrk run pinned to the client core: requests/s, latency, its own CPU, what went wrong. */
function wrk(url: string, seconds: number, connections: number) {
  const r = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      'cpu %U %S',
      'taskset',
      '-c',
      CLIENT_CORE,
      WRK,
      '-t1',
      `-c${connections}`,
      `-d${seconds}s`,
      '--latency',
      url,
    ],
    { encoding: 'utf8', timeout: (seconds + 30) * 1000 },
  );
  const out = r.stdout;
  const problems: string[] = [];
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN);
  const lat = (p: string) => {
    const m = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(out);
    return m ? unit(m[1]!, m[2]!) : Number.NaN;
  };
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  if (non2xx) problems.push(`${non2xx[1]} non-2xx responses`);
  const socket = /Socket errors: (.*)/.exec(out);
  if (socket) problems.push(`socket errors: ${socket[1]}`);
  if (!Number.isFinite(rps)) problems.push(`wrk did not report: ${(out + r.stderr).slice(0, 300)}`);
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
  const clientCpu = cpu ? ((Number(cpu[1]) + Number(cpu[2])) / seconds) * 100 : Number.NaN;
  return { rps, p50ms: lat('50'), p99ms: lat('99'), clientCpu, problems };
}

export async function measureBoardSpeed(
  demoCorpus: string,
  tmp: string,
  o: { seconds: number; warmupSeconds: number; rounds: number; connections: number },
  children: BenchChild[],
  log: (line: string) => void,
): Promise<SpeedFigures> {
  spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure-debian.mjs')], { stdio: 'inherit' });
  for (const [bin, what] of [
    [WRK, 'wrk'],
    [NGINX, 'nginx'],
    ['/usr/bin/taskset', 'taskset'],
    ['/usr/bin/time', 'time'],
  ] as const)
    if (!existsSync(bin)) return { skipped: `no ${what} at ${bin}`, runs: [], bytes: 0 };
  const dir = join(tmp, 'board-speed');
  mkdirSync(dir, { recursive: true });
  const { releaseDir, mirrorDir, reference } = await prepare(demoCorpus, dir);
  const runs: SpeedRun[] = [];
  for (let round = 1; round <= o.rounds; round++)
    for (const server of ['node', 'app', 'served', 'nginx'] as const) {
      const r = await runOne(server, round, releaseDir, mirrorDir, reference, o, children);
      log(
        `  round ${round} ${server.padEnd(5)} ${Math.round(r.rps).toLocaleString('en-US').padStart(8)} req/s  server ${r.serverCpu.toFixed(0)} %, wrk ${r.clientCpu.toFixed(0)} % CPU${r.problems.length ? `  INVALID: ${r.problems.join('; ')}` : ''}`,
      );
      runs.push(r);
    }
  return { runs, bytes: reference.body.length };
}

async function runOne(
  server: SpeedServer,
  round: number,
  releaseDir: string,
  mirrorDir: string,
  ref: Reference,
  o: { seconds: number; warmupSeconds: number; connections: number },
  children: BenchChild[],
): Promise<SpeedRun> {
  let port: number;
  let pids: () => number[];
  let stop: () => Promise<void>;
  if (server === 'nginx') {
    port = await freePort();
    const prefix = join(mirrorDir, `nginx-${round}`);
    mkdirSync(join(prefix, 'logs'), { recursive: true });
    const { etag, 'content-type': type, ...rest } = ref.headers;
    writeFileSync(
      join(prefix, 'nginx.conf'),
      nginxConfig(
        prefix,
        [
          'server {',
          `  listen 127.0.0.1:${port} backlog=4096;`,
          '  etag off;',
          '  if_modified_since off;',
          '  server_tokens off;',
          `  location = ${PATH} {`,
          `    alias ${join(mirrorDir, 'body.bin')};`,
          `    default_type "${type}";`,
          '    types { }',
          ...Object.entries(rest).map(([k, v]) => `    add_header ${k} "${v.replaceAll('"', '\\"')}";`),
          `    add_header etag '${etag}';`,
          '  }',
          '}',
        ].join('\n'),
        4096,
      ),
    );
    const proc = spawn('taskset', ['-c', SERVER_CORE, NGINX, '-p', prefix, '-c', join(prefix, 'nginx.conf')], {
      stdio: 'ignore',
    });
    const master = () => childrenOf(proc.pid!)[0] ?? proc.pid!; // taskset execs nginx in place
    pids = () => [master(), ...childrenOf(master())];
    stop = async () => {
      proc.kill('SIGTERM');
      await sleep(200);
    };
    for (let i = 0; i < 50 && (await verifyOnce(port, ref).catch(() => ['down'])).length > 0; i++) await sleep(100);
  } else {
    const child = new BenchChild(`${server} server`, SERVE_CHILD, [
      server === 'app' ? 'app' : 'anchor',
      server === 'app' ? releaseDir : mirrorDir,
    ]);
    children.push(child);
    ({ port } = await child.next<{ port: number }>(60_000, 'listening port'));
    execFileSync('taskset', ['-apc', SERVER_CORE, String(child.pid)], { stdio: 'ignore' });
    pids = () => [child.pid];
    stop = () => child.stop();
  }
  try {
    const problems = (await verifyOnce(port, ref)).map((p) => `before: ${p}`);
    const url = `http://127.0.0.1:${port}${PATH}`;
    wrk(url, o.warmupSeconds, o.connections);
    const cpu0 = cpuMs(pids());
    const t0 = performance.now();
    const r = wrk(url, o.seconds, o.connections);
    const serverCpu = ((cpuMs(pids()) - cpu0) / (performance.now() - t0)) * 100;
    problems.push(...r.problems, ...(await verifyOnce(port, ref)).map((p) => `after: ${p}`));
    return { round, server, rps: r.rps, p50ms: r.p50ms, p99ms: r.p99ms, serverCpu, clientCpu: r.clientCpu, problems };
  } finally {
    await stop();
  }
}

export const BOARD_SPEED_TITLE = 'Board speed against bare Node and nginx, server CPU saturated';

const NAMES: Record<SpeedServer, string> = {
  node: 'bare node:http',
  app: 'the app (buildApp)',
  served: 'the app with metrics and rate limits (as gspc serve runs)',
  nginx: 'nginx (1 worker)',
};

export function boardSpeedSection(f: SpeedFigures): string {
  if (f.skipped) return `Skipped: ${f.skipped}.`;
  const fmt = (n: number, d = 0) => n.toLocaleString('en', { maximumFractionDigits: d, minimumFractionDigits: d });
  const mean = (s: SpeedServer) => {
    const xs = f.runs.filter((r) => r.server === s).map((r) => r.rps);
    return xs.reduce((a, b) => a + b, 0) / xs.length;
  };
  const ratio = mean('app') / mean('node');
  return [
    `\`GET /api/gspc\` (${fmt(f.bytes)} bytes), wrk -t1 -c50 pinned to core ${CLIENT_CORE}, each server pinned to core ${SERVER_CORE}:`,
    '',
    '| round | server | req/s | p50 ms | p99 ms | server CPU | wrk CPU |',
    '|---:|---|---:|---:|---:|---:|---:|',
    ...f.runs.map(
      (r) =>
        `| ${r.round} | ${NAMES[r.server]} | ${fmt(r.rps)} | ${fmt(r.p50ms, 2)} | ${fmt(r.p99ms, 2)} | ${fmt(r.serverCpu)} % | ${fmt(r.clientCpu)} % |`,
    ),
    '',
    `App / bare node:http (means): **${ratio.toFixed(3)}** (goal ≥ 0.90: **${ratio >= 0.9 ? 'MET' : 'NOT MET'}**); with metrics and rate limits: ${(mean('served') / mean('node')).toFixed(3)} (their cost: ${((1 - mean('served') / mean('app')) * 100).toFixed(1)} % of the app's rate); nginx / bare node:http: ${(mean('nginx') / mean('node')).toFixed(2)}.`,
  ].join('\n');
}
