/**
 * Measurement 5: the metered products (issue 4), two figures.
 *
 * A. Challenge throughput. Requests/s of `GET /api/request-attestation?subject=<model>` (the
 *    402 challenge: JSON body, base64 `PAYMENT-REQUIRED`, a live preview and an Ed25519-signed
 *    offer) against `GET /api/gspc` on the same app, as a ratio. Same method as throughput.ts:
 *    one server at a time in its own child process (payments-child.ts), autocannon here, runs
 *    alternating board, challenge, board, challenge, disturbed rounds replaced. Every response is
 *    checked as it arrives (board: 200, reference content-length and ETag; challenge: 402,
 *    reference content-length, a PAYMENT-REQUIRED header of the reference length), and before
 *    and after each run one out-of-band request is checked in full (the board byte for byte;
 *    the challenge: the header decodes to the body, the body equals the reference apart from
 *    the offer, and the offer is a JWS that verifies under the board key and names this
 *    resource, payee and amount).
 *
 * B. Added latency of a paid request. The local rail (anvil + Circle's USDC + the official
 *    x402 facilitator, demo/local-rail) and the service in its own process (paid-child.ts) on a real port, built
 *    as test/payments/paid-harness.ts builds it (demo release signed under
 *    did:web:localhost%3A<port>, SQLite ledger), with GSPC_FACILITATOR_URL pointing at a timing
 *    proxy in front of the facilitator that records how long each /verify and /settle takes.
 *    N sequential payments built by the official client (@x402/core + @x402/evm): for each, the
 *    client-observed latency of the paid GET, the facilitator time seen at the proxy, and their
 *    difference, the service's own added latency (payment checks, reservation, artefact, receipt
 *    signing, ledger writes, the HTTP hops). Each payment is then replayed (same header: the
 *    stored artefact, no facilitator call) as an anchor. Skipped, loudly, without anvil.
 */
import autocannon from 'autocannon';
import { mkdirSync } from 'node:fs';
import { Agent, createServer, get, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { PaymentRequired } from '@x402/core/types';
import { buildApp } from '../src/app.js';
import { ServedState } from '../src/serve/served-state.js';
import { verifyJwsSignature } from '../src/core/crypto/jws.js';
import { keygen } from '../src/keys/key-store.js';
import { signingContext } from '../src/keys/signing.js';
import { readRailConfig } from '../src/config.js';
import { loadRelease, type LoadedRelease } from '../src/release/load.js';
import { publishRelease } from '../src/release/publish.js';
import { openLedger } from '../src/store/open-ledger.js';
import { anvilBinaryPath, startLocalRail, type LocalRail } from '../demo/local-rail/index.js';
import { challengeOf, officialPayment } from '../test/payments/paid-harness.js';
import { freePort } from '../test/helpers/process.js';
import { BenchChild } from './child.js';
import { DISTURBED_OTHER_CPU } from './machine-load.js';
import { BASE_URL, DID_HOST, RAIL_ENV } from './payments-child.js';
import { measureRun, type Load, type LoadSettings } from './throughput.js';

const HOST = '127.0.0.1';
const CHILD = fileURLToPath(new URL('./payments-child.ts', import.meta.url));
const PAID_CHILD = fileURLToPath(new URL('./paid-child.ts', import.meta.url));
const DEMO_CORPUS = fileURLToPath(new URL('../demo/corpus', import.meta.url));
export const BOARD_PATH = '/api/gspc';
/** Paid requests made (and replayed) before the measured ones, so JIT and connections are warm. */
export const PAID_WARMUP = 3;

export type Side = 'board' | 'challenge';

export interface ChallengeRun {
  round: number;
  side: Side;
  rps: number;
  responses: number;
  latencyP50: number;
  latencyP99: number;
  /** CPU of the server process over the measured window, % of one core. */
  serverCpu: number;
  /** CPU of this (autocannon) process over the measured window, % of one core. */
  clientCpu: number;
  /** Busy CPU of the machine minus server and client, % of one core (Linux only). */
  otherCpu: number | undefined;
  problems: string[];
}

/** What one side must answer: status, body length, and for the board its ETag, for the challenge its header length. */
interface Expected {
  path: string;
  status: number;
  length: number;
  etag?: string;
  paymentRequiredLength?: number;
  body: Buffer;
}

export interface ChallengeFigures {
  subject: string;
  challengePath: string;
  board: Expected;
  challenge: Expected;
  runs: ChallengeRun[];
  usedRounds: number[];
  boardRps: number;
  challengeRps: number;
  /** The goal figure: mean challenge req/s ÷ mean board req/s over the used rounds. */
  ratio: number;
  /** Server CPU µs per request (means over the used rounds) and their ratio board/challenge. */
  boardCpuUs: number;
  challengeCpuUs: number;
  cpuRatio: number;
}

export interface Spread {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export interface PaidFigures {
  count: number;
  price: string;
  total: Spread;
  facilitator: Spread;
  verify: Spread;
  settle: Spread;
  added: Spread;
  /** Each paid request's time inside the service's process (request event to last byte written). */
  service: Spread;
  /** service − facilitator: the added latency without the client's own HTTP stack and loopback. */
  addedInService: Spread;
  replay: Spread;
  /** The challenge fetched before each payment (not part of the paid request). */
  challenge: Spread;
  /** Time in the ledger's methods during each paid request (part of the added latency), and the most calls seen in one. */
  ledger: Spread;
  ledgerCalls: number;
  /**
   * The two facilitator calls as the service sees them, minus the facilitator's own time at the
   * proxy: the loopback hops and both sides' HTTP work (part of the added latency).
   */
  hops: Spread;
  /** One bare durable SQLite commit on the ledger's disk after each payment: the disk's own tail. */
  diskCommit: Spread;
  /** USDC (atomic) the payer paid and the payee received over the whole run, warm-up included. */
  paid: bigint;
  received: bigint;
  problems: string[];
}

export interface PaymentsFigures {
  challenge: ChallengeFigures;
  paid: PaidFigures | { skipped: string };
}

export const isDisturbed = (r: ChallengeRun) => (r.otherCpu ?? 0) > DISTURBED_OTHER_CPU;

// ---------------------------------------------------------------------------------------------
// A. Challenge throughput

interface Prepared {
  dataDir: string;
  ledgerPath: string;
  subject: string;
  challengePath: string;
  board: Expected;
  challenge: Expected;
  boardKey: Uint8Array;
}

const offersOf = (c: Record<string, unknown>) =>
  (c.extensions as Record<string, { info: { offers: { signature: string }[] } }>)['offer-receipt']!.info.offers;

/** A signed card's model id from the release: the subject a commission receipt would be bought for. */
function signedSubject(release: LoadedRelease): string {
  const card = [...release.evidence.cards.values()].find(
    (c) => c.surface === 'board.measurement' && c.sig_ed25519 !== null,
  );
  if (!card) throw new Error('the demo release has no signed board.measurement card');
  return card.subject;
}

/** Publishes the demo corpus and records the reference answers of both paths via inject. */
async function prepare(tmp: string): Promise<Prepared> {
  const dataDir = join(tmp, 'payments', 'data');
  const keyDir = join(dataDir, 'keys');
  mkdirSync(dataDir, { recursive: true });
  keygen(keyDir);
  const signing = signingContext(keyDir, DID_HOST);
  if (!signing.inputs.boardKey.healthy) throw new Error(`board key unhealthy: ${signing.inputs.boardKey.reason}`);
  const releaseDir = publishRelease(DEMO_CORPUS, dataDir, signing.inputs).dir;
  const release = loadRelease(releaseDir);
  const subject = signedSubject(release);
  const challengePath = `/api/request-attestation?subject=${encodeURIComponent(subject)}`;
  const ledgerPath = join(tmp, 'payments', 'ledger.sqlite');
  const ledger = await openLedger({ sqlitePath: join(tmp, 'payments', 'reference-ledger.sqlite') });
  const app = buildApp({
    state: new ServedState(release, {
      did: signing.did,
      boardKey: signing.inputs.boardKey,
      published: signing.keys.published,
    }),
    logLevel: 'warn',
    baseUrl: BASE_URL,
    now: () => new Date(),
    ledger,
    products: { rail: readRailConfig(RAIL_ENV), facilitatorTimeoutMs: 15_000 },
  });
  try {
    const b = await app.inject({ method: 'GET', url: BOARD_PATH });
    if (b.statusCode !== 200 || typeof b.headers.etag !== 'string')
      throw new Error(`reference GET ${BOARD_PATH} answered ${b.statusCode}`);
    const c = await app.inject({ method: 'GET', url: challengePath });
    const header = c.headers['payment-required'];
    if (c.statusCode !== 402 || typeof header !== 'string')
      throw new Error(
        `reference GET ${challengePath} answered ${c.statusCode} ${typeof header === 'string' ? 'with' : 'without'} PAYMENT-REQUIRED: ${c.body.slice(0, 200)}`,
      );
    const boardKey = signing.inputs.boardKey.signer.publicKey;
    const board: Expected = {
      path: BOARD_PATH,
      status: 200,
      length: b.rawPayload.length,
      etag: b.headers.etag,
      body: b.rawPayload,
    };
    const challenge: Expected = {
      path: challengePath,
      status: 402,
      length: c.rawPayload.length,
      paymentRequiredLength: header.length,
      body: c.rawPayload,
    };
    const problems = await checkChallenge(c.rawPayload, header, challenge, boardKey, true);
    if (problems.length > 0) throw new Error(`reference challenge: ${problems.join('; ')}`);
    const preview = (JSON.parse(c.body) as { svc: { preview: { signed_cards_on_file: number } } }).svc.preview;
    if (!(preview.signed_cards_on_file > 0))
      throw new Error(`reference challenge: the preview shows no signed card for ${subject}`);
    return { dataDir, ledgerPath, subject, challengePath, board, challenge, boardKey };
  } finally {
    await app.close();
    await ledger.close();
  }
}

/**
 * A challenge checked in full: PAYMENT-REQUIRED decodes to the body; the body equals the
 * reference apart from the offer's JWS (its validity window moves with the clock); exactly one
 * offer, which verifies under the board key and names this resource, the payee and the amount.
 */
async function checkChallenge(
  body: Buffer,
  header: string | undefined,
  ref: Expected,
  boardKey: Uint8Array,
  isReference = false,
): Promise<string[]> {
  const problems: string[] = [];
  let c: Record<string, unknown>;
  try {
    c = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return ['body is not JSON'];
  }
  if (header === undefined) problems.push('no PAYMENT-REQUIRED header');
  else if (!isDeepStrictEqual(JSON.parse(Buffer.from(header, 'base64').toString('utf8')), c))
    problems.push('PAYMENT-REQUIRED does not decode to the body');
  const offers = offersOf(c);
  if (offers.length !== 1) return [...problems, `${offers.length} offers (expected 1 signed offer)`];
  const checked = await verifyJwsSignature(offers[0]!.signature, boardKey);
  if (!checked.ok) return [...problems, `offer: ${checked.reason}`];
  const terms = JSON.parse(Buffer.from(checked.payload).toString('utf8')) as Record<string, unknown>;
  const accepts = (c.accepts as Record<string, unknown>[])[0]!;
  if (
    terms.resourceUrl !== `${BASE_URL}${ref.path}` ||
    terms.payTo !== RAIL_ENV.GSPC_PAY_TO ||
    terms.amount !== accepts.amount ||
    accepts.payTo !== RAIL_ENV.GSPC_PAY_TO
  ) {
    problems.push(`offer terms ${JSON.stringify(terms)} do not match the resource and accepts entry`);
  }
  if (!isReference) {
    const strip = (x: Record<string, unknown>) => {
      const y = structuredClone(x);
      for (const o of offersOf(y)) o.signature = '';
      // The sign-in challenge's nonce is drawn per 402, its times are the second's (decision P45).
      const siwx = (y.extensions as Record<string, { info?: Record<string, unknown> }> | undefined)?.['sign-in-with-x'];
      if (siwx?.info) for (const k of ['nonce', 'issuedAt', 'expirationTime']) delete siwx.info[k];
      return y;
    };
    if (!isDeepStrictEqual(strip(c), strip(JSON.parse(ref.body.toString('utf8')) as Record<string, unknown>)))
      problems.push('body differs from the reference (offer and sign-in nonce aside)');
  }
  return problems;
}

/** One plain GET of `exp.path`, checked in full. */
function verifyOnce(port: number, exp: Expected, boardKey: Uint8Array): Promise<string[]> {
  return new Promise((resolve) => {
    const req = get({ host: HOST, port, path: exp.path, agent: false, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if (res.statusCode !== exp.status) return resolve([`status ${res.statusCode} (expected ${exp.status})`]);
        if (exp.etag !== undefined) {
          const problems: string[] = [];
          if (!body.equals(exp.body))
            problems.push(`body differs from the reference (${body.length} bytes, expected ${exp.body.length})`);
          if (res.headers.etag !== exp.etag) problems.push(`etag ${res.headers.etag} (expected ${exp.etag})`);
          return resolve(problems);
        }
        const h = res.headers['payment-required'];
        void checkChallenge(body, typeof h === 'string' ? h : undefined, exp, boardKey).then(resolve, (e: Error) =>
          resolve([`check failed: ${e.message}`]),
        );
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve([`request failed: ${e.message}`]));
  });
}

/** One autocannon run; every response's status and framing headers are checked as they arrive. */
function load(port: number, seconds: number, connections: number, exp: Expected): Promise<Load> {
  const length = String(exp.length);
  const out = { checked: 0, bad: 0, firstBad: undefined as string | undefined };
  const fail = (why: string) => {
    out.bad++;
    out.firstBad ??= why;
  };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://${HOST}:${port}${exp.path}`,
        connections,
        pipelining: 1,
        duration: seconds,
        timeout: 10,
        setupClient: (client) => {
          client.on('headers', (info) => {
            if (info.statusCode !== exp.status) return fail(`status ${info.statusCode}`);
            let len: string | undefined;
            let tag: string | undefined;
            let required: string | undefined;
            const h = info.headers;
            for (let i = 0; i < h.length; i += 2) {
              const name = h[i]!.toLowerCase();
              if (name === 'content-length') len = h[i + 1];
              else if (name === 'etag') tag = h[i + 1];
              else if (name === 'payment-required') required = h[i + 1];
            }
            if (len !== length) fail(`content-length ${len} (expected ${length})`);
            else if (exp.etag !== undefined && tag !== exp.etag) fail(`etag ${tag} (expected ${exp.etag})`);
            else if (exp.paymentRequiredLength !== undefined && required?.length !== exp.paymentRequiredLength)
              fail(
                `PAYMENT-REQUIRED of ${required?.length ?? 'no'} characters (expected ${exp.paymentRequiredLength})`,
              );
          });
          client.on('response', (_status, resBytes) => {
            out.checked++;
            if (resBytes < exp.length) fail(`response of ${resBytes} bytes, shorter than the body`);
          });
        },
      },
      (err, result) => (err ? reject(err) : resolve({ result, ...out })),
    );
  });
}

async function runOne(
  round: number,
  side: Side,
  p: Prepared,
  s: LoadSettings,
  children: BenchChild[],
  execArgv: string[],
): Promise<ChallengeRun> {
  const exp = side === 'board' ? p.board : p.challenge;
  const child = new BenchChild(`payments ${side} server`, CHILD, [p.dataDir, p.ledgerPath], { execArgv });
  children.push(child);
  try {
    const { port } = await child.next<{ port: number }>(60_000, 'listening port');
    // A 402 counts as non-2xx for autocannon; the status itself is checked per response in load().
    const figures = await measureRun(child, {
      verify: () => verifyOnce(port, exp, p.boardKey),
      load: (seconds) => load(port, seconds, s.connections, exp),
      warmupSeconds: s.warmupSeconds,
      seconds: s.seconds,
      non2xxExpected: side === 'challenge',
    });
    return { round, side, ...figures };
  } finally {
    await child.stop();
  }
}

export async function measureChallenges(
  tmp: string,
  s: LoadSettings,
  children: BenchChild[],
  log: (line: string) => void,
  cpuProfDir?: string,
): Promise<ChallengeFigures> {
  const p = await prepare(tmp);
  log(
    `  board ${p.board.length} bytes; challenge for ${p.subject}: ${p.challenge.length}-byte body + ${p.challenge.paymentRequiredLength}-character PAYMENT-REQUIRED, offer signed`,
  );
  const execArgv = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [];
  const runs: ChallengeRun[] = [];
  let quietRounds = 0;
  for (let round = 1; quietRounds < s.rounds && round <= s.rounds + s.extraRounds; round++) {
    let disturbed = false;
    for (const side of ['board', 'challenge'] as const) {
      const r = await runOne(round, side, p, s, children, execArgv);
      const cpu = `server ${r.serverCpu.toFixed(0)} %, client ${r.clientCpu.toFixed(0)} %${r.otherCpu === undefined ? '' : `, other ${r.otherCpu.toFixed(0)} %`} CPU`;
      log(
        `  round ${round} ${side.padEnd(9)} ${Math.round(r.rps).toLocaleString('en-US').padStart(8)} req/s  (${cpu})${isDisturbed(r) ? '  disturbed' : ''}${r.problems.length ? `  INVALID: ${r.problems.join('; ')}` : ''}`,
      );
      runs.push(r);
      disturbed ||= isDisturbed(r);
    }
    if (!disturbed) quietRounds++;
  }
  const rounds = [...new Set(runs.map((r) => r.round))];
  const quiet = rounds.filter((n) => !runs.some((r) => r.round === n && isDisturbed(r)));
  const usedRounds = quiet.length > 0 ? quiet : rounds;
  const used = runs.filter((r) => usedRounds.includes(r.round));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const of = (side: Side) => used.filter((r) => r.side === side);
  const cpuUs = (r: ChallengeRun) => (r.serverCpu / 100 / r.rps) * 1e6;
  const boardRps = mean(of('board').map((r) => r.rps));
  const challengeRps = mean(of('challenge').map((r) => r.rps));
  const boardCpuUs = mean(of('board').map(cpuUs));
  const challengeCpuUs = mean(of('challenge').map(cpuUs));
  return {
    subject: p.subject,
    challengePath: p.challengePath,
    board: p.board,
    challenge: p.challenge,
    runs,
    usedRounds,
    boardRps,
    challengeRps,
    ratio: challengeRps / boardRps,
    boardCpuUs,
    challengeCpuUs,
    cpuRatio: boardCpuUs / challengeCpuUs,
  };
}

// ---------------------------------------------------------------------------------------------
// B. Added latency of a paid request

interface Call {
  path: string;
  status: number;
  ms: number;
}

/**
 * A timing proxy in front of the facilitator: forwards each request (method, path, headers,
 * body) over a keep-alive agent and records, per call, the time from its request line arriving
 * to the last byte of the answer being handed to the socket.
 */
async function timingProxy(upstream: string): Promise<{ url: string; calls: Call[]; close(): Promise<void> }> {
  const calls: Call[] = [];
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    const t0 = performance.now();
    const target = new URL(req.url ?? '/', upstream);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers: IncomingHttpHeaders = { ...req.headers, host: target.host, 'content-length': String(body.length) };
      delete headers.connection;
      delete headers['transfer-encoding'];
      const up = request(target, { method: req.method, headers, agent }, (ur) => {
        const parts: Buffer[] = [];
        ur.on('data', (c: Buffer) => parts.push(c));
        ur.on('end', () => {
          const answer = Buffer.concat(parts);
          const status = ur.statusCode ?? 502;
          res.on('finish', () => calls.push({ path: target.pathname, status, ms: performance.now() - t0 }));
          res.writeHead(status, {
            'content-type': ur.headers['content-type'] ?? 'application/octet-stream',
            'content-length': answer.length,
          });
          res.end(answer);
        });
      });
      up.on('error', (e) => {
        calls.push({ path: target.pathname, status: 502, ms: performance.now() - t0 });
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`proxy: ${e.message}`);
      });
      up.end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, resolve);
  });
  return {
    url: `http://${HOST}:${(server.address() as AddressInfo).port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The service as `gspc serve` runs it, in its own compiled process (paid-child.ts), paid through
 * `facilitatorUrl`: the demo release published here for `localhost:<port>`, a SQLite ledger.
 */
async function startService(
  dir: string,
  rail: LocalRail,
  facilitatorUrl: string,
  children: BenchChild[],
  execArgv: string[],
) {
  const port = await freePort();
  const keyDir = join(dir, 'keys');
  keygen(keyDir);
  const signing = signingContext(keyDir, `localhost:${port}`);
  const releaseDir = publishRelease(DEMO_CORPUS, join(dir, 'data'), signing.inputs).dir;
  const railEnv = {
    GSPC_PAY_TO: rail.payTo.address,
    GSPC_FACILITATOR_URL: facilitatorUrl,
    GSPC_ASSET: rail.usdc,
    GSPC_PROMO: 'none',
  };
  const child = new BenchChild(
    'paid service',
    PAID_CHILD,
    [releaseDir, keyDir, join(dir, 'ledger.sqlite'), String(port), JSON.stringify(railEnv)],
    { execArgv },
  );
  children.push(child);
  await child.next<{ port: number }>(60_000, 'listening port');
  return {
    baseUrl: `http://localhost:${port}`,
    subject: signedSubject(loadRelease(releaseDir)),
    /** The ledger calls', the paid requests' and the facilitator calls' times in the service since the last ask. */
    times: () =>
      child.request<{ ledgerMs: number[]; serviceMs: number[]; facilitatorMs: number[] }>(
        { type: 'ledger' },
        10_000,
        'ledger times',
      ),
    /** One bare durable SQLite commit on the ledger's disk, timed in the service's process. */
    commitMs: async () => (await child.request<{ ms: number }>({ type: 'commit' }, 10_000, 'a bare commit')).ms,
    close: () => child.stop(),
  };
}

function spread(xs: number[]): Spread {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.max(0, Math.ceil(q * s.length) - 1)]!;
  return {
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: s[s.length - 1]!,
    mean: s.reduce((a, b) => a + b, 0) / s.length,
  };
}

/** Why the chain cannot run here (logged loudly), or undefined. */
export function noAnvil(): string | undefined {
  try {
    anvilBinaryPath();
    return undefined;
  } catch (e) {
    return `no local chain (anvil): ${(e as Error).message}`;
  }
}

export async function measurePaid(
  tmp: string,
  count: number,
  children: BenchChild[],
  log: (line: string) => void,
  execArgv: string[] = [],
): Promise<PaidFigures | { skipped: string }> {
  const missing = noAnvil();
  if (missing) {
    log(`\n  *** SKIPPED: ${missing} ***\n`);
    return { skipped: missing };
  }
  const dir = join(tmp, 'paid');
  mkdirSync(dir, { recursive: true });
  const rail = await startLocalRail({ payerUsdc: 1_000_000_000_000n });
  let proxy: Awaited<ReturnType<typeof timingProxy>> | undefined;
  let svc: Awaited<ReturnType<typeof startService>> | undefined;
  try {
    proxy = await timingProxy(rail.facilitatorUrl!);
    svc = await startService(dir, rail, proxy.url, children, execArgv);
    const url = `${svc.baseUrl}/api/request-attestation?subject=${encodeURIComponent(svc.subject)}`;
    const payer0 = await rail.balanceOf(rail.payer.address);
    const payee0 = await rail.balanceOf(rail.payTo.address);
    const problems: string[] = [];
    const rows: {
      total: number;
      verify: number;
      settle: number;
      replay: number;
      challenge: number;
      ledger: number;
      ledgerCalls: number;
      service: number;
      /** The facilitator calls as the service saw them. */
      calls: number;
      commit: number;
    }[] = [];
    let price: string | undefined;
    for (let i = 0; i < PAID_WARMUP + count; i++) {
      const c0 = performance.now();
      const challenge: PaymentRequired = await challengeOf(url);
      const challengeMs = performance.now() - c0;
      price ??= challenge.accepts[0]!.amount;
      const { header } = await officialPayment(rail, challenge);

      proxy.calls.length = 0;
      await svc.times(); // drop the challenge's
      const t0 = performance.now();
      const res = await fetch(url, { headers: { 'payment-signature': header } });
      const body = Buffer.from(await res.arrayBuffer());
      const total = performance.now() - t0;
      const calls = [...proxy.calls];
      const { ledgerMs: ledgerTimes, serviceMs, facilitatorMs } = await svc.times();
      const ledgerMs = ledgerTimes.reduce((a, b) => a + b, 0);
      const ledgerCalls = ledgerTimes.length;
      const why = (what: string) => problems.push(`payment ${i + 1}: ${what}`);
      if (serviceMs.length !== 1) why(`${serviceMs.length} paid requests timed in the service (expected 1)`);
      if (facilitatorMs.length !== 2)
        why(`${facilitatorMs.length} facilitator calls timed in the service (expected 2)`);
      if (res.status !== 200) {
        why(`status ${res.status}: ${body.toString('utf8').slice(0, 200)}`);
        continue;
      }
      if (res.headers.get('x-gspc-replay') !== '0')
        why(`x-gspc-replay ${res.headers.get('x-gspc-replay')} (expected 0)`);
      const settle = JSON.parse(
        Buffer.from(res.headers.get('payment-response') ?? '', 'base64').toString('utf8') || '{}',
      ) as { success?: boolean; transaction?: string };
      if (settle.success !== true || !/^0x[0-9a-f]{64}$/.test(settle.transaction ?? ''))
        why(`PAYMENT-RESPONSE ${JSON.stringify(settle)}`);
      const verify = calls.filter((c) => c.path === '/verify');
      const settled = calls.filter((c) => c.path === '/settle');
      if (verify.length !== 1 || settled.length !== 1 || calls.length !== 2 || calls.some((c) => c.status !== 200))
        why(`facilitator calls ${JSON.stringify(calls)} (expected one /verify and one /settle, both 200)`);

      proxy.calls.length = 0;
      const r0 = performance.now();
      const again = await fetch(url, { headers: { 'payment-signature': header } });
      const replayBody = Buffer.from(await again.arrayBuffer());
      const replay = performance.now() - r0;
      if (again.status !== 200 || again.headers.get('x-gspc-replay') !== '1' || !replayBody.equals(body))
        why(
          `replay: status ${again.status}, x-gspc-replay ${again.headers.get('x-gspc-replay')}, ${replayBody.equals(body) ? 'same' : 'different'} bytes`,
        );
      if (proxy.calls.length > 0) why(`replay called the facilitator (${proxy.calls.map((c) => c.path).join(', ')})`);
      const commit = await svc.commitMs();

      if (i >= PAID_WARMUP)
        rows.push({
          total,
          verify: verify[0]?.ms ?? NaN,
          settle: settled[0]?.ms ?? NaN,
          replay,
          challenge: challengeMs,
          ledger: ledgerMs,
          ledgerCalls,
          service: serviceMs.length === 1 ? serviceMs[0]! : NaN,
          calls: facilitatorMs.length === 2 ? facilitatorMs[0]! + facilitatorMs[1]! : NaN,
          commit,
        });
    }
    const paid = payer0 - (await rail.balanceOf(rail.payer.address));
    const received = (await rail.balanceOf(rail.payTo.address)) - payee0;
    const expected = BigInt(price ?? '0') * BigInt(PAID_WARMUP + count);
    if (paid !== expected || received !== expected)
      problems.push(`balances moved ${paid} (payer) / ${received} (payee), expected ${expected} each`);
    if (rows.length !== count) problems.push(`${rows.length} of ${count} measured payments delivered`);
    if (rows.length === 0) throw new Error(`no payment succeeded: ${problems.slice(0, 3).join('; ')}`);
    const fac = rows.map((r) => r.verify + r.settle);
    return {
      count,
      price: price!,
      paid,
      received,
      problems,
      total: spread(rows.map((r) => r.total)),
      verify: spread(rows.map((r) => r.verify)),
      settle: spread(rows.map((r) => r.settle)),
      facilitator: spread(fac),
      added: spread(rows.map((r, i) => r.total - fac[i]!)),
      service: spread(rows.map((r) => r.service)),
      addedInService: spread(rows.map((r, i) => r.service - fac[i]!)),
      replay: spread(rows.map((r) => r.replay)),
      challenge: spread(rows.map((r) => r.challenge)),
      ledger: spread(rows.map((r) => r.ledger)),
      diskCommit: spread(rows.map((r) => r.commit)),
      ledgerCalls: Math.max(...rows.map((r) => r.ledgerCalls)),
      hops: spread(rows.map((r, i) => r.calls - fac[i]!)),
    };
  } finally {
    await svc?.close();
    await proxy?.close();
    await rail.stop();
  }
}

export async function measurePayments(
  tmp: string,
  s: LoadSettings,
  count: number,
  children: BenchChild[],
  log: (line: string) => void,
  cpuProfDir?: string,
): Promise<PaymentsFigures> {
  log('  A. challenge throughput: GET /api/request-attestation (402) against GET /api/gspc, same app');
  const challenge = await measureChallenges(tmp, s, children, log, cpuProfDir);
  log(`  B. ${count} paid requests on the local rail, sequential, facilitator timed by a proxy`);
  const paid = await measurePaid(
    tmp,
    count,
    children,
    log,
    cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${join(cpuProfDir, 'paid')}`] : [],
  );
  if (!('skipped' in paid)) {
    log(
      `  total p50 ${paid.total.p50.toFixed(1)} ms, facilitator p50 ${paid.facilitator.p50.toFixed(1)} ms, added p50 ${paid.added.p50.toFixed(1)} ms, replay p50 ${paid.replay.p50.toFixed(1)} ms${paid.problems.length ? `  INVALID: ${paid.problems.slice(0, 3).join('; ')}` : ''}`,
    );
  }
  return { challenge, paid };
}
