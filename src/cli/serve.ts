/**
 * `gspc serve`: load a release, prepare its bytes, listen. When serving the data directory's
 * current release, a newly published release is picked up (polled, and at once on SIGHUP);
 * key health is re-checked at the same moments. A release that fails to load is logged and the
 * previous one stays served. With nothing published, the bundled demo is published first
 * (generating the demo's keys if there are none).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { buildApp } from '../http/app.js';
import { ServedState } from '../http/served-state.js';
import { keygen } from '../keys/key-store.js';
import { signingContext, type SigningContext } from '../keys/signing.js';
import { currentReleaseDir, loadRelease } from '../release/load.js';
import { publishRelease } from '../release/publish.js';
import { readWitnesses } from '../release/witness-store.js';
import { openLedger } from '../store/open-ledger.js';
import { FabricObserver } from '../status/fabric-observer.js';
import { ACTION_TIMEOUT_MS } from '../core/fabric/actions.js';

export interface ServeOptions {
  releaseDir?: string;
  demoCorpusDir: string;
}

const healthKey = (s: SigningContext) => JSON.stringify(s.keys.health) + JSON.stringify(s.keys.published.map((k) => Buffer.from(k.publicKey).toString('hex')));

export async function serve(config: Config, opts: ServeOptions): Promise<FastifyInstance> {
  let dir = opts.releaseDir;
  const followCurrent = dir === undefined;
  if (dir === undefined) {
    dir = currentReleaseDir(config.dataDir);
    if (dir === undefined) {
      if (!existsSync(join(config.keyDir, 'public-keys.json'))) keygen(config.keyDir);
      dir = publishRelease(opts.demoCorpusDir, config.dataDir, signingContext(config.keyDir, config.didHost).inputs).dir;
    }
  }
  let signing = signingContext(config.keyDir, config.didHost);
  const witnesses = (rootSha: string) => readWitnesses(config.dataDir, rootSha);
  const state = new ServedState(loadRelease(dir), { boardKey: signing.inputs.boardKey, published: signing.keys.published, did: signing.did, cardKey: signing.keys.state('card-attestation-2') }, witnesses);
  const witnessState = () => JSON.stringify(witnesses(state.current().rootSha256));
  let lastWitnesses = witnessState();
  const ledger = await openLedger(config.ledger);
  const products = { baseUrl: config.baseUrl, rail: config.rail, now: () => new Date(), ledger, facilitatorTimeoutMs: config.facilitatorTimeoutMs };
  const now = () => new Date();
  const fabric = new FabricObserver({ origin: config.baseUrl, timeoutMs: ACTION_TIMEOUT_MS, fetch: (url, init) => fetch(url, init), now, refreshMs: config.fabricRefreshMs });
  const app = buildApp({ state, logLevel: config.logLevel, accessLog: config.accessLog, trustedDidHosts: config.trustedDidHosts, products, status: { now, sources: config.sources, fabric } });
  app.addHook('onClose', () => ledger.close());
  const rail = config.rail;
  if (rail.payTo === null || rail.facilitatorUrl === null) app.log.warn({ pay_to_configured: rail.payTo !== null, facilitator_configured: rail.facilitatorUrl !== null }, 'payment rail not configured: challenges are served, payments are refused with 503 and nothing is charged');
  else app.log.info({ network: rail.network, asset: rail.asset, pay_to: rail.payTo, facilitator: rail.facilitatorUrl, ledger: ledger.backend }, 'payment rail configured');
  for (const h of signing.keys.health.filter((k) => !k.healthy)) app.log.warn({ key: h.fragment, reason: h.reason }, 'key is unhealthy: what it signs is served unsigned');

  let servedDir = dir;
  const check = () => {
    const nextSigning = signingContext(config.keyDir, config.didHost);
    if (healthKey(nextSigning) !== healthKey(signing)) {
      signing = nextSigning;
      state.setSigning({ boardKey: signing.inputs.boardKey, published: signing.keys.published, did: signing.did, cardKey: signing.keys.state('card-attestation-2') });
      app.log.warn({ health: signing.keys.health }, 'key health changed');
    }
    const w = witnessState();
    if (w !== lastWitnesses) {
      lastWitnesses = w;
      state.refreshWitnesses();
      app.log.info('witness evidence recorded; witness record updated');
    }
    if (!followCurrent) return;
    const next = currentReleaseDir(config.dataDir);
    if (next === undefined || next === servedDir) return;
    try {
      state.swap(loadRelease(next));
      servedDir = next;
      lastWitnesses = witnessState();
      app.log.info({ release: state.current().release.id }, 'serving newly published release');
    } catch (err) {
      app.log.error({ err, dir: next }, 'new release failed to load; the previous release stays served');
    }
  };
  if (config.reloadIntervalMs > 0) setInterval(check, config.reloadIntervalMs).unref();
  process.on('SIGHUP', check);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => { void app.close().then(() => process.exit(0)); });
  }
  await app.listen({ port: config.port, host: config.host });
  const { port } = app.server.address() as { port: number };
  const baseUrl = process.env.GSPC_BASE_URL ? config.baseUrl : `http://localhost:${port}`;
  // The capability fabric observes the public origin; with the default base URL that is this
  // process (the port may only be known now). The first round starts at once, in the background.
  if (!process.env.GSPC_BASE_URL && port !== config.port) fabric.retarget(baseUrl);
  fabric.start();
  app.log.info({ release: state.current().release.id, board: `${baseUrl}/api/gspc`, did: signing.did }, 'gspc board serving');
  return app;
}
