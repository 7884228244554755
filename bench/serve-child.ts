/**
 * One server under load, in its own process (started by throughput.ts through child.ts).
 *
 *   serve-child.ts app <releaseDir>    the real service: loadRelease → ServedState → buildApp
 *   serve-child.ts served <releaseDir> the same with metrics and rate limits, as gspc serve runs
 *   serve-child.ts fastify <releaseDir> `served` without the prepared documents' fast path
 *   serve-child.ts anchor <mirrorDir>  a bare node:http server answering every request with
 *                                      mirrorDir/body.bin and the headers in mirrorDir/headers.json
 *   serve-child.ts <mode>-varied …     any of these, after node:http in this process has sent
 *                                      2,000 responses of other kinds (varyNodeHttp)
 *
 * The anchor is the fastest honest way Node can send the same bytes, so app/anchor measures
 * what the framework and the route cost on top of Node itself. Both listen on 127.0.0.1 only.
 *
 * IPC: the child sends { port } once listening; the parent may send { type: 'cpu' } (answered
 * with this process's cpuUsage, so the parent can tell whether the server was CPU-bound) and
 * { type: 'stop' }. The child exits when the parent goes away.
 */
import { readFileSync } from 'node:fs';
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serveAsBenchChild } from './child.js';
import { buildApp } from '../src/app.js';
import { ServiceMetrics } from '../src/web/metrics.js';
import { ServedState } from '../src/serve/served-state.js';
import { signingContext } from '../src/keys/signing.js';
import { loadRelease } from '../src/release/load.js';

const HOST = '127.0.0.1';

/**
 * Sends 2,000 responses of other kinds through node:http in this process (404 with a JSON
 * string, setHeader and a text body, write then end of buffers, 304), as any real service does
 * before and while it serves its board. V8 optimises node's HTTP internals for the response
 * shapes it has seen: in a process that only ever sent one shape they are faster than in any
 * service (docs/performance.md §12), so a pristine bare server is a ceiling no real server has.
 */
async function varyNodeHttp(): Promise<void> {
  const other = createServer((req, res) => {
    const k = Number((req.url ?? '/0').slice(1)) % 4;
    if (k === 0) {
      res.setHeader('x-kind', '0');
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'not found', k }));
    } else if (k === 1) {
      res.statusCode = 200;
      res.setHeader('content-type', 'text/plain');
      res.end(`text ${k}`);
    } else if (k === 2) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 5 });
      res.write(Buffer.from('ab'));
      res.end(Buffer.from('cde'));
    } else {
      res.writeHead(304);
      res.end();
    }
  });
  await new Promise<void>((resolve) => other.listen(0, HOST, resolve));
  const { port } = other.address() as AddressInfo;
  for (let i = 0; i < 2000; i++) await (await fetch(`http://${HOST}:${port}/${i}`)).arrayBuffer();
  other.closeAllConnections();
  await new Promise<void>((resolve) => other.close(() => resolve()));
}

async function listen(given: string, dir: string): Promise<{ port: number; close: () => Promise<void> }> {
  const varied = given.endsWith('-varied');
  const mode = varied ? given.slice(0, -'-varied'.length) : given;
  if (varied) await varyNodeHttp();
  if (mode === 'app' || mode === 'served' || mode === 'fastify') {
    // The release was published by throughput.ts with keys at <data>/keys (dir is <data>/releases/<id>).
    const s = signingContext(join(dir, '..', '..', 'keys'), 'localhost:8080');
    const state = new ServedState(loadRelease(dir), {
      did: s.did,
      boardKey: s.inputs.boardKey,
      published: s.keys.published,
    });
    // `served`: as `gspc serve` runs by default, with metrics and rate limits (budgets too high
    // to refuse the one load generator's address: the limiter's cost, not its refusals).
    const served = mode !== 'app';
    const app = buildApp({
      state,
      logLevel: 'warn',
      fastPath: mode !== 'fastify',
      ...(served && {
        metrics: new ServiceMetrics(state),
        rateLimits: { free: 1_000_000_000, verify: 0, challenge: 0, paid: 0 },
      }),
    });
    await app.listen({ host: HOST, port: 0 });
    return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
  }
  if (mode === 'anchor') {
    const body = readFileSync(join(dir, 'body.bin'));
    const headers = {
      ...(JSON.parse(readFileSync(join(dir, 'headers.json'), 'utf8')) as OutgoingHttpHeaders),
      'content-length': body.length,
    };
    const server = createServer((_req, res) => {
      res.writeHead(200, headers);
      res.end(body);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, HOST, resolve);
    });
    return {
      port: (server.address() as AddressInfo).port,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }
  throw new Error(`unknown mode '${mode}' (expected app, served, fastify or anchor, each optionally -varied)`);
}

const [mode = '', dir = ''] = process.argv.slice(2);
await serveAsBenchChild(() => listen(mode, dir));
