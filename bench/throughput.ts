/**
 * Measurement 1: requests/s of `GET /api/gspc` from the real app against a bare node:http
 * anchor sending the same bytes. The ratio app/anchor is the figure that matters: absolute
 * requests/s depend on the machine, the ratio much less.
 *
 * Fairness on 2 cores: one server at a time, each in its own child process, autocannon in this
 * process; runs alternate (anchor, app, anchor, app, ...) so drift (thermal, other load) hits
 * both sides. Correctness: every response must be 200 with the reference content-length and
 * ETag, and before and after each run one out-of-band request must return the reference bytes
 * and headers exactly, so a broken or short-cutting server cannot look fast.
 */
import autocannon from 'autocannon';
import { mkdirSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { ServedState } from '../src/serve/served-state.js';
import { loadRelease } from '../src/release/load.js';
import { publishRelease } from '../src/release/publish.js';
import { keygen } from '../src/keys/key-store.js';
import { signingContext } from '../src/keys/signing.js';
import { BenchChild } from './child.js';
import { DISTURBED_OTHER_CPU, machineBusy, machineJiffies } from './machine-load.js';

export const PATH = '/api/gspc';
const HOST = '127.0.0.1';
const SERVE_CHILD = fileURLToPath(new URL('./serve-child.ts', import.meta.url));
/** Headers Node writes itself on every response; everything else the app sends is mirrored. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

export interface LoadSettings {
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** Undisturbed anchor+app rounds wanted. */
  rounds: number;
  /** Rounds that may be added to replace disturbed ones. */
  extraRounds: number;
}

export interface Reference {
  body: Buffer;
  headers: Record<string, string>;
}

export interface RunFigures {
  round: number;
  server: 'anchor' | 'app';
  rps: number;
  responses: number;
  latencyP50: number;
  latencyP99: number;
  /** CPU time of the server process over the measured window, % of one core. */
  serverCpu: number;
  /** CPU time of this (autocannon) process over the measured window, % of one core. */
  clientCpu: number;
  /**
   * Busy CPU of the whole machine minus server and client, % of one core (Linux /proc/stat;
   * undefined elsewhere). Includes loopback softirq work charged to no process, so it is never
   * quite 0; much more means something else ran during the window and the run is disturbed.
   */
  otherCpu: number | undefined;
  problems: string[];
}

export interface ThroughputFigures {
  /** The request path loaded (the board's, or another prepared document's). */
  path: string;
  reference: Reference;
  runs: RunFigures[];
  /** Rounds the summary is computed from: the undisturbed ones, or all when every round was disturbed. */
  usedRounds: number[];
  anchorRps: number;
  appRps: number;
  /** The goal figure: mean app req/s ÷ mean anchor req/s over the used rounds. */
  ratio: number;
  /** Server CPU µs per request (means over the used rounds) and their ratio anchor/app. */
  anchorCpuUs: number;
  appCpuUs: number;
  cpuRatio: number;
}

export const isDisturbed = (r: RunFigures) => (r.otherCpu ?? 0) > DISTURBED_OTHER_CPU;

/** Publishes the demo corpus into `tmp` and records what the app answers, via inject. */
export async function prepare(
  demoCorpus: string,
  tmp: string,
  path = PATH,
): Promise<{ releaseDir: string; mirrorDir: string; reference: Reference }> {
  // Keys live at <data>/keys, where serve-child.ts finds them (the served board is signed).
  keygen(join(tmp, 'data', 'keys'));
  const releaseDir = publishRelease(
    demoCorpus,
    join(tmp, 'data'),
    signingContext(join(tmp, 'data', 'keys'), 'localhost:8080').inputs,
  ).dir;
  const signing = signingContext(join(tmp, 'data', 'keys'), 'localhost:8080');
  const app = buildApp({
    state: new ServedState(loadRelease(releaseDir), {
      did: signing.did,
      boardKey: signing.inputs.boardKey,
      published: signing.keys.published,
    }),
    logLevel: 'warn',
  });
  const res = await app.inject({ method: 'GET', url: path });
  await app.close();
  if (res.statusCode !== 200)
    throw new Error(`reference GET ${path} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (!TRANSPORT_HEADERS.has(k) && v !== undefined) headers[k] = String(v);
  for (const required of ['content-type', 'access-control-allow-origin', 'cache-control', 'etag']) {
    if (!(required in headers)) throw new Error(`reference response has no ${required} header`);
  }
  const reference = { body: res.rawPayload, headers };
  const mirrorDir = join(tmp, 'anchor');
  mkdirSync(mirrorDir);
  writeFileSync(join(mirrorDir, 'body.bin'), reference.body);
  writeFileSync(join(mirrorDir, 'headers.json'), JSON.stringify(headers));
  return { releaseDir, mirrorDir, reference };
}

/** One plain GET, compared byte for byte (body) and value for value (mirrored headers). */
export function verifyOnce(port: number, ref: Reference, path = PATH): Promise<string[]> {
  return new Promise((resolve) => {
    const req = get({ host: HOST, port, path, agent: false, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const problems: string[] = [];
        const body = Buffer.concat(chunks);
        if (res.statusCode !== 200) problems.push(`status ${res.statusCode}`);
        if (!body.equals(ref.body))
          problems.push(`body differs from the reference (${body.length} bytes, expected ${ref.body.length})`);
        for (const [k, v] of Object.entries(ref.headers))
          if (res.headers[k] !== v) problems.push(`header ${k}: ${String(res.headers[k])} (expected ${v})`);
        resolve(problems);
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve([`request failed: ${e.message}`]));
  });
}

/**
 * One autocannon run. Each response's status, content-length and ETag are checked as the
 * headers arrive; the HTTP parser then only completes a response after exactly content-length
 * body bytes, so together this proves every counted response carried the whole body.
 */
function load(port: number, seconds: number, connections: number, ref: Reference, path: string): Promise<Load> {
  const length = String(ref.body.length);
  const etag = ref.headers.etag;
  const out = { checked: 0, bad: 0, firstBad: undefined as string | undefined };
  const fail = (why: string) => {
    out.bad++;
    out.firstBad ??= why;
  };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://${HOST}:${port}${path}`,
        connections,
        pipelining: 1,
        duration: seconds,
        timeout: 10,
        setupClient: (client) => {
          client.on('headers', (info) => {
            if (info.statusCode !== 200) return fail(`status ${info.statusCode}`);
            let len: string | undefined;
            let tag: string | undefined;
            const h = info.headers;
            for (let i = 0; i < h.length; i += 2) {
              const name = h[i]!.toLowerCase();
              if (name === 'content-length') len = h[i + 1];
              else if (name === 'etag') tag = h[i + 1];
            }
            if (len !== length) fail(`content-length ${len} (expected ${length})`);
            else if (tag !== etag) fail(`etag ${tag} (expected ${etag})`);
          });
          client.on('response', (_status, resBytes) => {
            out.checked++;
            if (resBytes < ref.body.length) fail(`response of ${resBytes} bytes, shorter than the body`);
          });
        },
      },
      (err, result) => (err ? reject(err) : resolve({ result, ...out })),
    );
  });
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

/** One autocannon run's outcome, with the per-response checks of the caller's `load`. */
export interface Load {
  result: autocannon.Result;
  checked: number;
  bad: number;
  firstBad: string | undefined;
}

export type MeasuredRun = Omit<RunFigures, 'round' | 'server'>;

/**
 * The run protocol both throughput benches share, against a started BenchChild server: check one
 * response in full, warm up, measure (server, client and machine CPU over the window), check
 * again, and list every problem. `non2xxExpected`: a 402 challenge is non-2xx for autocannon.
 */
export async function measureRun(
  child: BenchChild,
  o: {
    verify: () => Promise<string[]>;
    load: (seconds: number) => Promise<Load>;
    warmupSeconds: number;
    seconds: number;
    non2xxExpected?: boolean;
  },
): Promise<MeasuredRun> {
  const problems = (await o.verify()).map((p) => `before: ${p}`);
  const warm = await o.load(o.warmupSeconds);
  const cpu0 = (await child.request<{ cpu: NodeJS.CpuUsage }>({ type: 'cpu' }, 5000, 'cpu usage')).cpu;
  const client0 = process.cpuUsage();
  const machine0 = machineJiffies();
  const t0 = performance.now();
  const run = await o.load(o.seconds);
  const wall = performance.now() - t0;
  const busy = machineBusy(machine0, machineJiffies());
  const clientCpu = (cpuMs(process.cpuUsage(client0)) / wall) * 100;
  const cpu1 = (await child.request<{ cpu: NodeJS.CpuUsage }>({ type: 'cpu' }, 5000, 'cpu usage')).cpu;
  problems.push(...(await o.verify()).map((p) => `after: ${p}`));
  for (const [phase, l] of [
    ['warm-up', warm],
    ['measured', run],
  ] as const) {
    const r = l.result;
    if (l.bad > 0) problems.push(`${phase}: ${l.bad} bad responses (first: ${l.firstBad})`);
    if (r.errors > 0 || r.timeouts > 0 || (!o.non2xxExpected && r.non2xx > 0))
      problems.push(`${phase}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
    if (l.checked < r.requests.total)
      problems.push(`${phase}: ${r.requests.total} responses counted but only ${l.checked} checked`);
  }
  if (run.result.requests.total === 0) problems.push('measured: no responses at all');
  const serverCpu = ((cpuMs(cpu1) - cpuMs(cpu0)) / wall) * 100;
  return {
    problems,
    rps: run.result.requests.total / run.result.duration,
    responses: run.result.requests.total,
    latencyP50: run.result.latency.p50,
    latencyP99: run.result.latency.p99,
    serverCpu,
    clientCpu,
    otherCpu: busy === undefined ? undefined : Math.max(0, busy - serverCpu - clientCpu),
  };
}

async function runOne(
  round: number,
  server: 'anchor' | 'app',
  dir: string,
  ref: Reference,
  s: LoadSettings,
  children: BenchChild[],
  path: string,
): Promise<RunFigures> {
  const child = new BenchChild(`${server} server`, SERVE_CHILD, [server, dir]);
  children.push(child);
  try {
    const { port } = await child.next<{ port: number }>(60_000, 'listening port');
    const figures = await measureRun(child, {
      verify: () => verifyOnce(port, ref, path),
      load: (seconds) => load(port, seconds, s.connections, ref, path),
      warmupSeconds: s.warmupSeconds,
      seconds: s.seconds,
    });
    return { round, server, ...figures };
  } finally {
    await child.stop();
  }
}

export async function measureThroughput(
  demoCorpus: string,
  tmp: string,
  s: LoadSettings,
  children: BenchChild[],
  log: (line: string) => void,
  path = PATH,
): Promise<ThroughputFigures> {
  const { releaseDir, mirrorDir, reference } = await prepare(demoCorpus, tmp, path);
  log(`  reference: ${reference.body.length} bytes, etag ${reference.headers.etag}`);
  const runs: RunFigures[] = [];
  // Disturbed rounds (see summarise) are replaced by extra rounds, at most s.extraRounds of
  // them, so a neighbour's burst does not cost the figures while the run time stays bounded.
  let quietRounds = 0;
  for (let round = 1; quietRounds < s.rounds && round <= s.rounds + s.extraRounds; round++) {
    let disturbed = false;
    for (const server of ['anchor', 'app'] as const) {
      const r = await runOne(round, server, server === 'app' ? releaseDir : mirrorDir, reference, s, children, path);
      const cpu = `server ${r.serverCpu.toFixed(0)} %, client ${r.clientCpu.toFixed(0)} %${r.otherCpu === undefined ? '' : `, other ${r.otherCpu.toFixed(0)} %`} CPU`;
      log(
        `  round ${round} ${server.padEnd(6)} ${Math.round(r.rps).toLocaleString('en-US').padStart(8)} req/s  (${cpu})${isDisturbed(r) ? '  disturbed' : ''}${r.problems.length ? `  INVALID: ${r.problems.join('; ')}` : ''}`,
      );
      runs.push(r);
      disturbed ||= isDisturbed(r);
    }
    if (!disturbed) quietRounds++;
  }
  return summarise(path, reference, runs);
}

/**
 * A round is disturbed when either of its runs had other load on the machine (another
 * process competing for the 2 cores skews that run, not the two servers). The summary uses
 * the undisturbed rounds, as whole anchor+app pairs so alternation still balances drift.
 */
function summarise(path: string, reference: Reference, runs: RunFigures[]): ThroughputFigures {
  const rounds = [...new Set(runs.map((r) => r.round))];
  const quiet = rounds.filter((n) => !runs.some((r) => r.round === n && isDisturbed(r)));
  const usedRounds = quiet.length > 0 ? quiet : rounds;
  const used = runs.filter((r) => usedRounds.includes(r.round));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const of = (server: RunFigures['server']) => used.filter((r) => r.server === server);
  const cpuUs = (r: RunFigures) => (r.serverCpu / 100 / r.rps) * 1e6;
  const anchorRps = mean(of('anchor').map((r) => r.rps));
  const appRps = mean(of('app').map((r) => r.rps));
  const anchorCpuUs = mean(of('anchor').map(cpuUs));
  const appCpuUs = mean(of('app').map(cpuUs));
  return {
    path,
    reference,
    runs,
    usedRounds,
    anchorRps,
    appRps,
    ratio: appRps / anchorRps,
    anchorCpuUs,
    appCpuUs,
    cpuRatio: anchorCpuUs / appCpuUs,
  };
}
