/**
 * GET /pricing (specification, "Endpoints": pages, "pricing explainer"; issue 7): the product
 * catalogue rendered for people. The catalogue is read at request time through the service's own
 * route's registry entry (`ctx.documents.readPath('/api/x402')`), so the page and the JSON can never disagree; with no
 * metered products the page says so (200) instead of failing.
 */
import type { FastifyInstance } from 'fastify';
import { readQuery } from '../serve/query.js';
import { html, type SafeHtml } from './html.js';
import { page, PAGE_HEADERS } from './layout.js';
import type { PageContext } from './page-context.js';
import type { Catalogue } from './pricing-catalogue.js';
import { pricingBody } from './pricing-view.js';

const TITLE = 'Pricing';
const DESCRIPTION =
  'What each metered product delivers and is never, its normal and promo prices, what stays free, and how to ask for an invoice.';

/** The catalogue, or why there is none: `absent` (no products served) or `unreadable`. */
export type CatalogueRead =
  | { kind: 'ok'; catalogue: Catalogue }
  | { kind: 'absent' }
  | { kind: 'unreadable'; reason: string };

export async function readCatalogue(ctx: PageContext): Promise<CatalogueRead> {
  if (ctx.products === undefined) return { kind: 'absent' };
  let r: Awaited<ReturnType<PageContext['documents']['readPath']>>;
  try {
    r = await ctx.documents.readPath('/api/x402');
  } catch (err) {
    return { kind: 'unreadable', reason: `the catalogue route failed (${(err as Error).name})` };
  }
  if (r.status === 404) return { kind: 'absent' };
  if (!r.ok) return { kind: 'unreadable', reason: `/api/x402 answered HTTP ${r.status}` };
  const catalogue = r.value as unknown as Catalogue;
  if (!Array.isArray(catalogue.products) || typeof catalogue.rail !== 'object')
    return { kind: 'unreadable', reason: '/api/x402 answered a body without products or rail' };
  return { kind: 'ok', catalogue };
}

const alwaysFree = html`<ul class="free">
<li>The board: <a href="/api/gspc"><code>/api/gspc</code></a>, and the signed public root: <a href="/root.json"><code>/root.json</code></a>.</li>
<li>Verification: the in-browser verifier <a href="/gspc-verify">/gspc-verify</a>, <code>POST /api/verify</code> for cards and <code>POST /api/receipts/verify</code> for offers and receipts.</li>
</ul>`;

function absentBody(): SafeHtml {
  return html`<div class="page-pricing">
<h1>Pricing</h1>
<p class="callout" data-state="no-products">This server sells nothing: it was started without the metered products, so it has no product catalogue (<code>/api/x402</code> answers 404) and no price to show.</p>
<p>Measurement, not certification: payment never creates a MEASURED board cell, and nothing on the board is for sale. What every server keeps free:</p>
${alwaysFree}
</div>`;
}

function unreadableBody(reason: string): SafeHtml {
  return html`<div class="page-pricing">
<h1>Pricing</h1>
<p class="callout" data-state="unreadable">The product catalogue could not be read just now (${reason}), so no price is shown rather than a stale or guessed one. Try again, or read <a href="/api/x402"><code>/api/x402</code></a> directly.</p>
<p>Free whatever the catalogue says:</p>
${alwaysFree}
</div>`;
}

export function registerPricingPage(app: FastifyInstance, ctx: PageContext): void {
  app.get('/pricing', async (req, reply) => {
    readQuery(req.url, []);
    const read = await readCatalogue(ctx);
    const base = ctx.baseUrl;
    const body =
      read.kind === 'ok'
        ? pricingBody(read.catalogue, base)
        : read.kind === 'absent'
          ? absentBody()
          : unreadableBody(read.reason);
    if (read.kind === 'unreadable') req.log.error({ reason: read.reason }, 'pricing: the catalogue could not be read');
    reply
      .code(read.kind === 'unreadable' ? 503 : 200)
      .headers(PAGE_HEADERS)
      .send(page({ title: TITLE, path: '/pricing', description: DESCRIPTION, body }));
  });
}
