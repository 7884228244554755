/**
 * Measurement 12 (issue 18): the board at the speed of bare Node, with a load generator that
 * saturates the server rather than itself.
 *
 * Section 1 (throughput.ts) drives the servers with autocannon, which on two cores saturates its
 * own core before the anchor saturates the server's, so its ratio is lenient. Here: `wrk` (C,
 * one thread, 50 connections) pinned to core 0 with taskset, every server pinned to core 1 from
 * its first instruction, so the server's core is the bottleneck; its CPU over each measured
 * window is read from /proc and reported (a run is only meaningful with the server near 100 % of
 * its core). The servers, each compiled as the service runs (bench children run from build/js):
 * - `node`: the bare `node:http` anchor sending the same bytes and headers (throughput.ts's);
 * - `node-varied`: the same after node:http in its process has sent 2,000 responses of other
 *   kinds (serve-child.ts, varyNodeHttp): V8 optimises node's HTTP internals for the response
 *   shapes a process has sent, and a service sends many, so this is the like-for-like anchor
 *   (the app's three servers below are started the same way, after the same 2,000 responses);
 * - `app`: `buildApp` over the release, without rate limits or metrics;
 * - `served`: the same with metrics and rate limits, as `gspc serve` runs by default;
 * - `fastify`: `served` with the prepared documents' fast path off (GSPC_FAST_PATH=0), what the
 *   fast path buys;
 * - `nginx` (one worker) serving the same bytes from a file with the same headers.
 *
 * On this shared VM the same server's rate drifts by 20-40 % within minutes, and two processes of
 * the same server differ by a few per cent (the app by up to 15 %: V8 optimises each process its
 * own way). So each round starts every server afresh and measures each for a few seconds back to
 * back; a ratio is taken within a round (both figures from the same minute), and the figure
 * reported is the median over the rounds, which spans both. A round counts only when every
 * server had its core (≥ 90 % CPU). Each server's answer is compared byte for byte with the
 * reference before and after its run; wrk's non-2xx or socket errors make the run invalid.
 *
 * Then, in the same round, each of the control (a second fresh bare server), the varied bare
 * server, the app and the served app is loaded *at the same time* as bare node:http, both on the
 * server core, and the served app once more at the same time as the varied bare server (each pair
 * two fresh processes, warmed up together): each gets
 * about half of the core, so the ratio of their rates is the ratio of their costs per request,
 * and the drift, which moves both at once, cancels out (the control shows what "equal" reads as).
 *
 * Goal: served / bare node:http ≥ 0.90 (the configuration operators run), back to back and paired,
 * like for like: against the bare server that has sent the same 2,000 other responses before it
 * (decision O14). The same ratios against the pristine bare server are reported beside it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nginxConfig } from '../test/helpers/nginx.js';
import { freePort } from '../test/helpers/process.js';
import { BenchChild } from './child.js';
import { childrenOf, cpuMs } from './proc-cpu.js';
import {
  CLIENT_CORE,
  PAIRED,
  SERVER_CORE,
  type SpeedAnchor,
  type SpeedFigures,
  type SpeedPair,
  type SpeedRun,
  type SpeedServer,
} from './board-speed-report.js';
import { PATH, prepare, type Reference, verifyOnce } from './throughput.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVE_CHILD = fileURLToPath(new URL('./serve-child.ts', import.meta.url));
const WRK = process.env.GSPC_WRK ?? '/usr/bin/wrk';
const NGINX = process.env.GSPC_NGINX ?? '/usr/sbin/nginx';

const SERVERS: readonly SpeedServer[] = ['node', 'node-control', 'node-varied', 'app', 'served', 'fastify', 'nginx'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `xs` begun at its (round - 1)-th element, wrapping round. */
const rotated = <T>(xs: readonly T[], round: number): T[] => {
  const k = (round - 1) % xs.length;
  return [...xs.slice(k), ...xs.slice(0, k)];
};

const unit = (v: string, u: string) => Number(v) * (u === 'us' ? 0.001 : u === 's' ? 1000 : 1);

/** One wrk run pinned to the client core: requests/s, latency, its own CPU, what went wrong. */
function wrk(url: string, seconds: number, connections: number): Promise<WrkRun> {
  const args = ['-f', 'cpu %U %S', 'taskset', '-c', CLIENT_CORE, WRK, '-t1', `-c${connections}`, `-d${seconds}s`];
  return new Promise((resolve) => {
    const p = spawn('/usr/bin/time', [...args, '--latency', url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const timer = setTimeout(() => p.kill('SIGKILL'), (seconds + 30) * 1000);
    p.on('close', () => {
      clearTimeout(timer);
      resolve(parseWrk(out, err, seconds));
    });
  });
}

interface WrkRun {
  rps: number;
  p50ms: number;
  p99ms: number;
  clientCpu: number;
  problems: string[];
}

function parseWrk(out: string, err: string, seconds: number): WrkRun {
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
  if (!Number.isFinite(rps)) problems.push(`wrk did not report: ${(out + err).slice(0, 300)}`);
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(err);
  const clientCpu = cpu ? ((Number(cpu[1]) + Number(cpu[2])) / seconds) * 100 : Number.NaN;
  return { rps, p50ms: lat('50'), p99ms: lat('99'), clientCpu, problems };
}

interface Running {
  port: number;
  pids: () => number[];
  stop: () => Promise<void>;
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
    if (!existsSync(bin)) return { skipped: `no ${what} at ${bin}`, runs: [], pairs: [], bytes: 0 };
  const dir = join(tmp, 'board-speed');
  mkdirSync(dir, { recursive: true });
  const { releaseDir, mirrorDir, reference } = await prepare(demoCorpus, dir);
  const runs: SpeedRun[] = [];
  const pairs: SpeedPair[] = [];
  // Every round starts every server afresh: V8 optimises each process its own way, and one
  // process's luck (a few per cent for a bare server, up to 15 % for the app in the runs of
  // 2026-11-25) would otherwise be the figure of the whole run. The median over rounds then spans
  // the host's drift and the processes' differences both.
  for (let round = 1; round <= o.rounds; round++) {
    const running = new Map<SpeedServer, Running>();
    try {
      for (const server of SERVERS)
        running.set(server, await start(server, releaseDir, mirrorDir, reference, children));
      // Warm-up: every server once (JIT, and the fast path's first answer through Fastify).
      for (const [, r] of running) await wrk(`http://127.0.0.1:${r.port}${PATH}`, o.warmupSeconds, o.connections);
      // Each round begins the sequence at another server: a server loaded for longer runs faster
      // (V8 keeps optimising), so a fixed order would favour the later ones.
      for (const server of rotated(SERVERS, round)) {
        const r = running.get(server)!;
        const run = await measure(server, round, r, reference, o);
        log(
          `  round ${round} ${server.padEnd(11)} ${Math.round(run.rps).toLocaleString('en-US').padStart(8)} req/s  server ${run.serverCpu.toFixed(0)} %, wrk ${run.clientCpu.toFixed(0)} % CPU${run.problems.length ? `  INVALID: ${run.problems.join('; ')}` : ''}`,
        );
        runs.push(run);
      }
    } finally {
      for (const [, r] of running) await r.stop();
    }
    // Each pair is two fresh processes, warmed up together and measured together. Reusing the
    // round's processes made the pairs disagree with one another: a bare server loaded in four
    // pairs a round read the served app at 0.84 while the varied bare server read 0.95 of it and
    // the served app 1.00 of that (2026-11-26); with fresh processes per pair the three agree
    // (0.90 against 0.95 × 0.96).
    for (const { server, anchor } of rotated(PAIRED, round)) {
      const both: Running[] = [];
      try {
        both.push(await start(anchor, releaseDir, mirrorDir, reference, children));
        both.push(await start(server, releaseDir, mirrorDir, reference, children));
        const [a, b] = both as [Running, Running];
        await Promise.all(both.map((r) => wrk(`http://127.0.0.1:${r.port}${PATH}`, o.warmupSeconds, o.connections)));
        const pair = await measurePair({ server, anchor }, round, a, b, reference, o);
        log(
          `  pair ${round} ${server.padEnd(12)} / ${anchor.padEnd(11)} ${pair.ratio.toFixed(3)}  core ${pair.coreCpu.toFixed(0)} %${pair.problems.length ? `  INVALID: ${pair.problems.join('; ')}` : ''}`,
        );
        pairs.push(pair);
      } finally {
        for (const r of both) await r.stop();
      }
    }
  }
  return { runs, pairs, bytes: reference.body.length };
}

async function start(
  server: SpeedServer,
  releaseDir: string,
  mirrorDir: string,
  ref: Reference,
  children: BenchChild[],
): Promise<Running> {
  let running: Running;
  if (server === 'nginx') {
    const port = await freePort();
    const prefix = join(mirrorDir, 'nginx');
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
    running = {
      port,
      pids: () => [master(), ...childrenOf(master())],
      stop: async () => {
        proc.kill('SIGTERM');
        await sleep(200);
      },
    };
    for (let i = 0; i < 50 && (await verifyOnce(port, ref).catch(() => ['down'])).length > 0; i++) await sleep(100);
  } else {
    // The app's servers are varied too (so the like-for-like ratio never flatters the app).
    const mode =
      server === 'node' || server === 'node-control'
        ? 'anchor'
        : server === 'node-varied'
          ? 'anchor-varied'
          : `${server}-varied`;
    const child = new BenchChild(
      `${server} server`,
      SERVE_CHILD,
      [mode, mode.startsWith('anchor') ? mirrorDir : releaseDir],
      {
        cpus: SERVER_CORE,
      },
    );
    children.push(child);
    const { port } = await child.next<{ port: number }>(60_000, 'listening port');
    running = { port, pids: () => [child.pid], stop: () => child.stop() };
  }
  return running;
}

async function measure(
  server: SpeedServer,
  round: number,
  r: Running,
  ref: Reference,
  o: { seconds: number; connections: number },
): Promise<SpeedRun> {
  const problems = (await verifyOnce(r.port, ref)).map((p) => `before: ${p}`);
  const cpu0 = cpuMs(r.pids());
  const t0 = performance.now();
  const w = await wrk(`http://127.0.0.1:${r.port}${PATH}`, o.seconds, o.connections);
  const serverCpu = ((cpuMs(r.pids()) - cpu0) / (performance.now() - t0)) * 100;
  problems.push(...w.problems, ...(await verifyOnce(r.port, ref)).map((p) => `after: ${p}`));
  return { round, server, rps: w.rps, p50ms: w.p50ms, p99ms: w.p99ms, serverCpu, clientCpu: w.clientCpu, problems };
}

/**
 * `base` (the pair's bare server) and `other` loaded at once by two wrk processes: the shared
 * core's time is split between two always-busy processes, so the ratio of their rates is the
 * inverse ratio of their CPU costs per request, and the VM's drift, which moves both at once,
 * cancels out.
 */
async function measurePair(
  { server, anchor }: { server: SpeedServer; anchor: SpeedAnchor },
  round: number,
  base: Running,
  other: Running,
  ref: Reference,
  o: { seconds: number; connections: number },
): Promise<SpeedPair> {
  const problems = [...(await verifyOnce(base.port, ref)), ...(await verifyOnce(other.port, ref))];
  const pids = () => [...base.pids(), ...other.pids()];
  const cpu0 = cpuMs(pids());
  const t0 = performance.now();
  // Alternate which load starts first, so neither side always gets the head start.
  const url = (r: Running) => `http://127.0.0.1:${r.port}${PATH}`;
  const [a, b] =
    round % 2 === 0
      ? await Promise.all([wrk(url(base), o.seconds, o.connections), wrk(url(other), o.seconds, o.connections)])
      : await Promise.all([wrk(url(other), o.seconds, o.connections), wrk(url(base), o.seconds, o.connections)]).then(
          ([y, x]) => [x, y] as const,
        );
  const coreCpu = ((cpuMs(pids()) - cpu0) / (performance.now() - t0)) * 100;
  problems.push(...a.problems, ...b.problems);
  return { round, server, anchor, ratio: b.rps / a.rps, coreCpu, problems };
}
