/**
 * Measurement 6: the capability fabric document while a probe target is slow (issue 5; goal:
 * unaffected). The real app (demo release, SQLite-free: no ledger needed) listens on a port; its
 * fabric observer probes the app through a forwarding proxy, re-probing every second, so every
 * rail is probed continuously during the runs. In the "slow" condition the proxy holds
 * `GET /api/regulation` for 10 s, beyond the 3,500 ms probe timeout, so a probe of that rail is
 * always hanging. autocannon loads `GET /api/capability-fabric` in alternating runs (fast, slow,
 * fast, slow, ...); the figure is slow/fast of req/s and of p50 latency, measured in the same run.
 *
 * Everything runs in this process (app, proxy, observer and load generator), equally in both
 * conditions; the ratio is what is reported. Every response must be a 200; after each slow run the regulation rail must show the timeout (proof that the target
 * was slow while measured), after each fast run it must not.
 */
import autocannon from 'autocannon';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app.js';
import { ServedState } from '../src/serve/served-state.js';
import { keygen } from '../src/keys/key-store.js';
import { signingContext } from '../src/keys/signing.js';
import { readRailConfig } from '../src/config.js';
import { loadRelease } from '../src/release/load.js';
import { publishRelease } from '../src/release/publish.js';
import { FabricObserver } from '../src/status/fabric-observer.js';
import { ACTION_TIMEOUT_MS } from '../src/core/fabric/actions.js';
import type { LoadSettings } from './throughput.js';

export const FABRIC_PATH = '/api/capability-fabric';
const SLOW_PATH = '/api/regulation';
const HOLD_MS = 10_000;
const CONNECTIONS = 10;

export interface FabricRun {
  round: number;
  condition: 'fast' | 'slow';
  rps: number;
  p50: number;
  p99: number;
  responses: number;
  bad: number;
  regulationRail: string;
}
export interface FabricFigures {
  runs: FabricRun[];
  rpsRatio: number;
  p50Ratio: number;
  problems: string[];
  bodyBytes: number;
}

function proxyTo(port: number, slow: { on: boolean }): Server {
  return createServer((req, res) => {
    const forward = () => {
      const up = request({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on('error', () => res.destroy());
      req.pipe(up);
    };
    if (slow.on && req.url === SLOW_PATH) {
      const t = setTimeout(forward, HOLD_MS);
      res.on('close', () => clearTimeout(t));
      return;
    }
    forward();
  });
}

const listen = (s: Server) =>
  new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export async function measureFabric(
  demoCorpus: string,
  tmp: string,
  s: LoadSettings,
  log: (line: string) => void,
): Promise<FabricFigures> {
  keygen(`${tmp}/fabric-keys`);
  const signing = signingContext(`${tmp}/fabric-keys`, 'localhost:8080');
  const { dir } = publishRelease(demoCorpus, `${tmp}/fabric-data`, signing.inputs);
  const state = new ServedState(loadRelease(dir), {
    did: signing.did,
    boardKey: signing.inputs.boardKey,
    published: signing.keys.published,
  });
  const slow = { on: false };
  let proxyPort = 0;
  const fabric = new FabricObserver({
    origin: 'http://127.0.0.1:1',
    timeoutMs: ACTION_TIMEOUT_MS,
    fetch: (u, i) => fetch(u, i),
    now: () => new Date(),
    refreshMs: 1000,
  });
  const app = buildApp({
    state,
    logLevel: 'silent',
    baseUrl: 'http://localhost:8080',
    now: () => new Date(),
    products: { rail: readRailConfig({}) },
    fabric,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const appPort = (app.server.address() as AddressInfo).port;
  const proxy = proxyTo(appPort, slow);
  proxyPort = await listen(proxy);
  fabric.retarget(`http://127.0.0.1:${proxyPort}`);
  fabric.start();
  const url = `http://127.0.0.1:${appPort}${FABRIC_PATH}`;
  const problems: string[] = [];
  const runs: FabricRun[] = [];
  let bodyBytes = 0;
  const regulationRail = async () => {
    const doc = (await (await fetch(url)).json()) as {
      rails: { id: string; state: string; last_error: string | null }[];
    };
    const r = doc.rails.find((x) => x.id === 'regulation-feed')!;
    return `${r.state}${r.last_error ? ` (${r.last_error})` : ''}`;
  };
  try {
    for (let round = 1; round <= s.rounds; round++) {
      for (const condition of ['fast', 'slow'] as const) {
        slow.on = condition === 'slow';
        // Let a whole probe cycle pass in the new condition (the slow rail times out at 3.5 s).
        await new Promise((r) => setTimeout(r, condition === 'slow' ? ACTION_TIMEOUT_MS + 1500 : 1500));
        await fabric.refresh().catch(() => undefined);
        let bad = 0;
        const run = (seconds: number) =>
          new Promise<autocannon.Result>((resolve, reject) => {
            autocannon(
              {
                url,
                connections: CONNECTIONS,
                duration: seconds,
                pipelining: 1,
                timeout: 10,
                setupClient: (client) => {
                  client.on('headers', (info) => {
                    if (info.statusCode !== 200) bad++;
                  });
                  client.on('response', (_status, resBytes) => {
                    bodyBytes = resBytes;
                  });
                },
              },
              (err, result) => (err ? reject(err) : resolve(result)),
            );
          });
        await run(s.warmupSeconds);
        bad = 0;
        const result = await run(s.seconds);
        const rail = await regulationRail();
        const expectTimeout = condition === 'slow';
        if (expectTimeout !== /timeout after/.test(rail))
          problems.push(`round ${round} ${condition}: regulation rail ${rail}`);
        if (bad > 0) problems.push(`round ${round} ${condition}: ${bad} responses were not 200`);
        runs.push({
          round,
          condition,
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          responses: result.requests.total,
          bad,
          regulationRail: rail,
        });
        log(
          `  round ${round} ${condition}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; regulation rail ${rail}`,
        );
      }
    }
  } finally {
    fabric.stop();
    proxy.closeAllConnections();
    proxy.close();
    await app.close();
  }
  const by = (c: 'fast' | 'slow') => runs.filter((r) => r.condition === c);
  return {
    runs,
    problems,
    bodyBytes,
    rpsRatio: mean(by('slow').map((r) => r.rps)) / mean(by('fast').map((r) => r.rps)),
    p50Ratio: mean(by('slow').map((r) => r.p50)) / Math.max(1e-9, mean(by('fast').map((r) => r.p50))),
  };
}
