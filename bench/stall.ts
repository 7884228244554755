/**
 * §15 One abusive client (issue 38): `gspc serve --demo` at its default budgets, in a child
 * process; a reader reads `GET /api/gspc` every 20 ms over one kept-alive connection, first alone
 * (the baseline), then while one client sends `POST /api/verify` with 1,000 card ids at the
 * verify class's full rate (120 a minute: four senders, each one request every 2 s, so up to four
 * in flight; the service takes two at a time per client and answers the others 429). Goal: the
 * board's p50 under 20 ms and p99 under 100 ms under the abuse.
 */
import { spawn } from 'node:child_process';
import { Agent } from 'node:http';
import { timedCall } from '../test/helpers/timed-call.js';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const STALL_TITLE = '15. One abusive client: the board under 1,000-id verifications at the full verify rate';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface StallFigures {
  seconds: number;
  baseline: { reads: number; p50: number; p99: number; max: number };
  abused: { reads: number; p50: number; p99: number; max: number };
  verify: { answered: number; refused: number; meanMs: number };
}

const call = timedCall;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? Number.NaN;
  return { reads: s.length, p50: q(0.5), p99: q(0.99), max: s[s.length - 1] ?? Number.NaN };
}

async function readBoard(port: number, agent: Agent, until: number): Promise<number[]> {
  const out: number[] = [];
  while (Date.now() < until) {
    const r = await call(port, agent, 'GET', '/api/gspc');
    if (r.status !== 200) throw new Error(`GET /api/gspc answered ${r.status}`);
    out.push(r.ms);
    await sleep(20);
  }
  return out;
}

export async function measureStall(tmp: string, seconds: number, log: (l: string) => void): Promise<StallFigures> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['bin/gspc.js', 'serve', '--demo', '--data-dir', join(tmp, 'stall-data'), '--port', String(port)],
    {
      cwd: ROOT,
      env: { ...process.env, GSPC_LOG_LEVEL: 'warn', GSPC_LEDGER_PATH: join(tmp, 'stall-ledger.sqlite') },
      stdio: 'ignore',
    },
  );
  const reader = new Agent({ keepAlive: true, maxSockets: 1 });
  const abuser = new Agent({ keepAlive: true, maxSockets: 4 });
  try {
    for (let i = 0; ; i++) {
      try {
        await call(port, reader, 'GET', '/healthz');
        break;
      } catch (e) {
        if (i > 300) throw e;
        await sleep(200);
      }
    }
    const index = JSON.parse((await call(port, reader, 'GET', '/cards/index.json')).body) as {
      cards: { sha256: string }[];
    };
    const ids = Array.from({ length: 1_000 }, (_, i) => index.cards[i % index.cards.length]!.sha256);
    const body = JSON.stringify({ ids });
    for (let i = 0; i < 200; i++) await call(port, reader, 'GET', '/api/gspc');
    log(`  baseline: the board alone for ${seconds} s`);
    const baseline = stats(await readBoard(port, reader, Date.now() + seconds * 1000));
    log(`  abused: the board while 1,000-id verifications arrive at 120 a minute, for ${seconds} s`);
    const end = Date.now() + seconds * 1000;
    let answered = 0;
    let refused = 0;
    let total = 0;
    const sender = async (offset: number) => {
      await sleep(offset);
      while (Date.now() < end) {
        const started = Date.now();
        const r = await call(port, abuser, 'POST', '/api/verify', body);
        if (r.status === 200) {
          answered++;
          total += r.ms;
        } else if (r.status === 429) refused++;
        else throw new Error(`POST /api/verify answered ${r.status}: ${r.body.slice(0, 200)}`);
        await sleep(Math.max(0, 2_000 - (Date.now() - started)));
      }
    };
    const [abused] = await Promise.all([
      readBoard(port, reader, end),
      sender(0),
      sender(500),
      sender(1_000),
      sender(1_500),
    ]);
    return {
      seconds,
      baseline,
      abused: stats(abused),
      verify: { answered, refused, meanMs: answered === 0 ? Number.NaN : total / answered },
    };
  } finally {
    reader.destroy();
    abuser.destroy();
    child.kill('SIGKILL');
  }
}

const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));

export function stallSection(f: StallFigures): string {
  const pass = f.abused.p50 < 20 && f.abused.p99 < 100;
  return [
    `| board GET | reads | p50 ms | p99 ms | max ms |`,
    `|---|---:|---:|---:|---:|`,
    `| alone | ${f.baseline.reads} | ${ms(f.baseline.p50)} | ${ms(f.baseline.p99)} | ${ms(f.baseline.max)} |`,
    `| one client verifying 1,000 ids at 120 / min | ${f.abused.reads} | ${ms(f.abused.p50)} | ${ms(f.abused.p99)} | ${ms(f.abused.max)} |`,
    '',
    `The abusive client: ${f.verify.answered} verifications answered (mean ${f.verify.meanMs.toFixed(0)} ms each), ${f.verify.refused} refused 429 (more than two in flight), over ${f.seconds} s. Goal p50 < 20 ms and p99 < 100 ms under the abuse: ${pass ? 'PASS' : 'BELOW GOAL'}.`,
  ].join('\n');
}
