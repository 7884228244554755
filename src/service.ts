/**
 * `gspc serve` (startService): load or publish the release to serve, open the ledger, follow new
 * publishes and key health, build each release's every-model documents ahead of their readers,
 * and listen. The app itself is composed by src/app.ts; nothing below this file reads the
 * environment.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ACTION_TIMEOUT_MS } from './core/fabric/actions.js';
import { GspcError } from './core/errors.js';
import type { Config } from './config.js';
import { keygen } from './keys/key-store.js';
import { ALL_KEYS } from './core/evidence/signer.js';
import { keyStates, signingContext, signingFor, type SigningContext } from './keys/signing.js';
import { currentReleaseDir, loadRelease } from './release/load.js';
import { publishRelease } from './release/publish.js';
import { withPublishLock } from './release/publish-lock.js';
import { releaseDirDid, requireOrigin } from './release/release-origin.js';
import { isReplica, requireReleaseKeys } from './release/release-keys.js';
import { didHostBase } from './core/verify/key-source.js';
import { readWitnesses } from './release/witness-store.js';
import { warmAxisDocuments } from './serve/documents/warm-axis-documents.js';
import { ServedState } from './serve/served-state.js';
import type { SigningLive } from './serve/signed-board.js';
import { FabricObserver } from './status/fabric-observer.js';
import { openLedger } from './store/open-ledger.js';
import { ServiceMetrics } from './web/metrics.js';

export interface ServeOptions {
  releaseDir?: string;
  demoCorpusDir: string;
  /**
   * `--demo` (what `npm start` passes): serve the bundled demo when nothing is published, and
   * publish it again for this origin when the current release was published for another.
   */
  demo?: boolean;
}

const isEmptyDir = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0;

/**
 * The release directory `gspc serve` starts with: `--release`, else the data directory's current
 * release. The bundled demo is published only when asked (`--demo`) or when the data directory is
 * the default one and empty; an operator's mistyped `--data-dir` is an error, never the synthetic
 * demo served as if it were their board (issue 16).
 */
async function releaseToServe(config: Config, opts: ServeOptions): Promise<string> {
  if (opts.releaseDir !== undefined) return opts.releaseDir;
  const current = currentReleaseDir(config.dataDir);
  const signing = () => {
    // The demo's keys are made on first start, unless the keys are on a token (never a file then).
    if (config.token === undefined && !existsSync(join(config.keyDir, 'public-keys.json'))) keygen(config.keyDir);
    return signingContext(config.keyDir, config.didHost, config.token);
  };
  const publishDemo = () =>
    withPublishLock(
      config.dataDir,
      () => publishRelease(opts.demoCorpusDir, config.dataDir, signing().inputs, { publicUrl: config.baseUrl }).dir,
    );
  if (current === undefined) {
    if (opts.demo === true || (!config.dataDirExplicit && isEmptyDir(config.dataDir))) return publishDemo();
    throw new GspcError(
      'release_not_found',
      existsSync(config.dataDir)
        ? `${config.dataDir} holds no published release: publish one (gspc publish <corpus> --data-dir ${config.dataDir}), or serve the bundled demo with --demo`
        : `the data directory ${config.dataDir} does not exist: check --data-dir or GSPC_DATA_DIR, or serve the bundled demo with --demo`,
    );
  }
  // Only the DID is needed here; startService loads (and hash-checks) the release it serves once.
  if (opts.demo === true && releaseDirDid(current) !== signing().did) return publishDemo();
  return current;
}

/**
 * What the key directory's files are now, from their metadata alone (stat takes no descriptor):
 * the keys are read again only when this changes (issue 38). A key held in memory is never
 * re-read by a health check, so a process out of descriptors (EMFILE) cannot make a signed
 * release look unsigned.
 */
export function keyFilesStamp(keyDir: string): string {
  const names = [
    ...ALL_KEYS.map((f) => `${f}.key`),
    'public-keys.json',
    'transitions.json',
    'pending.json',
    'in-use.json',
  ];
  return names
    .map((n) => {
      try {
        const st = statSync(join(keyDir, n), { throwIfNoEntry: false });
        return st === undefined ? '-' : `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.mode}`;
      } catch (e) {
        return `?${(e as NodeJS.ErrnoException).code ?? ''}`;
      }
    })
    .join('|');
}

/** A read that failed for want of a resource (descriptors, memory), not because of the file. */
const TRANSIENT = /\((EMFILE|ENFILE|ENOMEM|EAGAIN)\)/;
export const transientKeyRead = (s: SigningContext): boolean =>
  s.keys.health.some((h) => !h.healthy && TRANSIENT.test(h.reason ?? ''));

const healthKey = (s: SigningContext) =>
  JSON.stringify(s.keys.health) +
  JSON.stringify(s.keys.published.map((k) => Buffer.from(k.publicKey).toString('hex'))) +
  JSON.stringify(s.keys.transitions.length);
export const liveOf = (s: SigningContext): SigningLive => ({
  boardKey: s.inputs.boardKey,
  published: s.keys.published,
  did: s.did,
  cardKey: s.keys.state('card-attestation-2'),
  ...(s.keys.transitions.length > 0 && { transitions: s.keys.transitions }),
});

/**
 * Whether this service is its DID's host (issue 36): not a replica (`gspc pull` made its data
 * directory), its public origin is the DID's host, and, for a loopback origin, it listens on
 * that origin's port. Otherwise verification reads the keys at the DID's host.
 */
export function atDidHost(config: Pick<Config, 'dataDir' | 'baseUrl' | 'port'>, did: string): boolean {
  if (isReplica(config.dataDir)) return false;
  const base = new URL(config.baseUrl);
  if (base.origin !== didHostBase(did)) return false;
  const loopback = base.hostname === 'localhost';
  return !loopback || Number(base.port || (base.protocol === 'https:' ? 443 : 80)) === config.port;
}

/**
 * `gspc serve`: load a release, prepare its bytes, listen. When serving the data directory's
 * current release, a newly published release is picked up (polled, and at once on SIGHUP);
 * key health is re-checked at the same moments. A release that fails to load is logged and the
 * previous one stays served. With nothing published, the bundled demo is published first
 * (generating the demo's keys if there are none).
 */
export async function startService(config: Config, opts: ServeOptions): Promise<FastifyInstance> {
  const followCurrent = opts.releaseDir === undefined;
  const dir = await releaseToServe(config, opts);
  // The key directory's own keys and, while `gspc keys` has a change pending, the keys with it
  // applied: each release is served with the keys it was published with (decision K9), so a
  // pending rotation or revocation changes nothing served until the release that logs it does.
  // With the keys on a token (PKCS#11) there is no file to stamp: they are asked each check.
  const stamp = () => (config.token === undefined ? keyFilesStamp(config.keyDir) : undefined);
  let keysStamp = stamp();
  let keys = keyStates(config.keyDir, config.didHost, config.token);
  const first = loadRelease(dir);
  let signing = signingFor(keys, first);
  requireOrigin(first, signing.did, config.baseUrl);
  const keyPlace = (s: SigningContext) => ({
    keyDir: config.keyDir,
    replica: isReplica(config.dataDir),
    transitions: s.keys.transitions,
  });
  requireReleaseKeys(first, signing.keys.published, keyPlace(signing));
  const witnesses = (rootSha: string) => readWitnesses(config.dataDir, rootSha);
  const state = new ServedState(first, liveOf(signing), witnesses);
  const sqlite = 'sqlitePath' in config.ledger ? config.ledger.sqlitePath : undefined;
  const metrics = config.metrics
    ? new ServiceMetrics(state, {
        ...config.metricsAccess,
        ...(sqlite !== undefined && { ledgerFiles: [sqlite, `${sqlite}-wal`] }),
      })
    : undefined;
  const witnessState = () => JSON.stringify(witnesses(state.current().rootSha256));
  let lastWitnesses = witnessState();
  // A paid request's commits must not wait for a checkpoint of the log (decision O13).
  const ledger = await openLedger({ ...config.ledger, checkpointInBackground: true });
  const now = () => new Date();
  const fabric = new FabricObserver({
    origin: config.baseUrl,
    timeoutMs: ACTION_TIMEOUT_MS,
    fetch: (url, init) => fetch(url, init),
    now,
    refreshMs: config.fabricRefreshMs,
  });
  const app = buildApp({
    state,
    now,
    baseUrl: config.baseUrl,
    ledger,
    sources: config.sources,
    fabric,
    trustedDidHosts: config.trustedDidHosts,
    keysAtDidHost: !atDidHost(config, signing.did),
    products: { rail: config.rail, facilitatorTimeoutMs: config.facilitatorTimeoutMs },
    logLevel: config.logLevel,
    accessLog: config.accessLog,
    drainTimeoutMs: config.drainTimeoutMs,
    ...(metrics && { metrics }),
    rateLimits: config.rateLimits,
    trustProxy: config.trustProxy,
    fastPath: config.fastPath,
    connections: config.connections,
  });
  app.addHook('onClose', () => ledger.close());
  const rail = config.rail;
  if (rail.payTo === null || rail.facilitatorUrl === null)
    app.log.warn(
      { pay_to_configured: rail.payTo !== null, facilitator_configured: rail.facilitatorUrl !== null },
      'payment rail not configured: challenges are served, payments are refused with 503 and nothing is charged',
    );
  else
    app.log.info(
      {
        network: rail.network,
        asset: rail.asset,
        pay_to: rail.payTo,
        facilitator: rail.facilitatorUrl,
        ledger: ledger.backend,
      },
      'payment rail configured',
    );
  for (const h of signing.keys.health.filter((k) => !k.healthy))
    app.log.warn({ key: h.fragment, reason: h.reason }, 'key is unhealthy: what it signs is served unsigned');

  let servedDir = dir;
  // Each served release's every-model documents are built ahead of their first reader, one axis
  // per turn of the event loop (src/serve/documents/models.ts): the first release's once
  // listening, each newly published one's when it is swapped in.
  let stopWarm = () => {};
  app.addHook('onClose', async () => stopWarm());
  const check = () => {
    const nowStamp = stamp();
    if (nowStamp === undefined || nowStamp !== keysStamp) {
      const read = keyStates(config.keyDir, config.didHost, config.token);
      // A read that ran out of descriptors says nothing of the keys: keep those held, read again next check.
      if (
        read.pendingUnread === undefined &&
        !transientKeyRead(read.committed) &&
        (read.pending === undefined || !transientKeyRead(read.pending))
      ) {
        keys = read;
        keysStamp = nowStamp;
      }
    }
    const nextSigning = signingFor(keys, state.current().release);
    if (healthKey(nextSigning) !== healthKey(signing)) {
      signing = nextSigning;
      state.setSigning(liveOf(signing));
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
      const release = loadRelease(next);
      const releaseSigning = signingFor(keys, release);
      requireOrigin(release, releaseSigning.did, config.baseUrl);
      requireReleaseKeys(release, releaseSigning.keys.published, keyPlace(releaseSigning));
      signing = releaseSigning;
      state.swap(release, liveOf(signing));
      stopWarm();
      stopWarm = warmAxisDocuments(state.current()).stop;
      servedDir = next;
      lastWitnesses = witnessState();
      app.log.info({ release: state.current().release.id }, 'serving newly published release');
      metrics?.reload('loaded');
    } catch (err) {
      metrics?.reload('failed');
      app.log.error({ err, dir: next }, 'new release failed to load; the previous release stays served');
    }
  };
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await app.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL')
      throw new GspcError(
        'listen_failed',
        code === 'EADDRINUSE'
          ? `cannot listen on ${config.host}:${config.port}: the address is already in use (another gspc serve?); stop it or choose another port with --port`
          : `cannot listen on ${config.host}:${config.port}: ${code === 'EACCES' ? 'permission denied (a port below 1024?)' : 'no such address on this machine'}; choose another with --host or --port`,
      );
    throw err;
  }
  // Only once listening: a service that failed to start leaves no timer or signal handler behind.
  if (config.reloadIntervalMs > 0) setInterval(check, config.reloadIntervalMs).unref();
  process.on('SIGHUP', check);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      app.log.info({ signal: sig, drain_timeout_ms: config.drainTimeoutMs }, 'closing: draining requests in flight');
      void app.close().then(() => process.exit(0));
    });
  }
  const { port } = app.server.address() as { port: number };
  // The capability fabric observes the public origin; with the default base URL that is this
  // process (the port may only be known now). The first round starts at once, in the background.
  const baseUrl = config.baseUrlExplicit ? config.baseUrl : `http://localhost:${port}`;
  if (!config.baseUrlExplicit && port !== config.port) fabric.retarget(baseUrl);
  const local = localOriginElsewhere(baseUrl, port);
  // `--public-url http://localhost:8181` alone listens on 8080: a reader of this machine (and the
  // fabric's probes) would find nothing at the origin the board names (review R2).
  if (local !== undefined)
    app.log.warn(
      { public_url: baseUrl, port },
      `the public URL names port ${local} of this machine but the service listens on ${port}: give --port ${local} (or PORT) unless a proxy forwards it`,
    );
  fabric.start();
  stopWarm = warmAxisDocuments(state.current()).stop;
  app.log.info(
    { release: state.current().release.id, board: `${baseUrl}/api/gspc`, did: signing.did },
    'gspc board serving',
  );
  return app;
}

/** The port of a loopback public origin other than `port`, where this machine listens, or undefined. */
export function localOriginElsewhere(baseUrl: string, port: number): number | undefined {
  const u = new URL(baseUrl);
  if (!['localhost', '127.0.0.1', '[::1]'].includes(u.hostname)) return undefined;
  const named = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  return named === port ? undefined : named;
}
