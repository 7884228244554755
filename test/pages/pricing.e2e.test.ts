/**
 * /pricing (issue 7): the product catalogue (/api/x402) rendered for people. Every amount on the
 * page is compared with the catalogue's JSON, product by product: the decimal and the atomic
 * integer of the price now, the normal and the promo price, and the promo window with its state.
 * A headless Chromium reads the page at desktop and phone width; plain HTTP shows the same values
 * with no JavaScript; a server without products says so (200).
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { buildApp } from '../../src/app.js';
import { installErrorHandling } from '../../src/web/errors.js';
import { readRailConfig } from '../../src/config.js';
import { formatUsdc } from '../../src/core/pricing/price.js';
import { NEVER } from '../../src/core/pricing/products.js';
import type { PageContext } from '../../src/pages/page-context.js';
import { registerPricingPage } from '../../src/pages/pricing-page.js';
import { decimalOf, type Catalogue } from '../../src/pages/pricing-catalogue.js';
import { demoApp } from '../helpers/app.js';
import { browserMissing, DESKTOP, openPage, PHONE, screenshot } from '../helpers/browser.js';

const BASE = 'http://localhost:8080';
const IN_PROMO = '2026-09-20T12:00:00Z';
const { state, app: bare } = demoApp();

function appAt(now: string, env: Record<string, string> = {}) {
  const app = buildApp({
    state,
    logLevel: 'silent',
    baseUrl: BASE,
    now: () => new Date(now),
    products: { rail: readRailConfig(env) },
  });
  after(() => app.close());
  return app;
}

/** atomic / 10^6 by plain arithmetic: an independent check of the page's decimals (exact below 2^53). */
const byDivision = (atomic: string) => (Number(atomic) / 1e6).toFixed(6);

describe('/pricing in headless Chromium', { skip: browserMissing() }, () => {
  const app = appAt(IN_PROMO);
  let origin = '';
  let catalogue: Catalogue;
  before(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    catalogue = (await (await fetch(`${origin}/api/x402`)).json()) as Catalogue;
  });

  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`shows every amount and window of /api/x402, at ${name} width`, async () => {
      const { page, errors, offOrigin } = await openPage(viewport);
      const res = await page.goto(`${origin}/pricing`, { waitUntil: 'load' });
      assert.equal(res?.status(), 200);
      assert.equal(await page.locator('h1').count(), 1);

      // The price table: one row per product, in the catalogue's order, each cell equal to the JSON.
      // Read flat (a named helper inside the evaluated function would not survive the test's transpiler).
      const products = await page.$$eval('table.prices tbody tr', (trs) =>
        trs.map((tr) => tr.getAttribute('data-product')),
      );
      const cells = await page.$$eval('table.prices tbody [data-col]', (els) =>
        els.map((e) => ({
          product: e.closest('tr')!.getAttribute('data-product')!,
          col: e.getAttribute('data-col')!,
          text: e.textContent,
          usdc: e.querySelector('.usdc')?.textContent ?? null,
          atomic: e.querySelector('.atomic')?.textContent ?? null,
          datetime: e.getAttribute('datetime'),
        })),
      );
      const cell = (product: string, col: string) => cells.find((c) => c.product === product && c.col === col);
      const money = (product: string, col: string) => ({
        usdc: cell(product, col)?.usdc ?? null,
        atomic: cell(product, col)?.atomic ?? null,
        text: cell(product, col)?.text ?? null,
      });
      const rows = products.map((id) => ({
        product: id,
        offered: money(id!, 'offered'),
        normal: money(id!, 'normal'),
        promo: money(id!, 'promo'),
        basis: cell(id!, 'basis')?.text ?? null,
        campaign: cell(id!, 'campaign')?.text ?? null,
        starts: { attr: cell(id!, 'starts_at')?.datetime ?? null, text: cell(id!, 'starts_at')?.text ?? null },
        ends: { attr: cell(id!, 'ends_at')?.datetime ?? null, text: cell(id!, 'ends_at')?.text ?? null },
        active: cell(id!, 'promo-active')?.text ?? null,
      }));
      assert.deepEqual(
        rows.map((r) => r.product),
        catalogue.products.map((p) => p.product_id),
      );
      let promos = 0;
      for (const [i, p] of catalogue.products.entries()) {
        const row = rows[i]!;
        const at = p.product_id;
        assert.equal(row.offered.atomic, p.pricing.offered_amount_atomic, at);
        assert.equal(`${row.offered.usdc} USDC`, p.pricing.offered, at);
        assert.equal(row.offered.usdc, byDivision(p.pricing.offered_amount_atomic), at);
        assert.equal(row.normal.atomic, p.pricing.normal_amount_atomic, at);
        assert.equal(`${row.normal.usdc} USDC`, p.pricing.normal, at);
        assert.equal(row.normal.usdc, byDivision(p.pricing.normal_amount_atomic), at);
        assert.equal(row.basis, p.pricing.pricing_basis, at);
        const promo = p.pricing.promo;
        if (promo === null) {
          assert.equal(row.promo.atomic, null, at);
          assert.match(row.promo.text ?? '', /none/, at);
          continue;
        }
        promos++;
        assert.equal(row.promo.atomic, promo.amount_atomic, at);
        assert.equal(`${row.promo.usdc} USDC`, promo.amount, at);
        assert.equal(row.promo.usdc, byDivision(promo.amount_atomic), at);
        assert.equal(row.campaign, promo.campaign_id, at);
        assert.deepEqual(row.starts, { attr: promo.starts_at, text: promo.starts_at }, at);
        assert.deepEqual(row.ends, { attr: promo.ends_at, text: promo.ends_at }, at);
        assert.equal(promo.active, true, 'the app runs inside the window');
        assert.equal(row.active, 'active now', at);
      }
      assert.equal(promos, 3, 'the three paid products have a promo window');

      // What each product is never, and that payment never makes a MEASURED cell.
      const nevers = await page.$$eval('section.product [data-field="never"]', (dd) => dd.map((e) => e.textContent!));
      assert.equal(nevers.length, catalogue.products.length);
      for (const [i, text] of nevers.entries()) {
        for (const n of catalogue.products[i]!.never) assert.ok(text.includes(n), n);
        assert.match(text, /never creates a MEASURED board cell/);
      }
      // The rail's state, what stays free, and the invoice path.
      assert.equal(await page.textContent('[data-rail="network"]'), catalogue.rail.network);
      assert.equal(await page.textContent('[data-rail="pay_to"]'), catalogue.rail.pay_to ?? 'not configured');
      assert.equal(
        await page.textContent('[data-rail="pay_to_configured"]'),
        catalogue.rail.pay_to_configured ? 'yes' : 'no',
      );
      assert.equal(
        await page.textContent('[data-rail="facilitator_configured"]'),
        catalogue.rail.facilitator_configured ? 'yes' : 'no',
      );
      const free = await page.$$eval('#free ~ ul.free a', (a) => a.map((e) => e.getAttribute('href')));
      for (const path of [
        '/gspc-verify',
        '/api/verify',
        '/api/receipts/verify',
        '/api/gspc',
        '/root.json',
        '/api/free-door',
      ])
        assert.ok(free.includes(path), path);
      const invoice = catalogue.products.find((p) => p.invoice)!.invoice!;
      assert.ok((await page.textContent('#invoice ~ dl.facts'))!.includes(invoice.how.slice(BASE.length)));
      assert.match(invoice.how, /invoice=gbp&commissioned_by=/);
      // Links stay on this origin (the catalogue's absolute URLs name the public base URL).
      assert.equal(await page.locator('main a[href^="http"]').count(), 0);
      assert.equal(await page.$$eval('table', (t) => t.filter((e) => !e.querySelector('caption')).length), 0);
      assert.equal(await page.$$eval('th', (t) => t.filter((e) => !e.hasAttribute('scope')).length), 0);

      const widths = await page.evaluate<{ scroll: number; viewport: number }>(
        '({ scroll: document.scrollingElement.scrollWidth, viewport: window.innerWidth })',
      );
      assert.ok(widths.scroll <= widths.viewport, `page scrolls sideways: ${widths.scroll} > ${widths.viewport}`);
      await screenshot(page, `pricing-${name}`);
      assert.deepEqual(errors, []);
      assert.deepEqual(offOrigin, []);
    });
  }
});

/** The price cells of one product row in the served HTML, read with no browser. */
function cellsOf(body: string, productId: string): Record<string, { usdc: string; atomic: string } | string> {
  const row = new RegExp(`<tr data-product="${productId.replace(/\./g, '\\.')}">([\\s\\S]*?)</tr>`).exec(body);
  assert.ok(row, productId);
  const out: Record<string, { usdc: string; atomic: string } | string> = {};
  for (const m of row[1]!.matchAll(
    /data-col="(offered|normal|promo)"><span class="usdc">([\d.]+)<\/span> USDC<br><span class="atomic-line"><span class="atomic">(\d+)<\/span>/g,
  ))
    out[m[1]!] = { usdc: m[2]!, atomic: m[3]! };
  for (const m of row[1]!.matchAll(
    /data-col="(basis|promo-active|campaign|starts_at|ends_at)"[^>]*>(.*?)<\/(?:span|code|time)>/g,
  ))
    out[m[1]!] = m[2]!.replace(/<wbr>/g, '');
  return out;
}

describe('/pricing over plain HTTP (no JavaScript)', () => {
  const inside = appAt(IN_PROMO);
  const afterWindow = appAt('2026-11-21T00:00:00Z');
  const beforeWindow = appAt('2026-09-01T00:00:00Z');
  const noPromo = appAt(IN_PROMO, { GSPC_PROMO: 'none' });
  const payee = '0x1111111111111111111111111111111111111111';
  const withPayee = appAt(IN_PROMO, { GSPC_PAY_TO: payee });
  const read = async (app: ReturnType<typeof appAt>) => {
    const [page, json] = await Promise.all([
      app.inject({ method: 'GET', url: '/pricing' }),
      app.inject({ method: 'GET', url: '/api/x402' }),
    ]);
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    return { body: page.body, catalogue: json.json() as Catalogue };
  };

  it('has every amount, basis and window of the catalogue in the HTML, with no script', async () => {
    const { body, catalogue } = await read(inside);
    assert.doesNotMatch(body, /<script/);
    assert.equal(body.match(/<h1[ >]/g)?.length, 1);
    for (const p of catalogue.products) {
      const cells = cellsOf(body, p.product_id);
      assert.deepEqual(cells.offered, {
        usdc: p.pricing.offered.replace(' USDC', ''),
        atomic: p.pricing.offered_amount_atomic,
      });
      assert.deepEqual(cells.normal, {
        usdc: p.pricing.normal.replace(' USDC', ''),
        atomic: p.pricing.normal_amount_atomic,
      });
      assert.equal(cells.basis, p.pricing.pricing_basis);
      if (p.pricing.promo) {
        assert.deepEqual(cells.promo, {
          usdc: p.pricing.promo.amount.replace(' USDC', ''),
          atomic: p.pricing.promo.amount_atomic,
        });
        assert.equal(cells.campaign, p.pricing.promo.campaign_id);
        assert.equal(cells.starts_at, p.pricing.promo.starts_at);
        assert.equal(cells.ends_at, p.pricing.promo.ends_at);
        assert.equal(cells['promo-active'], 'active now');
      } else {
        assert.equal(cells.promo, undefined);
      }
    }
    assert.ok(body.includes('invoice=gbp&amp;commissioned_by=&lt;legal entity&gt;'));
    for (const n of NEVER) assert.ok(body.includes(n), n);
  });

  it('says the promo has ended, or not started, and charges the normal price outside the window', async () => {
    for (const [app, phase] of [
      [afterWindow, 'ended'],
      [beforeWindow, 'not started yet'],
    ] as const) {
      const { body, catalogue } = await read(app);
      for (const p of catalogue.products.filter((x) => x.pricing.promo !== null)) {
        const cells = cellsOf(body, p.product_id);
        assert.equal(p.pricing.promo!.active, false);
        assert.equal(cells['promo-active'], `not active (${phase})`);
        assert.deepEqual(cells.offered, cells.normal);
        assert.equal(p.pricing.pricing_basis, 'STANDARD');
      }
      assert.ok(!body.includes('active now'));
    }
  });

  it('says when no promo window is configured', async () => {
    const { body, catalogue } = await read(noPromo);
    assert.ok(catalogue.products.every((p) => p.pricing.promo === null));
    assert.match(body, /No promo window is configured/);
    for (const p of catalogue.products) assert.equal(cellsOf(body, p.product_id).promo, undefined);
  });

  it('shows the payee and the rail state as the catalogue states them', async () => {
    const { body, catalogue } = await read(withPayee);
    assert.equal(catalogue.rail.pay_to, payee);
    assert.ok(body.includes(`data-rail="pay_to"><code>${payee}</code>`));
    assert.ok(body.includes('data-rail="pay_to_configured">yes<'));
    assert.ok(body.includes('data-rail="facilitator_configured">no<'));
    const { body: unconfigured } = await read(inside);
    assert.ok(unconfigured.includes('data-rail="pay_to">not configured<'));
    assert.ok(unconfigured.includes('data-rail="pay_to_configured">no<'));
  });

  it('says plainly, with a 200, that a server without products sells nothing', async () => {
    assert.equal((await bare.inject({ method: 'GET', url: '/api/x402' })).statusCode, 404);
    const r = await bare.inject({ method: 'GET', url: '/pricing' });
    assert.equal(r.statusCode, 200);
    assert.ok(r.body.includes('data-state="no-products"'));
    assert.match(r.body, /sells nothing/);
    assert.equal(r.body.match(/<h1[ >]/g)?.length, 1);
    assert.doesNotMatch(r.body, /USDC/);
  });

  it('answers 503 with an explanation, and no price, when the catalogue cannot be read', async () => {
    const ctx = {
      products: {},
      baseUrl: BASE,
      // The registry's reader answers the catalogue's failure as its route would (a 500).
      documents: {
        readPath: async () => ({
          ok: false,
          status: 500,
          value: { error: 'internal error', code: 'internal' },
          source: 'GET /api/x402',
        }),
      },
    } as unknown as PageContext;
    const app = Fastify();
    installErrorHandling(app);
    registerPricingPage(app, ctx);
    after(() => app.close());
    const r = await app.inject({ method: 'GET', url: '/pricing' });
    assert.equal(r.statusCode, 503);
    assert.ok(r.body.includes('data-state="unreadable"'));
    assert.match(r.body, /HTTP 500/);
    assert.doesNotMatch(r.body, /USDC/);
  });

  it('refuses a query it does not read (400 bad_query), like every route of the service', async () => {
    const r = await inside.inject({ method: 'GET', url: '/pricing?promo=1' });
    assert.equal(r.statusCode, 400);
    assert.equal(r.json().code, 'bad_query');
  });
});

describe('decimalOf', () => {
  it('is atomic / 10^decimals, exact, and agrees with the catalogue formatter', () => {
    assert.equal(decimalOf('0', 6), '0.000000');
    assert.equal(decimalOf('10000', 6), '0.010000');
    assert.equal(decimalOf('250000000', 6), '250.000000');
    assert.equal(decimalOf('123456789012345678901234567890', 6), '123456789012345678901234.567890');
    assert.equal(decimalOf('7', 0), '7');
    for (const a of ['1', '999999', '1000000', '1000001', '20000', '18446744073709551615'])
      assert.equal(`${decimalOf(a, 6)} USDC`, formatUsdc(a));
    assert.throws(() => decimalOf('-1', 6), RangeError);
    assert.throws(() => decimalOf('1.5', 6), RangeError);
  });
});
