/**
 * The documents around the metered products: the catalogue (`GET /api/x402`), the measured
 * quote manifest (`GET /.well-known/x402.json`) and the revenue ledger read (`GET /api/revenue`).
 * The documents are built in src/payments/; this file only reads the served release, the app
 * itself (quotes are observed through `app.inject`, never an outbound request) and the ledger.
 */
import type { FastifyInstance } from 'fastify';
import { GspcError } from '../core/errors.js';
import { buildCatalogue, catalogueMaxAge, exampleRequests, type ExampleRequest } from '../payments/catalogue.js';
import { observeQuotes, quoteManifest, QUOTES_PATH, QUOTES_TTL_SECONDS } from '../payments/quote-manifest.js';
import { listedSettlements, paymentId, revenueDocument, unreadRevenue } from '../payments/revenue.js';
import type { Ledger } from '../store/ledger.js';
import { BASE_HEADERS } from './errors.js';
import type { PreparedRelease } from './prepared.js';
import { releaseView, type ProductRouteOptions } from './product-routes.js';
import { readQuery } from './query.js';
import type { ServedState } from './served-state.js';

// The example requests depend only on the release (its active signed cards and obligations).
const examplesByRelease = new WeakMap<PreparedRelease, ExampleRequest[]>();
function examplesOf(p: PreparedRelease): ExampleRequest[] {
  let e = examplesByRelease.get(p);
  if (!e) {
    e = exampleRequests(releaseView(p).preview.active, p.release.corpus.obligations.map((o) => o.id));
    examplesByRelease.set(p, e);
  }
  return e;
}

export function registerCatalogueRoutes(app: FastifyInstance, state: ServedState, opts: ProductRouteOptions): void {
  app.get('/api/x402', (req, reply) => {
    readQuery(req.url, []);
    const current = state.current();
    const live = state.signingLive();
    const key = live.boardKey;
    const now = opts.now();
    const body = buildCatalogue({
      baseUrl: opts.baseUrl, rail: opts.rail, now,
      release: { id: current.release.id, as_of: current.release.descriptor.as_of },
      signer: { did: live.did, kid: key.healthy ? key.signer.kid : key.kid, key_present: key.healthy, unsigned_reason: key.healthy ? null : key.reason },
      examples: examplesOf(current),
      invoicesAvailable: opts.ledger !== undefined,
    });
    reply.headers({ ...BASE_HEADERS, 'cache-control': `public, max-age=${catalogueMaxAge(now, opts.rail.promo)}` }).send(body);
  });

  // One observation per served release, reused for at most QUOTES_TTL_SECONDS; concurrent
  // requests share the observation in flight. Per registration, so two apps never share one.
  const observed = new WeakMap<PreparedRelease, { at: number; doc: Promise<Record<string, unknown>> }>();
  app.get(QUOTES_PATH, async (req, reply) => {
    readQuery(req.url, []);
    const current = state.current();
    const now = opts.now().getTime();
    let entry = observed.get(current);
    // A clock that stepped back also re-observes: the offers' issue time must not be in the future.
    if (!entry || now < entry.at || now - entry.at >= QUOTES_TTL_SECONDS * 1000) {
      const at = now;
      const doc = observeQuotes(examplesOf(current), opts.baseUrl, async (path) => {
        // Only paths built from the release's own examples reach here, never one from the request.
        const r = await app.inject({ method: 'GET', url: path });
        return { status: r.statusCode, body: r.body };
      }).then((quotes) => quoteManifest(new Date(at), quotes));
      const fresh = { at, doc };
      entry = fresh;
      observed.set(current, fresh);
      doc.catch(() => { if (observed.get(current) === fresh) observed.delete(current); });
    }
    const body = await entry.doc;
    const maxAge = Math.max(0, QUOTES_TTL_SECONDS - Math.floor((now - entry.at) / 1000));
    reply.headers({ ...BASE_HEADERS, 'cache-control': `public, max-age=${maxAge}` }).send(body);
  });

  // Concurrent reads share one ledger scan: the endpoint is public and unauthenticated.
  let inflight: Promise<Record<string, unknown>> | undefined;
  app.get('/api/revenue', async (req, reply) => {
    readQuery(req.url, []);
    if (!inflight) {
      inflight = readRevenue(opts, (err) => req.log.error({ err }, 'revenue: the ledger could not be read'));
      inflight.finally(() => { inflight = undefined; }).catch(() => undefined);
    }
    const body = await inflight;
    reply.headers({ ...BASE_HEADERS, 'cache-control': 'public, max-age=30' }).send(body);
  });
}

async function readRevenue(opts: ProductRouteOptions, logError: (err: unknown) => void): Promise<Record<string, unknown>> {
  const now = opts.now();
  const ledger: Ledger | undefined = opts.ledger;
  if (!ledger) return unreadRevenue(now, null, opts.rail.selfPayers, 'no ledger is configured (GSPC_LEDGER_PATH or GSPC_DATABASE_URL), so no settlement has been recorded by this service');
  const about = { backend: ledger.backend, schema_version: ledger.schemaVersion };
  try {
    // Artefact bytes are never published, so they are not even read.
    const [records, invoices] = await Promise.all([ledger.list({ withArtefacts: false }), ledger.listInvoices({ withArtefacts: false })]);
    // The exact settle time is the SETTLED event of each listed payment's history (updated_at
    // also moves when reconcile attaches an artefact later).
    const listed = listedSettlements(records);
    const histories = await Promise.all(listed.map((r) => ledger.history(r)));
    const settledAt = new Map<string, string>();
    listed.forEach((r, i) => {
      const ev = histories[i]!.filter((h) => h.to === 'SETTLED' && h.from !== 'SETTLED').at(-1);
      if (ev) settledAt.set(paymentId(r), ev.at);
    });
    return revenueDocument({ now, ledger: about, records, invoices, selfPayers: opts.rail.selfPayers, settledAt });
  } catch (err) {
    logError(err);
    // The driver's message may name hosts or paths: publish the code only, log the rest.
    const code = err instanceof GspcError ? err.code : 'internal';
    return unreadRevenue(now, about, opts.rail.selfPayers, `the ledger could not be read (${code}); the operator's log has the detail`);
  }
}
