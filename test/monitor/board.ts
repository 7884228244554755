/**
 * What the monitor's tests share: a board published and served for its origin (`gspc keygen`,
 * `gspc publish`, the real app on localhost, so its did:web resolves to it), views that answer
 * like it except where a test says otherwise, and `gspc monitor --once` with its JSON lines.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after } from 'node:test';
import { buildApp } from '../../src/app.js';
import { signingContext } from '../../src/keys/signing.js';
import { loadRelease } from '../../src/release/load.js';
import { ServedState } from '../../src/serve/served-state.js';
import { liveOf } from '../../src/service.js';
import { gspc } from '../helpers/cli.js';
import { freePort } from '../helpers/process.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON lines */
export type Json = any;

export interface Board {
  /** http://localhost:<port>: the origin, and its DID's host. */
  origin: string;
  port: number;
  data: string;
  keyDir: string;
  /** The release served (the last published). */
  release: string;
  stop(): Promise<void>;
}

/**
 * Fresh keys and a release of `corpus` published for http://localhost:<port>, served at the
 * origin itself (`serveAt` 'origin', the default), at another address ('elsewhere': a replica,
 * or with another board's `port`, an impostor claiming that origin), or not at all ('nowhere').
 */
export async function publishBoard(
  o: { corpus?: string; port?: number; serveAt?: 'origin' | 'elsewhere' | 'nowhere' } = {},
): Promise<Board & { served: string }> {
  const port = o.port ?? (await freePort());
  const origin = `http://localhost:${port}`;
  const data = tempDir();
  const keyDir = join(data, 'keys');
  assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
  const r = await gspc(['publish', o.corpus ?? demoCorpus, '--data-dir', data, '--public-url', origin]);
  assert.equal(r.status, 0, r.stderr);
  const release = /^published (r-[0-9a-f]{20})/.exec(r.stdout)![1]!;
  const where = o.serveAt ?? 'origin';
  const unserved = { origin, port, data, keyDir, release };
  if (where === 'nowhere') return { ...unserved, served: '', stop: async () => undefined };
  const at = await serveBoard(unserved, where === 'origin' ? port : await freePort());
  return { ...unserved, ...at };
}

/** The board's release served by the real app on 127.0.0.1:<listenPort>, with the board's keys and origin. */
export async function serveBoard(
  b: Pick<Board, 'origin' | 'port' | 'data' | 'keyDir' | 'release'>,
  listenPort: number,
): Promise<{ served: string; stop(): Promise<void> }> {
  const state = new ServedState(
    loadRelease(join(b.data, 'releases', b.release)),
    liveOf(signingContext(b.keyDir, `localhost:${b.port}`)),
  );
  const app = buildApp({ state, logLevel: 'silent', baseUrl: b.origin });
  await app.listen({ host: '127.0.0.1', port: listenPort });
  let stopped = false;
  const stop = async () => {
    if (!stopped) await app.close();
    stopped = true;
  };
  after(stop);
  return { served: `http://127.0.0.1:${listenPort}`, stop };
}

/** A view served by `handle` on 127.0.0.1, closed (connections and all) when the test file ends. */
export async function viewServer(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server: Server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A view that answers as `upstream` does, except for the paths `override` answers. */
export function copyOf(
  upstream: string,
  override: (path: string, honest: () => Promise<Buffer>) => Promise<Buffer | undefined>,
): Promise<string> {
  return viewServer(async (req, res) => {
    const honest = async () => Buffer.from(await (await fetch(`${upstream}${req.url}`)).arrayBuffer());
    const mine = await override(req.url!, honest);
    if (mine !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(mine);
      return;
    }
    const r = await fetch(`${upstream}${req.url}`);
    res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await r.arrayBuffer()));
  });
}

/** `gspc monitor <views> --state <dir> --once [extra]`: its exit status, JSON lines and standard error. */
export async function monitorOnce(
  views: string[],
  stateDir: string,
  extra: string[] = [],
): Promise<{ status: number; lines: Json[]; stderr: string }> {
  const r = await gspc(['monitor', ...views, '--state', stateDir, '--once', ...extra]);
  const text = r.stdout.trim();
  return { status: r.status, lines: text === '' ? [] : text.split('\n').map((l) => JSON.parse(l)), stderr: r.stderr };
}

/** Each line's alert code (or status). */
export const kinds = (lines: Json[]): string[] => lines.map((l) => l.alert ?? l.status);

/** The alert codes raised for `view`. */
export const alertsFor = (lines: Json[], view: string): string[] =>
  lines.filter((l) => l.alert !== undefined && String(l.view).split(' | ').includes(view)).map((l) => l.alert);
