/**
 * The body of /pricing from the catalogue (`GET /api/x402`): every amount, window, state and
 * sentence on it is a catalogue field, read at request time; the page adds only headings, the
 * decimal form of each atomic amount (atomic / 10^decimals) and the site's principles.
 */
import { html, type SafeHtml } from './html.js';
import {
  decimalOf,
  windowPhase,
  type Catalogue,
  type CatalogueProduct,
  type CataloguePromo,
} from './pricing-catalogue.js';

/** A catalogue URL as a same-origin link (its path), or as code when it is a template or prose. */
function ref(u: string, base: string): SafeHtml {
  const local = u.startsWith(`${base}/`) ? u.slice(base.length) : u;
  if (!local.startsWith('/')) return /^https?:\/\//.test(local) ? html`<code>${local}</code>` : html`${local}`;
  return local.includes('<') ? html`<code>${local}</code>` : html`<a href="${local}"><code>${local}</code></a>`;
}

const yesNo = (b: boolean) => (b ? 'yes' : 'no');
/** A catalogue sentence ending in one full stop. */
const sentence = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}${/[.!?]$/.test(s) ? '' : '.'}`;
const anchor = (p: CatalogueProduct) => `product-${p.product_id.replace(/[^a-z0-9]+/gi, '-')}`;

/** One amount: the decimal and the atomic integer, each in its own element the tests read. */
function amount(atomic: string, c: Catalogue, col: string, label: string, extra: SafeHtml | string = ''): SafeHtml {
  return html`<td class="num" data-label="${label}" data-col="${col}"><span class="usdc">${decimalOf(atomic, c.rail.decimals)}</span> ${c.rail.symbol}<br><span class="atomic-line"><span class="atomic">${atomic}</span> atomic</span>${extra}</td>`;
}

function promoState(p: CataloguePromo, asOf: string): SafeHtml {
  if (p.active) return html`<span class="promo-active" data-col="promo-active">active now</span>`;
  const phase = windowPhase(asOf, p);
  return html`<span class="promo-inactive" data-col="promo-active">not active (${phase === 'before' ? 'not started yet' : 'ended'})</span>`;
}

/** An identifier that may wrap after `.`, `_`, `/` or `-` (never inside a word) on a narrow screen. */
function breakable(id: string): SafeHtml {
  return html`${id.split(/(?<=[._/-])/).map((part, i) => html`${i > 0 ? html`<wbr>` : ''}${part}`)}`;
}

/**
 * One row per product: a table on a wide screen, a card per product below 48rem (site.css
 * `table.cards`: each cell led by its column's name, `data-label`), so nothing scrolls sideways.
 */
function priceTable(c: Catalogue, base: string): SafeHtml {
  return html`<div class="table-wrap"><table class="prices cards">
<caption>Prices in ${c.rail.symbol} (${String(c.rail.decimals)} decimals: 1 ${c.rail.symbol} = 10<sup>${String(c.rail.decimals)}</sup> atomic units), as of <time datetime="${c.as_of}">${c.as_of}</time></caption>
<thead><tr><th scope="col">Product</th><th scope="col" class="num">Price now</th><th scope="col" class="num">Normal price</th><th scope="col" class="num">Promo price</th><th scope="col">Promo window</th></tr></thead>
<tbody>
${c.products.map((p) => {
  const promo = p.pricing.promo;
  const local = p.url.startsWith(`${base}/`) ? p.url.slice(base.length) : p.path;
  return html`<tr data-product="${p.product_id}">
<th scope="row"><a href="#${anchor(p)}"><code>${breakable(p.product_id)}</code></a><br><a href="${local}"><code>${breakable(local)}</code></a><br><span class="per">per ${p.per}</span></th>
${amount(p.pricing.offered_amount_atomic, c, 'offered', 'Price now', html`<br><span class="basis" data-col="basis">${breakable(p.pricing.pricing_basis)}</span>`)}
${amount(p.pricing.normal_amount_atomic, c, 'normal', 'Normal price')}
${promo ? amount(promo.amount_atomic, c, 'promo', 'Promo price') : html`<td data-label="Promo price" data-col="promo">none: always the normal price</td>`}
<td class="window" data-label="Promo window">${promo ? html`<code data-col="campaign">${promo.campaign_id}</code><br>from <time data-col="starts_at" datetime="${promo.starts_at}">${promo.starts_at}</time><br>to <time data-col="ends_at" datetime="${promo.ends_at}">${promo.ends_at}</time><br>${promoState(promo, c.as_of)}` : '—'}</td>
</tr>`;
})}
</tbody></table></div>`;
}

function promoSection(c: Catalogue): SafeHtml {
  const windows = new Map<string, { promo: CataloguePromo; products: string[] }>();
  for (const p of c.products) {
    const w = p.pricing.promo;
    if (!w) continue;
    const key = `${w.campaign_id} ${w.starts_at} ${w.ends_at}`;
    const entry = windows.get(key) ?? { promo: w, products: [] };
    entry.products.push(p.product_id);
    windows.set(key, entry);
  }
  if (windows.size === 0)
    return html`<p>No promo window is configured: every product is offered at its normal price.</p>`;
  return html`${[...windows.values()].map(({ promo, products }) => html`<p class="promo-window">Campaign <code>${promo.campaign_id}</code> runs from <time datetime="${promo.starts_at}">${promo.starts_at}</time> (inclusive) to <time datetime="${promo.ends_at}">${promo.ends_at}</time> (exclusive) for ${products.map((id, i) => html`${i > 0 ? ', ' : ''}<code>${id}</code>`)}: it is ${promoState(promo, c.as_of)} at <time datetime="${c.as_of}">${c.as_of}</time>. Inside it the price is the promo price and the basis <code>PROMO_EXISTING_DATA</code>; outside it, the normal price (<code>STANDARD</code>).</p>`)}`;
}

function queryTable(p: CatalogueProduct): SafeHtml {
  const props = Object.entries(p.query.properties ?? {});
  if (props.length === 0) return html`<p>No query parameters.</p>`;
  const required = new Set(p.query.required ?? []);
  return html`<div class="table-wrap"><table class="query">
<caption>Query of <code>${p.method} ${p.path}</code></caption>
<thead><tr><th scope="col">parameter</th><th scope="col">required</th><th scope="col">what it is</th></tr></thead>
<tbody>${props.map(([name, s]) => html`<tr><th scope="row"><code>${name}</code></th><td>${yesNo(required.has(name))}</td><td>${s.description ?? ''}${s.const !== undefined ? html` (the constant <code>${s.const}</code>)` : ''}</td></tr>`)}</tbody>
</table></div>`;
}

function productSection(p: CatalogueProduct, c: Catalogue, base: string): SafeHtml {
  return html`<section class="product" id="${anchor(p)}" aria-labelledby="${anchor(p)}-h">
<h3 id="${anchor(p)}-h"><code>${p.product_id}</code></h3>
<p>${p.description}</p>
<dl class="facts">
<dt>What it delivers</dt><dd data-field="deliverable">${p.deliverable}</dd>
<dt>What it never is</dt><dd data-field="never">${p.never.join(', ')}. Payment never creates a MEASURED board cell: the board is the same whether or not anyone pays.</dd>
<dt>Request</dt><dd><code>${p.method}</code> ${ref(p.url, base)}, billed per ${p.per}; artefact schema <code>${p.schema}</code></dd>
<dt>Price</dt><dd>${decimalOf(p.pricing.offered_amount_atomic, c.rail.decimals)} ${c.rail.symbol} now (${p.pricing.pricing_basis}); normal ${decimalOf(p.pricing.normal_amount_atomic, c.rail.decimals)} ${c.rail.symbol}${p.pricing.promo ? html`; promo ${decimalOf(p.pricing.promo.amount_atomic, c.rail.decimals)} ${c.rail.symbol} inside <code>${p.pricing.promo.campaign_id}</code>` : ''}. ${p.pricing.fresh_compute_excluded ? 'No fresh measurement run is included: the artefact is assembled from what is already signed.' : ''}</dd>
<dt>Without payment</dt><dd>${p.without_payment}</dd>
<dt>Free preview</dt><dd>${ref(p.free_preview, base)}</dd>
<dt>Free routes to the same content</dt><dd><ul>${p.free_equivalents.map((u) => html`<li>${ref(u, base)}</li>`)}</ul></dd>
<dt>Example request${p.example_requests.length > 1 ? 's' : ''}</dt><dd>${p.example_requests.length > 0 ? html`<ul>${p.example_requests.map((u) => html`<li>${ref(u, base)}</li>`)}</ul>` : html`none from this release: ${p.example_skipped ?? 'no example'}`}</dd>
</dl>
${queryTable(p)}
</section>`;
}

function freeSection(c: Catalogue, base: string): SafeHtml {
  const free = [...new Set(c.products.flatMap((p) => p.free_equivalents))];
  const door = c.products.find(
    (p) => p.pricing.normal_amount_atomic === '0' && p.pricing.offered_amount_atomic === '0',
  );
  return html`<ul class="free">
<li>The in-browser verifier: <a href="/gspc-verify">/gspc-verify</a> checks signed cards, offers and receipts with no account and no fee.</li>
<li>Cards: <code>${c.verify.cards.method}</code> ${ref(c.verify.cards.url, base)} (body: ${c.verify.cards.body}).</li>
<li>Offers and receipts: <code>${c.verify.offers_and_receipts.method}</code> ${ref(c.verify.offers_and_receipts.url, base)} (body: ${c.verify.offers_and_receipts.body}).</li>
<li>Offline: ${c.verify.offline}; the keys are in the DID document ${ref(c.signer.did_document, base)}. ${sentence(c.verify.note)}</li>
${door ? html`<li>The free door ${ref(door.url, base)}: ${sentence(door.deliverable)}</li>` : ''}
<li>Free documents: ${free.map((u, i) => html`${i > 0 ? ', ' : ''}${ref(u, base)}`)}.</li>
<li>What was actually quoted and paid: the quote manifest ${ref(c.quotes, base)} and the revenue ledger ${ref(c.revenue, base)}.</li>
</ul>`;
}

function railSection(c: Catalogue): SafeHtml {
  const r = c.rail;
  const s = c.signer;
  const row = (k: string, v: SafeHtml | string, field = k) =>
    html`<tr><th scope="row">${k}</th><td data-rail="${field}">${v}</td></tr>`;
  return html`<p class="callout">${sentence(r.note)}</p>
<div class="table-wrap"><table class="rail">
<caption>Payment rail (<code>rail</code> and <code>signer</code> of /api/x402)</caption>
<thead><tr><th scope="col">field</th><th scope="col">value</th></tr></thead>
<tbody>
${row('protocol', html`x402 v${String(c.x402Version)}, scheme <code>${r.scheme}</code>, mode <code>${r.mode}</code>`, 'scheme')}
${row('network', html`<code>${r.network}</code>`, 'network')}
${row('asset', html`${r.asset_name} (${r.symbol}, ${String(r.decimals)} decimals) <code>${r.asset}</code>`, 'asset')}
${row('payee (pay_to)', r.pay_to !== null ? html`<code>${r.pay_to}</code>` : 'not configured', 'pay_to')}
${row('pay_to_configured', yesNo(r.pay_to_configured))}
${row('facilitator_configured', yesNo(r.facilitator_configured))}
${row('max_timeout_seconds', String(r.max_timeout_seconds))}
${row('payment headers', r.payment_headers.join('; '), 'payment_headers')}
${row('signer', html`<code>${s.kid}</code>`, 'kid')}
${row('signing key present', yesNo(s.key_present) + (s.unsigned_reason !== null ? ` (${s.unsigned_reason})` : ''), 'key_present')}
${row('offers signed', yesNo(s.offers_signed), 'offers_signed')}
</tbody></table></div>`;
}

function invoiceSection(c: Catalogue, base: string): SafeHtml {
  const withInvoice = c.products.filter((p) => p.invoice !== undefined);
  if (withInvoice.length === 0) return html`<p>The catalogue offers no invoice path.</p>`;
  return html`${withInvoice.map(
    (p) => html`<p>For <a href="#${anchor(p)}"><code>${p.product_id}</code></a>: ${sentence(p.invoice!.note)}</p>
<dl class="facts">
<dt>Request</dt><dd>${ref(p.invoice!.how, base)}</dd>
<dt>Collect</dt><dd>${ref(p.invoice!.collect, base)}</dd>
<dt>Available on this server now</dt><dd data-field="invoice-available">${p.invoice!.available ? 'yes' : 'no: this server has no ledger to record an invoice, so none can be issued'}</dd>
</dl>`,
  )}`;
}

export function pricingBody(c: Catalogue, base: string): SafeHtml {
  return html`<div class="page-pricing">
<h1>Pricing</h1>
<p class="callout">Measurement, not certification. Payment buys delivery of an artefact that already exists; it never creates a MEASURED board cell, and no product is ever a ${c.never.join(', ')}. Verification is always free.</p>
<p>Everything below is read from the product catalogue <a href="/api/x402">/api/x402</a> when this page was requested (catalogue as of <time datetime="${c.as_of}">${c.as_of}</time>, release <code>${c.release.id}</code>).</p>
<nav aria-label="On this page"><ul class="inline">
<li><a href="#prices">Prices</a></li><li><a href="#promo">Promo window</a></li><li><a href="#products">Products</a></li><li><a href="#free">What stays free</a></li><li><a href="#rail">Paying</a></li><li><a href="#invoice">Invoices</a></li></ul></nav>
<h2 id="prices">Prices</h2>
${priceTable(c, base)}
<h2 id="promo">Promo window</h2>
${promoSection(c)}
<h2 id="products">Products</h2>
${c.products.map((p) => productSection(p, c, base))}
<h2 id="free">What stays free</h2>
${freeSection(c, base)}
<h2 id="rail">Paying: network, asset and payee</h2>
${railSection(c)}
<h2 id="invoice">Invoices</h2>
${invoiceSection(c, base)}
</div>`;
}
