/**
 * The documents around the metered products, served only when the service sells: the catalogue
 * (`GET /api/x402`), the measured quote manifest (`GET /.well-known/x402.json`) and the revenue
 * ledger read (`GET /api/revenue`). The documents are built in src/payments/; this file reads the
 * served release, the products' own unpaid answers (quotes are observed in-process through the
 * same function the product routes answer with, never an outbound request) and the ledger.
 */
import { GspcError } from '../../core/errors.js';
import { PRODUCTS } from '../../core/pricing/products.js';
import { buildCatalogue, catalogueMaxAge, exampleRequests } from '../../payments/catalogue.js';
import { observeQuotes, quoteManifest, QUOTES_PATH, QUOTES_TTL_SECONDS } from '../../payments/quote-manifest.js';
import { listedSettlements, paymentId, revenueDocument, unreadRevenue } from '../../payments/revenue.js';
import type { ProductsContext, ReadLog, ServiceContext } from '../context.js';
import { failureOf } from '../error-body.js';
import type { PreparedRelease } from '../prepared.js';
import { releaseView, unpaidAnswer } from '../products.js';
import { built, perRelease, type DocumentEntry } from './document.js';

// The example requests depend only on the release (its active signed cards and obligations).
const examplesOf = perRelease((p) =>
  exampleRequests(
    releaseView(p).preview.active,
    p.release.corpus.obligations.map((o) => o.id),
  ),
);

function productsOf(ctx: ServiceContext): ProductsContext {
  // The registry holds these entries only when the service sells (src/serve/documents/registry.ts).
  if (!ctx.products) throw new GspcError('not_found', 'this service serves no metered products');
  return ctx.products;
}

const catalogueDoc: DocumentEntry<ReturnType<typeof buildCatalogue>> = {
  id: 'x402-catalogue',
  route: '/api/x402',
  query: [],
  schema: 'svc.x402-catalogue/0.1',
  cache: { kind: 'request', cacheControl: 'public, max-age=<seconds until the next price change, at most 300>' },
  paths: () => ['/api/x402'],
  read: (ctx) => {
    const products = productsOf(ctx);
    const current = ctx.state.current();
    const live = ctx.state.signingLive();
    const key = live.boardKey;
    const now = ctx.now();
    const body = buildCatalogue({
      baseUrl: ctx.baseUrl,
      rail: products.rail,
      now,
      release: { id: current.release.id, as_of: current.release.descriptor.as_of },
      signer: {
        did: live.did,
        kid: key.healthy ? key.signer.kid : key.kid,
        key_present: key.healthy,
        unsigned_reason: key.healthy ? null : key.reason,
      },
      examples: examplesOf(current),
      invoicesAvailable: products.ledger !== undefined,
    });
    return built(body, `public, max-age=${catalogueMaxAge(now, products.rail.promo)}`);
  },
};

/** A product path's unpaid answer as status and body (what a GET without payment would answer). */
function localGet(ctx: ServiceContext, products: ProductsContext) {
  return async (path: string): Promise<{ status: number; body: string }> => {
    const product = PRODUCTS.find((p) => path === p.path || path.startsWith(`${p.path}?`));
    if (!product) return { status: 404, body: JSON.stringify({ error: `no product at ${path}`, code: 'not_found' }) };
    try {
      const a = unpaidAnswer(ctx, products, product.key, path);
      return a.kind === 'preview'
        ? { status: 200, body: JSON.stringify(a.body) }
        : { status: 402, body: a.challenge.json };
    } catch (err) {
      const f = failureOf(err);
      return { status: f.status, body: JSON.stringify(f.body) };
    }
  };
}

/** One observation per served release, reused for at most QUOTES_TTL_SECONDS; concurrent readers share the observation in flight. */
function quotesDoc(): DocumentEntry<ReturnType<typeof quoteManifest>> {
  const observed = new WeakMap<PreparedRelease, { at: number; doc: Promise<ReturnType<typeof quoteManifest>> }>();
  return {
    id: 'x402-quotes',
    route: QUOTES_PATH,
    query: [],
    schema: 'svc.x402-quotes/0.1',
    cache: {
      kind: 'request',
      cacheControl: `public, max-age=<seconds left of the observation's ${QUOTES_TTL_SECONDS}>`,
    },
    paths: () => [QUOTES_PATH],
    read: async (ctx) => {
      const products = productsOf(ctx);
      const current = ctx.state.current();
      const now = ctx.now().getTime();
      let entry = observed.get(current);
      // A clock that stepped back also re-observes: the offers' issue time must not be in the future.
      if (!entry || now < entry.at || now - entry.at >= QUOTES_TTL_SECONDS * 1000) {
        const at = now;
        // Only paths built from the release's own examples are observed, never one from the request.
        const doc = observeQuotes(examplesOf(current), ctx.baseUrl, localGet(ctx, products)).then((quotes) =>
          quoteManifest(new Date(at), quotes),
        );
        const fresh = { at, doc };
        entry = fresh;
        observed.set(current, fresh);
        doc.catch(() => {
          if (observed.get(current) === fresh) observed.delete(current);
        });
      }
      const body = await entry.doc;
      const maxAge = Math.max(0, QUOTES_TTL_SECONDS - Math.floor((now - entry.at) / 1000));
      return built(body, `public, max-age=${maxAge}`);
    },
  };
}

/** Concurrent reads share one ledger scan: the endpoint is public and unauthenticated. */
function revenueDoc(): DocumentEntry<ReturnType<typeof revenueDocument>> {
  let inflight: Promise<Record<string, unknown>> | undefined;
  return {
    id: 'revenue',
    route: '/api/revenue',
    query: [],
    schema: 'svc.revenue/0.1',
    cache: { kind: 'request', cacheControl: 'public, max-age=30' },
    paths: () => ['/api/revenue'],
    read: async (ctx, req) => {
      const products = productsOf(ctx);
      if (!inflight) {
        inflight = readRevenue(ctx, products, req.log);
        inflight
          .finally(() => {
            inflight = undefined;
          })
          .catch(() => undefined);
      }
      return built(await inflight, 'public, max-age=30');
    },
  };
}

async function readRevenue(
  ctx: ServiceContext,
  products: ProductsContext,
  log: ReadLog,
): Promise<Record<string, unknown>> {
  const now = ctx.now();
  const { ledger, rail } = products;
  if (!ledger)
    return unreadRevenue(
      now,
      null,
      rail.selfPayers,
      'no ledger is configured (GSPC_LEDGER_PATH or GSPC_DATABASE_URL), so no settlement has been recorded by this service',
    );
  const about = { backend: ledger.backend, schema_version: ledger.schemaVersion };
  try {
    // Artefact bytes are never published, so they are not even read.
    const [records, invoices] = await Promise.all([
      ledger.list({ withArtefacts: false }),
      ledger.listInvoices({ withArtefacts: false }),
    ]);
    // The exact settle time is the SETTLED event of each listed payment's history (updated_at
    // also moves when reconcile attaches an artefact later).
    const listed = listedSettlements(records);
    const histories = await Promise.all(listed.map((r) => ledger.history(r)));
    const settledAt = new Map<string, string>();
    listed.forEach((r, i) => {
      const ev = histories[i]!.filter((h) => h.to === 'SETTLED' && h.from !== 'SETTLED').at(-1);
      if (ev) settledAt.set(paymentId(r), ev.at);
    });
    return revenueDocument({ now, ledger: about, records, invoices, selfPayers: rail.selfPayers, settledAt });
  } catch (err) {
    log.error({ err }, 'revenue: the ledger could not be read');
    // The driver's message may name hosts or paths: publish the code only, log the rest.
    const code = err instanceof GspcError ? err.code : 'internal';
    return unreadRevenue(
      now,
      about,
      rail.selfPayers,
      `the ledger could not be read (${code}); the operator's log has the detail`,
    );
  }
}

/** The three entries, each with its own per-registry state. */
export function catalogueDocuments(): DocumentEntry[] {
  return [catalogueDoc, quotesDoc(), revenueDoc()];
}
