/**
 * Measurement 11 (issue 17): past one machine, on this machine's loopback.
 *
 * Topology: the demo published for `http://localhost:<balancer>`; three `gspc serve` processes
 * (the compiled bin) on one PostgreSQL database, each given the release by `gspc pull` (in
 * process); the local rail (anvil, Circle's USDC, the real x402 facilitator); one nginx with
 * four servers: the balancer over the three replicas, a balancer over the first replica alone,
 * and the static mirror of the same release (`gspc export static`).
 *
 * A. Board reads: `GET /api/gspc` by autocannon through the balancer (nginx → 3 replicas)
 *    against the same path from the static mirror (nginx alone), alternating rounds. CPU of
 *    nginx, the replicas and the load generator are sampled from /proc over each run, so the
 *    reader sees which one was the bottleneck. Before the runs the two answers are compared byte
 *    for byte.
 * B. Paid requests: payments built beforehand by the official x402 client, sent with 16 in
 *    flight through the 1-replica balancer, then the 3-replica one: payments/s and the client's
 *    p50/p99; the ceiling is the facilitator's own rate for the same work (verify + settle sent
 *    to it directly, 16 in flight).
 * C. Exactly once at scale: BENCH_REPLICA_PAYMENTS (default 1,000) fresh payments, each sent to
 *    every replica and the balancer at once: every answer 200 and identical per payment, the
 *    chain's debit equals the price times the payments, and the ledger holds one SETTLED record
 *    per payment. A failure makes the run invalid.
 *
 * Skipped, with the reason, without nginx, anvil or PostgreSQL.
 */
import autocannon from 'autocannon';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { anvilBinaryPath, startLocalRail } from '../demo/local-rail/index.js';
import { didForHost } from '../src/core/evidence/did.js';
import { keygen } from '../src/keys/key-store.js';
import { signingContext } from '../src/keys/signing.js';
import { exportStatic } from '../src/mirror.js';
import { httpFacilitator } from '../src/payments/facilitator.js';
import { publishRelease } from '../src/release/publish.js';
import { openLedger } from '../src/store/open-ledger.js';
import { pullRelease } from '../src/verify/verified-pull.js';
import { challengeOf, officialPayment } from '../test/payments/paid-harness.js';
import { nginxConfig } from '../test/helpers/nginx.js';
import { freePort } from '../test/helpers/process.js';
import { childrenOf, cpuMs } from './proc-cpu.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NGINX = process.env.GSPC_NGINX ?? '/usr/sbin/nginx';
const ADMIN_URL = process.env.GSPC_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PRICE = 20_000n;
const IN_FLIGHT = 16;

export interface BoardRun {
  target: 'balancer' | 'mirror';
  round: number;
  rps: number;
  p50: number;
  p99: number;
  /** % of one core over the measured window. */
  cpu: { nginx: number; replicas: number; client: number };
  problems: string[];
}

export interface PaidRate {
  label: string;
  payments: number;
  perSecond: number;
  p50: number;
  p99: number;
  problems: string[];
}

export interface ReplicaFigures {
  skipped?: string;
  board: BoardRun[];
  paid: PaidRate[];
  exactlyOnce?: { payments: number; seconds: number; charged: string; settled: number; problems: string[] };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** nginx's master and its workers. */
const nginxPids = (master: number) => [master, ...childrenOf(master)];

async function waitUp(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > until) throw new Error(`${url} did not answer within ${ms} ms`);
      await sleep(100);
    }
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/**
 * Runs `send(i)` for every i below `n`, IN_FLIGHT at a time: the rate and the latency of each
 * call; `send` answers a problem (or undefined).
 */
async function timedRun(label: string, n: number, send: (i: number) => Promise<string | undefined>): Promise<PaidRate> {
  const latencies: number[] = [];
  const problems: string[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (let i = next++; i < n; i = next++) {
        const s = performance.now();
        const problem = await send(i);
        latencies.push(performance.now() - s);
        if (problem !== undefined && problems.length < 5) problems.push(`payment ${i}: ${problem}`);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    label,
    payments: n,
    perSecond: n / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    problems,
  };
}

/** Sends every header once to `url`: a paid request each. */
const paidRun = (label: string, url: string, headers: string[]) =>
  timedRun(label, headers.length, async (i) => {
    const r = await fetch(url, { headers: { 'payment-signature': headers[i]! } });
    await r.arrayBuffer();
    return r.status === 200 ? undefined : String(r.status);
  });

export async function measureReplicas(
  tmp: string,
  o: { seconds: number; warmupSeconds: number; rounds: number; connections: number; paid: number; exactlyOnce: number },
  log: (line: string) => void,
): Promise<ReplicaFigures> {
  if (!existsSync(NGINX)) return { skipped: `no nginx at ${NGINX}`, board: [], paid: [] };
  if (!existsSync(anvilBinaryPath())) return { skipped: 'no anvil binary (npm ci installs it)', board: [], paid: [] };
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (e) {
    return { skipped: `PostgreSQL not reachable at ${ADMIN_URL} (${(e as Error).message})`, board: [], paid: [] };
  }
  const children: ChildProcess[] = [];
  const db = `gspc_bench_${randomBytes(6).toString('hex')}`;
  const rail = await startLocalRail({ payerUsdc: PRICE * BigInt(o.paid * 3 + o.exactlyOnce + 100) });
  try {
    await admin.query(`CREATE DATABASE ${db}`);
    const dbUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${db}` }).toString();
    const [lb3, lb1, mirrorPort, ...replicaPorts] = await Promise.all(Array.from({ length: 6 }, () => freePort()));
    const origin = `http://localhost:${lb3}`;
    const publisher = join(tmp, 'replicas-publisher');
    keygen(join(publisher, 'keys'));
    const signing = signingContext(join(publisher, 'keys'), `localhost:${lb3}`);
    publishRelease(join(ROOT, 'demo', 'corpus'), publisher, signing.inputs, { publicUrl: origin });
    const mirror = join(tmp, 'replicas-mirror');
    await exportStatic(publisher, mirror, { listen: `127.0.0.1:${mirrorPort}` });

    const env = {
      ...process.env,
      GSPC_DATABASE_URL: dbUrl,
      GSPC_LOG_LEVEL: 'silent',
      GSPC_RATE_LIMITS: 'off', // one load generator is one client address
      GSPC_PAY_TO: rail.payTo.address,
      GSPC_FACILITATOR_URL: rail.facilitatorUrl!,
      GSPC_ASSET: rail.usdc,
      GSPC_PROMO: 'none',
    };
    const replicaPids: number[] = [];
    for (const [i, port] of replicaPorts.entries()) {
      const dataDir = join(tmp, `replica-${i}`);
      await pullRelease(publisher, dataDir, didForHost(`localhost:${lb3}`));
      const args = [
        'bin/gspc.js',
        'serve',
        '--data-dir',
        dataDir,
        '--key-dir',
        join(publisher, 'keys'),
        '--port',
        String(port),
        '--public-url',
        origin,
      ];
      const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: 'ignore' });
      children.push(child);
      replicaPids.push(child.pid!);
    }
    for (const port of replicaPorts) await waitUp(`http://127.0.0.1:${port}/healthz`, 30_000);

    const prefix = join(tmp, 'replicas-nginx');
    mkdirSync(join(prefix, 'logs'), { recursive: true });
    const upstream = (name: string, ports: number[]) =>
      `upstream ${name} { ${ports.map((p) => `server 127.0.0.1:${p} max_fails=0;`).join(' ')} keepalive 64; }`;
    const proxy = (listen: number, name: string) =>
      `server { listen 127.0.0.1:${listen}; location / { proxy_pass http://${name}; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_next_upstream error timeout; proxy_buffer_size 64k; proxy_buffers 8 64k; } }`;
    writeFileSync(
      join(prefix, 'nginx.conf'),
      nginxConfig(
        prefix,
        [
          upstream('three', replicaPorts),
          upstream('one', replicaPorts.slice(0, 1)),
          proxy(lb3!, 'three'),
          proxy(lb1!, 'one'),
          `include ${join(mirror, 'nginx.conf')};`,
        ].join('\n'),
        4096,
      ),
    );
    const nginx = spawn(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf')], { stdio: 'ignore' });
    children.push(nginx);
    const balancer = `http://127.0.0.1:${lb3}`;
    const mirrorUrl = `http://127.0.0.1:${mirrorPort}`;
    await waitUp(`${balancer}/healthz`, 10_000);
    await waitUp(`${mirrorUrl}/root.json`, 10_000);

    // A. Board reads.
    const [viaLb, viaMirror] = await Promise.all(
      [balancer, mirrorUrl].map(async (u) => Buffer.from(await (await fetch(`${u}/api/gspc`)).arrayBuffer())),
    );
    const same = viaLb!.equals(viaMirror!);
    const board: BoardRun[] = [];
    for (let round = 1; round <= o.rounds; round++)
      for (const target of ['balancer', 'mirror'] as const) {
        const url = `${target === 'balancer' ? balancer : mirrorUrl}/api/gspc`;
        const load = (duration: number) =>
          new Promise<autocannon.Result>((res, rej) =>
            autocannon({ url, connections: o.connections, duration }, (e, r) => (e ? rej(e) : res(r))),
          );
        await load(o.warmupSeconds);
        const n0 = cpuMs(nginxPids(nginx.pid!));
        const r0 = cpuMs(replicaPids);
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const r = await load(o.seconds);
        const wall = performance.now() - t0;
        const c1 = process.cpuUsage(c0);
        const problems = [
          ...(same ? [] : ['the balancer and the mirror answered different bytes']),
          ...(r.errors + r.timeouts + r.non2xx > 0
            ? [`${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`]
            : []),
        ];
        board.push({
          target,
          round,
          rps: r.requests.total / r.duration,
          p50: r.latency.p50,
          p99: r.latency.p99,
          cpu: {
            nginx: ((cpuMs(nginxPids(nginx.pid!)) - n0) / wall) * 100,
            replicas: ((cpuMs(replicaPids) - r0) / wall) * 100,
            client: ((c1.user + c1.system) / 1000 / wall) * 100,
          },
          problems,
        });
        log(`replicas: board via ${target} round ${round}: ${Math.round(board.at(-1)!.rps)} req/s`);
      }

    // B. Paid rates, and the facilitator's own.
    const subject = (
      (await (await fetch(`${balancer}/cards-bundle.json`)).json()) as {
        cards: { surface: string; subject: string; sig_ed25519: string | null }[];
      }
    ).cards.find((c) => c.surface === 'board.measurement' && c.sig_ed25519)!.subject;
    const path = `/api/request-attestation?subject=${encodeURIComponent(subject)}`;
    const challenge = await challengeOf(`${balancer}${path}`);
    const build = async (n: number) => {
      const out: { header: string; payload: Record<string, unknown> }[] = [];
      for (let i = 0; i < n; i++) out.push(await officialPayment(rail, challenge));
      return out;
    };
    const paid: PaidRate[] = [];
    for (const [label, base] of [
      ['1 replica', `http://127.0.0.1:${lb1}`],
      ['3 replicas', balancer],
    ] as const) {
      await paidRun(
        `${label} (warm-up)`,
        `${base}${path}`,
        (await build(10)).map((p) => p.header),
      );
      paid.push(
        await paidRun(
          label,
          `${base}${path}`,
          (await build(o.paid)).map((p) => p.header),
        ),
      );
      log(`replicas: paid via ${label}: ${paid.at(-1)!.perSecond.toFixed(1)}/s`);
    }
    const facilitator = httpFacilitator(rail.facilitatorUrl!, 30_000);
    const direct = await build(o.paid);
    const requirements = challenge.accepts[0]!;
    paid.push(
      await timedRun('facilitator alone (verify + settle)', direct.length, async (i) => {
        const payload = direct[i]!.payload as never;
        const v = await facilitator.verify(payload, requirements);
        const settled = v.kind === 'valid' ? await facilitator.settle(payload, requirements) : undefined;
        return settled?.kind === 'settled' ? undefined : `${v.kind} ${settled?.kind ?? ''}`;
      }),
    );

    // C. Exactly once, at scale.
    const headers = (await build(o.exactlyOnce)).map((p) => p.header);
    const ledger = await openLedger({ databaseUrl: dbUrl });
    const settledBefore = (await ledger.list({ state: 'SETTLED', withArtefacts: false })).length;
    const before = await rail.balanceOf(rail.payer.address);
    const problems: string[] = [];
    const targets = [...replicaPorts.map((p) => `http://127.0.0.1:${p}`), balancer];
    let k = 0;
    const e0 = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = k++; i < headers.length; i = k++) {
          const answers = await Promise.all(
            targets.map(async (t) => {
              const r = await fetch(`${t}${path}`, { headers: { 'payment-signature': headers[i]! } });
              return `${r.status} ${await r.text()}`;
            }),
          );
          if ((new Set(answers).size !== 1 || !answers[0]!.startsWith('200 ')) && problems.length < 5)
            problems.push(`payment ${i}: ${answers.map((a) => a.slice(0, 3)).join(',')}`);
        }
      }),
    );
    const seconds = (performance.now() - e0) / 1000;
    const charged = before - (await rail.balanceOf(rail.payer.address));
    const settled = (await ledger.list({ state: 'SETTLED', withArtefacts: false })).length - settledBefore;
    await ledger.close();
    if (charged !== PRICE * BigInt(headers.length))
      problems.push(`the chain moved ${charged}, not ${PRICE * BigInt(headers.length)}`);
    if (settled !== headers.length) problems.push(`${settled} SETTLED records for ${headers.length} payments`);
    log(`replicas: ${headers.length} payments exactly once: ${problems.length === 0 ? 'yes' : problems.join('; ')}`);
    return {
      board,
      paid,
      exactlyOnce: { payments: headers.length, seconds, charged: charged.toString(), settled, problems },
    };
  } finally {
    for (const c of children) c.kill('SIGKILL');
    await rail.stop();
    await sleep(200);
    await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}

export const REPLICAS_TITLE = 'Replicas behind nginx, the static mirror, paid requests across replicas';

const fmt = (n: number, d = 0) => n.toLocaleString('en', { maximumFractionDigits: d, minimumFractionDigits: d });

export function replicasSection(f: ReplicaFigures): string {
  if (f.skipped) return `Skipped: ${f.skipped}.`;
  const lines = [
    'Board reads, `GET /api/gspc` (autocannon, this process; CPU as % of one core over each measured run):',
    '',
    '| round | target | req/s | p50 ms | p99 ms | nginx CPU | replicas CPU | load generator CPU |',
    '|---:|---|---:|---:|---:|---:|---:|---:|',
    ...f.board.map(
      (r) =>
        `| ${r.round} | ${r.target === 'balancer' ? 'nginx → 3 replicas' : 'nginx, static mirror'} | ${fmt(r.rps)} | ${r.p50} | ${r.p99} | ${fmt(r.cpu.nginx)} % | ${fmt(r.cpu.replicas)} % | ${fmt(r.cpu.client)} % |`,
    ),
  ];
  const best = (t: BoardRun['target']) => Math.max(...f.board.filter((r) => r.target === t).map((r) => r.rps));
  lines.push('', `Balancer / mirror (best rounds): **${(best('balancer') / best('mirror')).toFixed(3)}**.`, '');
  lines.push(
    `Paid requests (\`GET /api/request-attestation\`, payments built beforehand by the official client, ${IN_FLIGHT} in flight, each paid once):`,
    '',
    '| path | payments | payments/s | p50 ms | p99 ms |',
    '|---|---:|---:|---:|---:|',
    ...f.paid.map(
      (p) => `| ${p.label} | ${p.payments} | ${fmt(p.perSecond, 1)} | ${fmt(p.p50, 1)} | ${fmt(p.p99, 1)} |`,
    ),
  );
  const e = f.exactlyOnce;
  if (e)
    lines.push(
      '',
      `Exactly once: ${fmt(e.payments)} fresh payments, each sent to the 3 replicas and the balancer at once (8 payments in flight), in ${fmt(e.seconds, 1)} s: ${
        e.problems.length === 0
          ? `every answer 200 and identical per payment; the chain moved ${e.charged} atomic units (the price times the payments); ${fmt(e.settled)} SETTLED records.`
          : `FAILED: ${e.problems.join('; ')}`
      }`,
    );
  return lines.join('\n');
}
