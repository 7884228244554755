import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { ACTION_TIMEOUT_MS } from './core/fabric/actions.js';
import { GspcError } from './core/errors.js';
import { DEFAULTS, PACKAGE_VERSION } from './config.js';
import { randomInvoiceRef } from './http/invoice-routes.js';
import { registerHttpRoutes } from './http/routes.js';
import { didHostDocuments, didKeyResolver } from './keys/did-resolver.js';
import { registerPageRoutes } from './pages/page-routes.js';
import { httpFacilitator, type Facilitator } from './payments/facilitator.js';
import type { RailConfig } from './payments/rail-config.js';
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
import type { ReadContext } from './serve/read-context.js';
import type { ServedState } from './serve/served-state.js';
import { FabricObserver } from './status/fabric-observer.js';
import { HubIndexReader } from './status/hub-index.js';
import type { Ledger } from './store/ledger.js';
import { registerSurfaces, surfaceDocuments } from './surfaces/index.js';
import { clientErrorHandler, frameworkErrors, installErrorHandling } from './web/errors.js';
import { installJsonBodyParser } from './web/json-body.js';
import { registerDocumentRoutes } from './web/document-routes.js';
import type { ServiceMetrics } from './web/metrics.js';
import { installDrain } from './web/drain.js';
import { DEFAULT_CONNECTION_LIMITS, limitedServerFactory, type ConnectionLimits } from './web/connections.js';
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
  /**
   * The service is not at its DID's host (a replica; a public origin that is not the DID's host):
   * verification reads its keys at that host (issue 36; src/keys/did-resolver.ts). Default: off,
   * the service is the host and its own DID document is the host's.
   */
  keysAtDidHost?: boolean;
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
  /** Connection caps and timeouts (GSPC_MAX_CONNECTIONS…, GSPC_*_TIMEOUT_MS; src/web/connections.ts). */
  connections?: Partial<ConnectionLimits>;
}

/** The options resolved into the one context every layer reads (every default decided here). */
export function resolveService(given: AppOptions): ServiceContext {
  // With metrics on, every ledger call is counted: the one ledger every layer reads is the counted one.
  const opts = given.metrics && given.ledger ? { ...given, ledger: given.metrics.ledger(given.ledger) } : given;
  const now = opts.now ?? (() => new Date());
  const baseUrl = opts.baseUrl ?? DEFAULTS.baseUrl;
  const sources = opts.sources ?? NO_SOURCES;
  const state = opts.state;
  const didHost = opts.keysAtDidHost === true ? didHostDocuments(() => state.signingLive().did) : undefined;
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
    resolveKey: didKeyResolver(
      () => ({ did: state.signingLive().did, doc: state.current().didDocument }),
      { trustedHosts: opts.trustedDidHosts ?? [] },
      didHost,
    ),
    ...(didHost && { didHost }),
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
    serverFactory: limitedServerFactory({ ...DEFAULT_CONNECTION_LIMITS, ...opts.connections }, fastPath?.serve),
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
