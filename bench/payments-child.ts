/**
 * The real service with its metered products, in its own process (started by payments.ts
 * through child.ts) for the challenge-throughput runs:
 *
 *   payments-child.ts <dataDir> <ledgerPath>
 *
 * <dataDir> holds keys/ and releases/<id> (published by payments.ts under the DID host
 * localhost:8080). The app is built exactly as `gspc serve` builds it with a configured rail:
 * loadRelease → ServedState (board key live) → buildApp with `products` (the rail read from
 * RAIL_ENV below by readRailConfig, a SQLite ledger, baseUrl http://localhost:8080), so
 * `GET /api/gspc` and `GET /api/request-attestation?...` are answered by one and the same app.
 * The facilitator URL points at a closed port: a challenge never calls it.
 *
 * IPC as serve-child.ts: { port } once listening; { type: 'cpu' } is answered with this
 * process's cpuUsage; { type: 'stop' } closes the app and the ledger. The child exits when the
 * parent goes away.
 */
import { readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serveAsBenchChild } from './child.js';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../src/app.js';
import { ServedState } from '../src/serve/served-state.js';
import { signingContext } from '../src/keys/signing.js';
import { readRailConfig } from '../src/config.js';
import { loadRelease } from '../src/release/load.js';
import { openLedger } from '../src/store/open-ledger.js';

const HOST = '127.0.0.1';
export const DID_HOST = 'localhost:8080';
export const BASE_URL = `http://${DID_HOST}`;
/** The rail of the challenge runs: a payee (so offers are signed), a facilitator never called, no promo. */
export const RAIL_ENV = {
  GSPC_PAY_TO: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  GSPC_FACILITATOR_URL: 'http://127.0.0.1:9',
  GSPC_PROMO: 'none',
};

async function listen(dataDir: string, ledgerPath: string): Promise<{ port: number; close: () => Promise<void> }> {
  const releases = readdirSync(join(dataDir, 'releases'));
  if (releases.length !== 1) throw new Error(`${dataDir}/releases: expected one release, found ${releases.length}`);
  const s = signingContext(join(dataDir, 'keys'), DID_HOST);
  const ledger = await openLedger({ sqlitePath: ledgerPath });
  const app = buildApp({
    state: new ServedState(loadRelease(join(dataDir, 'releases', releases[0]!)), {
      did: s.did,
      boardKey: s.inputs.boardKey,
      published: s.keys.published,
    }),
    logLevel: 'warn',
    baseUrl: BASE_URL,
    now: () => new Date(),
    ledger,
    products: { rail: readRailConfig(RAIL_ENV), facilitatorTimeoutMs: 15_000 },
  });
  await app.listen({ host: HOST, port: 0 });
  return {
    port: (app.server.address() as AddressInfo).port,
    close: async () => {
      await app.close();
      await ledger.close();
    },
  };
}

// Only when run as the child script (payments.ts imports the constants above).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dataDir = '', ledgerPath = ''] = process.argv.slice(2);
  await serveAsBenchChild(() => listen(dataDir, ledgerPath));
}
