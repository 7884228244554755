/**
 * The Fastify application: routes registered per resource group, one error table.
 * `buildApp` takes everything it needs; nothing here reads the environment.
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { registerBoardRoutes } from './board-routes.js';
import { registerEvidenceRoutes } from './evidence-routes.js';
import { registerVerifyRoutes } from './verify-routes.js';
import { BASE_HEADERS, installErrorHandling } from './errors.js';
import type { ServedState } from './served-state.js';
import { didKeyResolver } from '../keys/did-resolver.js';
import { registerProductRoutes, type ProductRouteOptions } from './product-routes.js';
import { registerCatalogueRoutes } from './catalogue-routes.js';
import { registerSurfaces, type SurfaceContext } from '../surfaces/index.js';
import { registerPageRoutes } from '../pages/page-routes.js';
import { NO_SOURCES, registerStatusRoutes, type StatusContext, type StatusReaders } from './status/index.js';

export interface AppOptions {
  state: ServedState;
  logLevel?: string;
  accessLog?: boolean;
  /** did:web hosts whose DID documents may be fetched to verify receipts (GSPC_TRUSTED_DID_HOSTS). */
  trustedDidHosts?: readonly string[];
  /** The metered products (402 challenges and previews); not registered when absent. */
  products?: ProductRouteOptions;
  /** Sources of the status documents; defaults: the products' clock, ledger and base URL, no configured sources. */
  status?: Partial<Omit<StatusContext, 'state'>> & StatusReaders;
}

export function buildApp(opts: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: { level: opts.logLevel ?? 'info' },
    logController: new LogController({ disableRequestLogging: !opts.accessLog }),
    // Without an access log, a per-request child logger (~1.5 µs) buys nothing: use the root one.
    ...(!opts.accessLog && { childLoggerFactory: (logger: FastifyBaseLogger) => logger }),
    // The service accepts no large bodies; verification bodies get their own limit later.
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
  });
  installErrorHandling(app);
  // Streams (AG-UI, MCP) end in their own preClose hooks; what is left after a grace period is
  // cut: an aborted fetch can leave a connection that never sends a request, and the server
  // would otherwise wait for its headers timeout (about a minute) before closing.
  app.addHook('preClose', (done) => {
    setTimeout(() => app.server.closeAllConnections(), 2000).unref();
    done();
  });
  registerBoardRoutes(app, opts.state);
  registerEvidenceRoutes(app, opts.state);
  const state = opts.state;
  const resolveKey = didKeyResolver(() => ({ did: state.signingLive().did, doc: state.current().didDocument }), { trustedHosts: opts.trustedDidHosts ?? [] });
  registerVerifyRoutes(app, state, resolveKey);
  if (opts.products) registerProductRoutes(app, state, opts.products);
  if (opts.products) registerCatalogueRoutes(app, opts.state, opts.products);
  const p = opts.products;
  registerStatusRoutes(app, {
    state,
    now: opts.status?.now ?? p?.now ?? (() => new Date()),
    baseUrl: opts.status?.baseUrl ?? p?.baseUrl ?? 'http://localhost:8080',
    sources: opts.status?.sources ?? NO_SOURCES,
    ...((opts.status?.ledger ?? p?.ledger) !== undefined && { ledger: (opts.status?.ledger ?? p?.ledger)! }),
    ...((opts.status?.rail ?? p?.rail) !== undefined && { rail: (opts.status?.rail ?? p?.rail)! }),
  }, { ...(opts.status?.fabric && { fabric: opts.status.fabric }), ...(opts.status?.hubs && { hubs: opts.status.hubs }) });
  const surfaces: SurfaceContext = {
    state, resolveKey,
    now: opts.status?.now ?? p?.now ?? (() => new Date()),
    baseUrl: opts.status?.baseUrl ?? p?.baseUrl ?? 'http://localhost:8080',
    ...(p !== undefined && { products: p }),
    readRoute: async (path) => {
      // In-process GET of one of our own routes: a fixed path chosen by the surface, never a URL.
      if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`readRoute takes a path of this service, not ${path}`);
      const r = await app.inject({ method: 'GET', url: path });
      return { status: r.statusCode, headers: r.headers, body: r.body };
    },
  };
  registerSurfaces(app, surfaces);
  registerPageRoutes(app, surfaces);
  app.get('/healthz', (_req, reply) => {
    const r = opts.state.current().release;
    reply.headers(BASE_HEADERS).send({ status: 'ok', release: r.id, as_of: r.descriptor.as_of });
  });
  return app;
}
