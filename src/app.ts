/**
 * The composition root: the one place where the service's parts are chosen and wired. `buildApp`
 * resolves the options into one ServiceContext (clock, public origin, rail, ledger, status
 * sources, readers; every default decided here, from src/config.ts), builds the document registry
 * and registers the HTTP routes, the agent surfaces and the pages over it. `startService` is what
 * `gspc serve` runs: it loads or publishes the release, opens the ledger, follows new publishes
 * and key health, and listens. Nothing below this file reads the environment.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { ACTION_TIMEOUT_MS } from './core/fabric/actions.js';
import { GspcError } from './core/errors.js';
import { DEFAULTS, PACKAGE_VERSION, type Config } from './config.js';
import { randomInvoiceRef } from './http/invoice-routes.js';
import { registerHttpRoutes } from './http/routes.js';
import { didKeyResolver } from './keys/did-resolver.js';
import { keygen } from './keys/key-store.js';
import { signingContext, type SigningContext } from './keys/signing.js';
import { registerPageRoutes } from './pages/page-routes.js';
import { httpFacilitator, type Facilitator } from './payments/facilitator.js';
import type { RailConfig } from './payments/rail-config.js';
import { currentReleaseDir, loadRelease } from './release/load.js';
import { publishRelease } from './release/publish.js';
import { withPublishLock } from './release/publish-lock.js';
import { releaseDirDid, requireOrigin } from './release/release-origin.js';
import { isReplica, requireReleaseKeys } from './release/release-keys.js';
import { readWitnesses } from './release/witness-store.js';
import {
  NO_SOURCES,
  type ProductsContext,
  type ReadLog,
  type ServiceContext,
  type StatusSources,
} from './serve/context.js';
import type { DocumentEntry } from './serve/documents/document.js';
import { DocumentReader } from './serve/documents/reader.js';
import { documentRegistry } from './serve/documents/registry.js';
import { warmModelsDocuments } from './serve/documents/models.js';
import type { ReadContext } from './serve/read-context.js';
import { ServedState } from './serve/served-state.js';
import type { SigningLive } from './serve/signed-board.js';
import { FabricObserver } from './status/fabric-observer.js';
import { HubIndexReader } from './status/hub-index.js';
import { openLedger } from './store/open-ledger.js';
import type { Ledger } from './store/ledger.js';
import { registerSurfaces, surfaceDocuments } from './surfaces/index.js';
import { clientErrorHandler, frameworkErrors, installErrorHandling } from './web/errors.js';
import { installJsonBodyParser } from './web/json-body.js';
import { registerDocumentRoutes } from './web/document-routes.js';
import { ServiceMetrics } from './web/metrics.js';
import { installDrain } from './web/drain.js';
import { PreparedFastPath } from './web/fast-path.js';
import { installRateLimits, RateCounts, type RateBudgets } from './web/rate-limits.js';
import { installOpenApi } from './web/openapi.js';
import { PRODUCTS } from './core/pricing/products.js';

/** The metered products: served when given (the rail may still be unconfigured: challenges only). */
export interface ProductOptions {
  rail: RailConfig;
  /** The facilitator (default: HTTP to `rail.facilitatorUrl`, when the rail is configured). */
  facilitator?: Facilitator;
  /** How long a facilitator call may take (default DEFAULTS.facilitatorTimeoutMs). */
  facilitatorTimeoutMs?: number;
  /** A random invoice reference (default: 128 random bits). */
  invoiceRef?: () => string;
}

export interface AppOptions {
  state: ServedState;
  /** The clock (default: the system clock). */
  now?: () => Date;
  /** The public origin (default DEFAULTS.baseUrl). */
  baseUrl?: string;
  /** The ledger (payments, invoices, action-job receipts, heartbeats); none: read-only. */
  ledger?: Ledger;
  /** The metered products; absent: the service sells nothing. */
  products?: ProductOptions;
  /** The status documents' configured sources (default: none). */
  sources?: StatusSources;
  /** did:web hosts whose DID documents may be fetched to verify receipts (GSPC_TRUSTED_DID_HOSTS). */
  trustedDidHosts?: readonly string[];
  /** The capability fabric's observer (default: probes `baseUrl` every DEFAULTS.fabricRefreshMs). */
  fabric?: FabricObserver;
  /** The hub index reader (default: the configured peers). */
  hubs?: HubIndexReader;
  logLevel?: string;
  accessLog?: boolean;
  /** How long close waits for requests in flight before cutting their connections (default DEFAULTS.drainTimeoutMs). */
  drainTimeoutMs?: number;
  /** Serve GET /metrics and count requests, ledger calls and outcomes (GSPC_METRICS); none: off. */
  metrics?: ServiceMetrics;
  /** Per-client budgets (GSPC_RATE_LIMITS); none: unlimited. */
  rateLimits?: RateBudgets;
  /** Proxies whose X-Forwarded-For names the client (GSPC_TRUST_PROXY). */
  trustProxy?: readonly string[];
  /**
   * Answer plain GETs of prepared documents before Fastify (GSPC_FAST_PATH; default on, and off
   * whenever the access log is on): src/web/fast-path.ts.
   */
  fastPath?: boolean;
}

/** The options resolved into the one context every layer reads (every default decided here). */
export function resolveService(given: AppOptions): ServiceContext {
  // With metrics on, every ledger call is counted: the one ledger every layer reads is the counted one.
  const opts = given.metrics && given.ledger ? { ...given, ledger: given.metrics.ledger(given.ledger) } : given;
  const now = opts.now ?? (() => new Date());
  const baseUrl = opts.baseUrl ?? DEFAULTS.baseUrl;
  const sources = opts.sources ?? NO_SOURCES;
  const state = opts.state;
  const p = opts.products;
  let products: ProductsContext | undefined;
  if (p !== undefined) {
    const facilitatorTimeoutMs = p.facilitatorTimeoutMs ?? DEFAULTS.facilitatorTimeoutMs;
    const url = p.rail.facilitatorUrl;
    const live = p.rail.payTo !== null && url !== null;
    if (live && !opts.ledger)
      throw new GspcError('config_invalid', 'a configured payment rail needs a ledger to record settlements');
    products = {
      rail: p.rail,
      ledger: opts.ledger,
      facilitatorTimeoutMs,
      facilitator: live ? (p.facilitator ?? httpFacilitator(url, facilitatorTimeoutMs)) : undefined,
      invoiceRef: p.invoiceRef ?? randomInvoiceRef,
    };
  }
  return {
    state,
    now,
    baseUrl,
    sources,
    products,
    events: opts.metrics,
    ledger: opts.ledger,
    rail: p?.rail,
    fabric:
      opts.fabric ??
      new FabricObserver({
        origin: baseUrl,
        timeoutMs: ACTION_TIMEOUT_MS,
        fetch: (u, i) => fetch(u, i),
        now,
        refreshMs: DEFAULTS.fabricRefreshMs,
      }),
    hubs: opts.hubs ?? new HubIndexReader({ peers: sources.hubPeers, timeoutMs: ACTION_TIMEOUT_MS, now }),
    resolveKey: didKeyResolver(() => ({ did: state.signingLive().did, doc: state.current().didDocument }), {
      trustedHosts: opts.trustedDidHosts ?? [],
    }),
  };
}

/** The resolved context, the document registry over it, and the read context of surfaces and pages. */
export function composeService(
  opts: AppOptions,
  log?: ReadLog,
): { service: ServiceContext; read: ReadContext; entries: readonly DocumentEntry[] } {
  const service = resolveService(opts);
  // The surfaces' own documents (the A2A agent card) join the registry; they read the registry
  // lazily, so the reader is attached before any request can arrive.
  const read = { ...service } as ReadContext;
  const entries = documentRegistry({ products: service.products !== undefined, extra: surfaceDocuments(read) });
  read.documents = new DocumentReader(service, entries, log);
  return { service, read, entries };
}

export function buildApp(opts: AppOptions): FastifyInstance {
  return assembleApp(opts).app;
}

/** The app and the document registry it serves (the static mirror iterates the same entries). */
export function assembleApp(opts: AppOptions): { app: FastifyInstance; entries: readonly DocumentEntry[] } {
  const counts = opts.rateLimits && new RateCounts(opts.rateLimits, { trustProxy: opts.trustProxy });
  const metrics = opts.metrics;
  const fastPath =
    opts.fastPath === false || opts.accessLog === true
      ? undefined
      : new PreparedFastPath({
          current: () => opts.state.current(),
          ...(counts && { admit: counts.admitFree, clock: counts.clock }),
          ...(metrics && { counter: (route: string) => metrics.responseCounter(route) }),
        });
  const app = Fastify({
    ...(fastPath && { serverFactory: fastPath.serverFactory }),
    logger: { level: opts.logLevel ?? 'info' },
    logController: new LogController({ disableRequestLogging: !opts.accessLog }),
    // Without an access log, a per-request child logger (~1.5 µs) buys nothing: use the root one.
    ...(!opts.accessLog && { childLoggerFactory: (logger: FastifyBaseLogger) => logger }),
    // The service accepts no large bodies; verification bodies get their own limit.
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
    clientErrorHandler,
    frameworkErrors,
    ...(opts.trustProxy !== undefined && opts.trustProxy.length > 0 && { trustProxy: [...opts.trustProxy] }),
  });
  installErrorHandling(app);
  installJsonBodyParser(app);
  installDrain(app, opts.drainTimeoutMs ?? DEFAULTS.drainTimeoutMs, () => fastPath?.close());
  metrics?.install(app);
  const { service, read, entries } = composeService(opts, app.log);
  app.addHook('onClose', async () => {
    service.fabric.stop();
    await service.products?.facilitator?.close?.();
  });
  if (counts)
    installRateLimits(app, counts, {
      productPaths: new Set(service.products ? PRODUCTS.map((p) => p.path) : []),
      ledger: service.ledger,
    });
  installOpenApi(app, { title: 'gspc-board', version: PACKAGE_VERSION }, () => ({
    baseUrl: service.baseUrl,
    state: service.state,
    entries,
  }));
  // The routes are registered in a plugin after the limits and the OpenAPI collector, plugins
  // that hook every route registered after they have loaded, so that they see all of them.
  void app.register(async (routes) => {
    registerDocumentRoutes(routes, service, entries, fastPath);
    registerHttpRoutes(routes, service);
    registerSurfaces(routes, read);
    registerPageRoutes(routes, read);
  });
  return { app, entries };
}

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
    if (!existsSync(join(config.keyDir, 'public-keys.json'))) keygen(config.keyDir);
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

const healthKey = (s: SigningContext) =>
  JSON.stringify(s.keys.health) + JSON.stringify(s.keys.published.map((k) => Buffer.from(k.publicKey).toString('hex')));
export const liveOf = (s: SigningContext): SigningLive => ({
  boardKey: s.inputs.boardKey,
  published: s.keys.published,
  did: s.did,
  cardKey: s.keys.state('card-attestation-2'),
  ...(s.keys.transitions.length > 0 && { transitions: s.keys.transitions }),
});

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
  let signing = signingContext(config.keyDir, config.didHost, config.token);
  const first = loadRelease(dir);
  requireOrigin(first, signing.did, config.baseUrl);
  const keyPlace = {
    keyDir: config.keyDir,
    replica: isReplica(config.dataDir),
    transitions: signing.keys.transitions,
  };
  requireReleaseKeys(first, signing.keys.published, keyPlace);
  const witnesses = (rootSha: string) => readWitnesses(config.dataDir, rootSha);
  const state = new ServedState(first, liveOf(signing), witnesses);
  const metrics = config.metrics ? new ServiceMetrics(state) : undefined;
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
    products: { rail: config.rail, facilitatorTimeoutMs: config.facilitatorTimeoutMs },
    logLevel: config.logLevel,
    accessLog: config.accessLog,
    drainTimeoutMs: config.drainTimeoutMs,
    ...(metrics && { metrics }),
    rateLimits: config.rateLimits,
    trustProxy: config.trustProxy,
    fastPath: config.fastPath,
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
    const nextSigning = signingContext(config.keyDir, config.didHost, config.token);
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
      requireOrigin(release, signing.did, config.baseUrl);
      requireReleaseKeys(release, signing.keys.published, { ...keyPlace, transitions: signing.keys.transitions });
      state.swap(release);
      stopWarm();
      stopWarm = warmModelsDocuments(state.current()).stop;
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
  fabric.start();
  stopWarm = warmModelsDocuments(state.current()).stop;
  app.log.info(
    { release: state.current().release.id, board: `${baseUrl}/api/gspc`, did: signing.did },
    'gspc board serving',
  );
  return app;
}
