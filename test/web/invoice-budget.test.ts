/**
 * The invoice budget (issue 38, finding 5): each invoice request stores its artefact in the
 * ledger (tens of KB), through a plain GET. Issue 37 gave invoices a class of 10 a minute, which
 * is still 14,400 invoices a day from one address; the issue asks for at most 60 an hour by
 * default, and that another site cannot make its visitors' browsers send them.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import { openLedger } from '../../src/store/open-ledger.js';
import type { Ledger } from '../../src/store/ledger.js';
import { demoApp } from '../helpers/app.js';
import { tempDir } from '../helpers/tmp.js';

const INVOICE = '/api/evidence-bundle?obligation=dora&bundle=1&invoice=gbp&commissioned_by=Buyer%20';

describe('the invoice budget (issue 38)', () => {
  let app: FastifyInstance;
  let ledger: Ledger;
  before(async () => {
    const { state } = demoApp();
    ledger = await openLedger({ sqlitePath: join(tempDir(), 'ledger.sqlite') });
    const rateLimits = { ...readConfig({}).rateLimits, invoice_hour: 3 };
    app = buildApp({ state, logLevel: 'silent', ledger, products: { rail: readConfig({}).rail }, rateLimits });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await ledger.close();
  });

  it('is at most 60 an hour per client by default (GSPC_RATE_LIMITS invoice_hour=)', () => {
    assert.equal(readConfig({}).rateLimits.invoice_hour, 60);
    assert.equal(readConfig({ GSPC_RATE_LIMITS: 'invoice_hour=5' }).rateLimits.invoice_hour, 5);
  });

  it('the request over the hourly budget is 429 in the invoice class, with Retry-After in the hour', async () => {
    const statuses: number[] = [];
    let last: { headers: Record<string, unknown>; body: string } | undefined;
    for (let i = 0; i < 5; i++) {
      const r = await app.inject({ url: `${INVOICE}${i}`, remoteAddress: '10.1.0.1' });
      statuses.push(r.statusCode);
      last = r;
    }
    assert.deepEqual(
      statuses.map((s) => s === 429),
      [false, false, false, true, true],
      statuses.join(' '),
    );
    const body = JSON.parse(last!.body) as { code: string; class: string; limit: number; retry_after_seconds: number };
    assert.equal(body.code, 'rate_limited');
    assert.equal(body.class, 'invoice');
    assert.equal(body.limit, 3);
    assert.ok(body.retry_after_seconds > 60 && body.retry_after_seconds <= 3600, String(body.retry_after_seconds));
    assert.equal(Number(last!.headers['retry-after']), body.retry_after_seconds);
  });

  it('a browser sent by another site cannot ask for an invoice (Sec-Fetch-Site cross-site or same-site): 403, nothing stored', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const r = await app.inject({
        url: `${INVOICE}cross-${site}`,
        remoteAddress: '10.1.0.2',
        headers: { 'sec-fetch-site': site, 'sec-fetch-mode': 'no-cors' },
      });
      assert.equal(r.statusCode, 403, `${site}: ${r.body}`);
      assert.equal((JSON.parse(r.body) as { code: string }).code, 'forbidden_origin');
    }
    // The buyer's own tools (curl, scripts) send no Sec-Fetch-Site; a page of the service itself is same-origin.
    for (const headers of [{}, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }]) {
      const r = await app.inject({
        url: `${INVOICE}own-${JSON.stringify(headers)}`,
        remoteAddress: '10.1.0.3',
        headers,
      });
      assert.notEqual(r.statusCode, 403, JSON.stringify(headers));
      assert.ok(r.statusCode < 500, `${r.statusCode} ${r.body}`);
    }
  });
});
