/**
 * The paid service in its own process, compiled, as `gspc serve` runs it (started by payments.ts
 * for the paid-request latency of §5):
 *
 *   paid-child.ts <releaseDir> <keyDir> <ledgerPath> <port> <railEnvJson>
 *
 * The release was published by the parent for `localhost:<port>` (the DID the receipts name);
 * the rail (payee, asset, the timing proxy's URL as the facilitator) comes as JSON. Every ledger
 * call is timed, and so is each paid request inside this process: the IPC message { type: 'ledger' }
 * is answered with { ledgerMs, serviceMs, facilitatorMs } (the times since the last such message;
 * facilitatorMs: each facilitator call from the service's side), and
 * { type: 'commit' } with the time of one bare durable SQLite commit on the same disk. Until issue 18 this service ran inside the bench process, sharing one
 * event loop with the load generator, the timing proxy and the facilitator, whose work then
 * counted as the service's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { AddressInfo } from 'node:net';
import { serveAsBenchChild } from './child.js';
import { buildApp } from '../src/app.js';
import { readRailConfig } from '../src/config.js';
import { signingContext } from '../src/keys/signing.js';
import { loadRelease } from '../src/release/load.js';
import { ServedState } from '../src/serve/served-state.js';
import { ServiceMetrics } from '../src/web/metrics.js';
import { liveSigning } from '../test/helpers/app.js';
import { openLedger } from '../src/store/open-ledger.js';
import { httpFacilitator } from '../src/payments/facilitator.js';

const HOST = '127.0.0.1';
let ledgerMs: number[] = [];
/** Each paid request's time inside this process: its request event to the last byte handed to the socket. */
let serviceMs: number[] = [];
/** Each facilitator call as the service sees it: from the call to its outcome (the hop and the facilitator's own time). */
let facilitatorMs: number[] = [];

/**
 * `target` with each async call but `close` timed into the array `into()` names at the call: the
 * ledger (the service's own: its time is part of "added") and the facilitator (each call from the
 * service's side; the proxy times the facilitator's own part).
 */
function timed<T extends object>(target: T, into: () => number[]): T {
  return new Proxy(target, {
    get(t, prop) {
      const v = Reflect.get(t, prop) as unknown;
      if (typeof v !== 'function' || prop === 'close') return v;
      return async (...args: unknown[]) => {
        const t0 = performance.now();
        try {
          return await (v as (...a: unknown[]) => Promise<unknown>).apply(t, args);
        } finally {
          into().push(performance.now() - t0);
        }
      };
    },
  });
}

const [RELEASE_DIR = '', KEY_DIR = '', LEDGER_PATH = '', PORT = '', RAIL_ENV = '{}'] = process.argv.slice(2);

async function listen(): Promise<{ port: number; close: () => Promise<void> }> {
  const signing = signingContext(KEY_DIR, `localhost:${PORT}`);
  const ledger = await openLedger({ sqlitePath: LEDGER_PATH, checkpointInBackground: true }); // as gspc serve opens it
  // The signing state the paid tests' harness serves with (test/payments/paid-harness.ts).
  const state = new ServedState(loadRelease(RELEASE_DIR), liveSigning(signing));
  const rail = readRailConfig(JSON.parse(RAIL_ENV) as Record<string, string>);
  const facilitatorTimeoutMs = 15_000;
  const app = buildApp({
    state,
    logLevel: 'warn',
    baseUrl: `http://localhost:${PORT}`,
    now: () => new Date(),
    ledger: timed(ledger, () => ledgerMs),
    // As gspc serve runs by default: metrics, and the rate limits with budgets too high to refuse
    // the bench's one address (their cost, not their refusals: a paid request's class check reads
    // its payment header and asks the ledger whether it is already settled).
    metrics: new ServiceMetrics(state),
    rateLimits: { free: 1_000_000_000, verify: 1_000_000_000, challenge: 1_000_000_000, paid: 1_000_000_000 },
    products: {
      rail,
      facilitatorTimeoutMs,
      // The facilitator the service builds from the rail (as gspc serve does), timed.
      facilitator: timed(httpFacilitator(rail.facilitatorUrl!, facilitatorTimeoutMs), () => facilitatorMs),
    },
  });
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers['payment-signature'] === undefined) return;
    const t0 = performance.now();
    res.on('finish', () => serviceMs.push(performance.now() - t0));
  });
  await app.listen({ host: HOST, port: Number(PORT) });
  return {
    port: (app.server.address() as AddressInfo).port,
    close: async () => {
      await app.close();
      await ledger.close();
    },
  };
}

/**
 * The disk's anchor: one bare commit of one row, in a database of its own next to the ledger,
 * with the ledger's settings (WAL, synchronous=FULL). A paid request makes two such durable
 * commits; their tail is the disk's, and this shows it in the same minutes.
 */
let scratch: Database.Database | undefined;
function bareCommitMs(): number {
  if (scratch === undefined) {
    scratch = new Database(join(dirname(LEDGER_PATH), 'disk-anchor.sqlite'));
    scratch.pragma('journal_mode = WAL');
    scratch.pragma('synchronous = FULL');
    scratch.exec('CREATE TABLE IF NOT EXISTS t (at REAL)');
  }
  const insert = scratch.prepare('INSERT INTO t (at) VALUES (?)');
  const t0 = performance.now();
  insert.run(t0);
  return performance.now() - t0;
}

await serveAsBenchChild(
  () => listen(),
  (m) => {
    if (m.type === 'commit') return { ms: bareCommitMs() };
    if (m.type !== 'ledger') return undefined;
    const out = { ledgerMs, serviceMs, facilitatorMs };
    ledgerMs = [];
    serviceMs = [];
    facilitatorMs = [];
    return out;
  },
);
