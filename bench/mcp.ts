/**
 * Measurement 7: MCP `tools/call gspc_board` (issue 6) as a ratio of `GET /api/gspc` on the same
 * app. The tool answers the same board document (structuredContent) through the MCP SDK's
 * per-request server, so the ratio is what the protocol layer costs on top of the HTTP read.
 * Two MCP requests are measured, one per protocol era the endpoint serves:
 *
 *   mcp-2026: a raw JSON-RPC POST with the 2026-07-28 `_meta` envelope and headers (MCP-Protocol-
 *             Version, Mcp-Method, Mcp-Name); answered as one JSON body;
 *   mcp-2025: the same call as a 2025-era client sends it after `initialize` (MCP-Protocol-Version
 *             2025-11-25, no envelope), answered by the SDK's stateless fallback as SSE.
 *
 * Method as in throughput.ts and payments.ts: the app (serve-child.ts, buildApp over the demo
 * release, signed) in its own process, autocannon here; per round one app process serves the
 * three runs in turn (board, mcp-2026, mcp-2025), so all three hit the same app; disturbed
 * rounds are replaced. Every response is checked: status 200 and a body equal, byte for byte,
 * to the reference answer recorded before the runs (whose structuredContent was checked to be
 * the board document itself); before and after each run one out-of-band request is checked too.
 */
import autocannon from 'autocannon';
import { isDeepStrictEqual } from 'node:util';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { ServedState } from '../src/serve/served-state.js';
import { keygen } from '../src/keys/key-store.js';
import { signingContext } from '../src/keys/signing.js';
import { loadRelease } from '../src/release/load.js';
import { publishRelease } from '../src/release/publish.js';
import { BenchChild } from './child.js';
import { DISTURBED_OTHER_CPU } from './machine-load.js';
import { measureRun, type Load, type LoadSettings } from './throughput.js';

const HOST = '127.0.0.1';
const SERVE_CHILD = fileURLToPath(new URL('./serve-child.ts', import.meta.url));
const DEMO_CORPUS = fileURLToPath(new URL('../demo/corpus', import.meta.url));
/** The HTTP read the MCP calls are compared with, and the MCP endpoint. */
export const BOARD_PATH = '/api/gspc';
export const MCP_PATH = '/mcp';

/** The three requests measured in each round, in run order. */
export type McpSide = 'board' | 'mcp-2026' | 'mcp-2025';
export const SIDES: readonly McpSide[] = ['board', 'mcp-2026', 'mcp-2025'];

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'gspc-bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One side's request and the reference answer every response must equal. */
export interface McpRequest {
  side: McpSide;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  contentType: string;
  reference: string;
}

function requests(): Omit<McpRequest, 'contentType' | 'reference'>[] {
  const call = (meta: boolean) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'gspc_board', arguments: {}, ...(meta && { _meta: ENVELOPE }) },
    });
  const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  return [
    { side: 'board', method: 'GET', path: BOARD_PATH, headers: {} },
    {
      side: 'mcp-2026',
      method: 'POST',
      path: MCP_PATH,
      headers: { ...json, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'gspc_board' },
      body: call(true),
    },
    {
      side: 'mcp-2025',
      method: 'POST',
      path: MCP_PATH,
      headers: { ...json, 'mcp-protocol-version': '2025-11-25' },
      body: call(false),
    },
  ];
}

/** One measured run (as ChallengeRun in payments.ts). */
export interface McpRun {
  round: number;
  side: McpSide;
  rps: number;
  responses: number;
  latencyP50: number;
  latencyP99: number;
  serverCpu: number;
  clientCpu: number;
  otherCpu: number | undefined;
  problems: string[];
}

export interface McpFigures {
  requests: McpRequest[];
  runs: McpRun[];
  usedRounds: number[];
  rps: Record<McpSide, number>;
  /** Server CPU µs per request, means over the used rounds. */
  cpuUs: Record<McpSide, number>;
  /** The figures: mean MCP req/s ÷ mean board req/s over the used rounds, per era. */
  ratio2026: number;
  ratio2025: number;
}

/** A run with more other CPU load than DISTURBED_OTHER_CPU: its round is left out when others are quiet. */
export const isDisturbed = (r: McpRun) => (r.otherCpu ?? 0) > DISTURBED_OTHER_CPU;

/** One request, answered in full: status, content type and body. */
function fetchOnce(
  port: number,
  r: Omit<McpRequest, 'contentType' | 'reference'>,
): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: HOST, port, path: r.path, method: r.method, headers: r.headers, agent: false, timeout: 10_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(r.body);
  });
}

/** The structuredContent of an MCP answer (JSON, or the one `data:` line of an SSE body). */
function structuredContentOf(side: McpSide, body: string): unknown {
  const json =
    side === 'mcp-2025'
      ? (body
          .split('\n')
          .find((l) => l.startsWith('data: '))
          ?.slice(6) ?? 'null')
      : body;
  return (JSON.parse(json) as { result?: { structuredContent?: unknown } } | null)?.result?.structuredContent;
}

/**
 * Publishes the demo release where serve-child.ts finds its keys, then records each side's
 * reference answer from that app listening on a port; the MCP answers must carry the board.
 */
async function prepare(tmp: string): Promise<{ releaseDir: string; requests: McpRequest[] }> {
  const data = join(tmp, 'mcp', 'data');
  keygen(join(data, 'keys'));
  const signing = signingContext(join(data, 'keys'), 'localhost:8080');
  const releaseDir = publishRelease(DEMO_CORPUS, data, signing.inputs).dir;
  const app = buildApp({
    state: new ServedState(loadRelease(releaseDir), {
      did: signing.did,
      boardKey: signing.inputs.boardKey,
      published: signing.keys.published,
    }),
    logLevel: 'warn',
  });
  await app.listen({ host: HOST, port: 0 });
  try {
    const port = (app.server.address() as { port: number }).port;
    const out: McpRequest[] = [];
    for (const r of requests()) {
      const a = await fetchOnce(port, r);
      if (a.status !== 200)
        throw new Error(`reference ${r.side}: ${r.method} ${r.path} answered ${a.status}: ${a.body.slice(0, 200)}`);
      out.push({ ...r, contentType: a.contentType, reference: a.body });
    }
    const board = JSON.parse(out[0]!.reference) as unknown;
    for (const r of out.slice(1)) {
      if (!isDeepStrictEqual(structuredContentOf(r.side, r.reference), board))
        throw new Error(`reference ${r.side}: structuredContent is not the board of GET ${BOARD_PATH}`);
    }
    return { releaseDir, requests: out };
  } finally {
    await app.close();
  }
}

async function verifyOnce(port: number, r: McpRequest): Promise<string[]> {
  try {
    const a = await fetchOnce(port, r);
    if (a.status !== 200) return [`status ${a.status}`];
    if (a.contentType !== r.contentType) return [`content-type ${a.contentType} (expected ${r.contentType})`];
    return a.body === r.reference
      ? []
      : [`body differs from the reference (${a.body.length} characters, expected ${r.reference.length})`];
  } catch (e) {
    return [`request failed: ${(e as Error).message}`];
  }
}

/** One autocannon run; every response's status is checked as it arrives and its whole body on completion. */
function load(port: number, seconds: number, connections: number, r: McpRequest): Promise<Load> {
  const out = { checked: 0, bad: 0, firstBad: undefined as string | undefined };
  const fail = (why: string) => {
    out.bad++;
    out.firstBad ??= why;
  };
  // autocannon@9 takes `body` and `verifyBody`; bench/autocannon.d.ts declares only what the other benches use.
  const opts: autocannon.Options & { body?: string; verifyBody: (body: string) => boolean } = {
    url: `http://${HOST}:${port}${r.path}`,
    method: r.method,
    headers: r.headers,
    ...(r.body !== undefined && { body: r.body }),
    connections,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    verifyBody: (body) => body === r.reference,
    setupClient: (client) => {
      client.on('headers', (info) => {
        if (info.statusCode !== 200) fail(`status ${info.statusCode}`);
      });
      client.on('response', () => {
        out.checked++;
      });
      client.on('mismatch', (body: unknown) =>
        fail(`body differs from the reference (${String(body).length} characters, expected ${r.reference.length})`),
      );
    },
  };
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => {
      if (err) return reject(err);
      if (result.mismatches > 0 && out.bad === 0) fail(`${result.mismatches} bodies differ from the reference`);
      resolve({ result, ...out });
    });
  });
}

async function runRound(
  round: number,
  releaseDir: string,
  reqs: McpRequest[],
  s: LoadSettings,
  children: BenchChild[],
  log: (line: string) => void,
): Promise<McpRun[]> {
  const child = new BenchChild('mcp app server', SERVE_CHILD, ['app', releaseDir]);
  children.push(child);
  const runs: McpRun[] = [];
  try {
    const { port } = await child.next<{ port: number }>(60_000, 'listening port');
    for (const r of reqs) {
      const figures = await measureRun(child, {
        verify: () => verifyOnce(port, r),
        load: (seconds) => load(port, seconds, s.connections, r),
        warmupSeconds: s.warmupSeconds,
        seconds: s.seconds,
      });
      const run: McpRun = { round, side: r.side, ...figures };
      const cpu = `server ${run.serverCpu.toFixed(0)} %, client ${run.clientCpu.toFixed(0)} %${run.otherCpu === undefined ? '' : `, other ${run.otherCpu.toFixed(0)} %`} CPU`;
      log(
        `  round ${round} ${r.side.padEnd(8)} ${Math.round(run.rps).toLocaleString('en-US').padStart(8)} req/s  (${cpu})${isDisturbed(run) ? '  disturbed' : ''}${run.problems.length ? `  INVALID: ${run.problems.join('; ')}` : ''}`,
      );
      runs.push(run);
    }
  } finally {
    await child.stop();
  }
  return runs;
}

/** Runs rounds until s.rounds undisturbed ones (at most s.extraRounds more) and summarises them. */
export async function measureMcp(
  tmp: string,
  s: LoadSettings,
  children: BenchChild[],
  log: (line: string) => void,
): Promise<McpFigures> {
  const { releaseDir, requests: reqs } = await prepare(tmp);
  log(
    `  references: ${reqs.map((r) => `${r.side} ${r.reference.length} characters (${r.contentType.split(';')[0]})`).join(', ')}; the MCP answers carry the board as structuredContent`,
  );
  const runs: McpRun[] = [];
  let quietRounds = 0;
  for (let round = 1; quietRounds < s.rounds && round <= s.rounds + s.extraRounds; round++) {
    const r = await runRound(round, releaseDir, reqs, s, children, log);
    runs.push(...r);
    if (!r.some(isDisturbed)) quietRounds++;
  }
  const rounds = [...new Set(runs.map((r) => r.round))];
  const quiet = rounds.filter((n) => !runs.some((r) => r.round === n && isDisturbed(r)));
  const usedRounds = quiet.length > 0 ? quiet : rounds;
  const used = runs.filter((r) => usedRounds.includes(r.round));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const per = (f: (r: McpRun) => number) =>
    Object.fromEntries(SIDES.map((side) => [side, mean(used.filter((r) => r.side === side).map(f))])) as Record<
      McpSide,
      number
    >;
  const rps = per((r) => r.rps);
  const cpuUs = per((r) => (r.serverCpu / 100 / r.rps) * 1e6);
  return {
    requests: reqs,
    runs,
    usedRounds,
    rps,
    cpuUs,
    ratio2026: rps['mcp-2026'] / rps.board,
    ratio2025: rps['mcp-2025'] / rps.board,
  };
}
