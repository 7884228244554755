/** The revenue read, GET /api/revenue, over a real SQLite ledger: only non-self, non-zero settlements are demand. */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { readRailConfig } from '../../src/config.js';
import { countedAs, publicResource, revenueDocument } from '../../src/payments/revenue.js';
import { openLedger } from '../../src/store/open-ledger.js';
import type { Ledger, NewReservation, PaymentKey } from '../../src/store/ledger.js';
import { demoApp } from '../helpers/app.js';
import { tempDir } from '../helpers/tmp.js';

const PAY_TO = `0x${'aa'.repeat(20)}`;
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const rail = readRailConfig({ GSPC_PAY_TO: PAY_TO });
const NOW = new Date('2026-09-20T12:00:00Z');
const at = (s: number) => new Date(Date.parse('2026-09-20T10:00:00Z') + s * 1000).toISOString();
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const key = (payer: string): PaymentKey => ({ payer, nonce: `0x${randomBytes(32).toString('hex')}` });
const tx = () => `0x${randomBytes(32).toString('hex')}`;
const bytes = Buffer.from('{"artefact":"SECRET-ARTEFACT-BYTES"}');
const attachment = { artefact: bytes, artefact_sha256: sha(bytes), receipt: null };

function reservation(k: PaymentKey, over: Partial<NewReservation> = {}): NewReservation {
  return {
    ...k,
    product_id: 'gspc.request_attestation',
    sku_id: 'request_attestation',
    resource: '/api/request-attestation?subject=m1',
    amount_atomic: '10000',
    asset: USDC,
    network: 'eip155:8453',
    pay_to: PAY_TO,
    payment_sha256: sha(k.nonce),
    self_funded: false,
    valid_before: null,
    at: at(0),
    ...over,
  };
}

async function filled(): Promise<{ ledger: Ledger; demandTx: string; zeroTx: string }> {
  const ledger = await openLedger({ sqlitePath: join(tempDir(), 'ledger.sqlite') });
  after(() => ledger.close());
  const demand = key(`0x${'11'.repeat(20)}`);
  await ledger.reserve(reservation(demand));
  const demandTx = tx();
  await ledger.markSettled(demand, { ...attachment, transaction: demandTx, at: at(1) });
  const self = key(PAY_TO);
  await ledger.reserve(reservation(self, { self_funded: true, at: at(2) }));
  await ledger.markSettled(self, { ...attachment, transaction: tx(), at: at(3) });
  // The zero-value one went UNKNOWN, was resolved by reconcile and had its artefact attached later.
  const zero = key(`0x${'22'.repeat(20)}`);
  await ledger.reserve(
    reservation(zero, { product_id: 'gspc.free_door', resource: '/api/free-door', amount_atomic: '0', at: at(4) }),
  );
  await ledger.markUnknown(zero, { error: 'facilitator timed out', at: at(5) });
  const zeroTx = tx();
  await ledger.resolveUnknown(zero, { state: 'SETTLED', transaction: zeroTx, at: at(6) });
  await ledger.attachArtefact(zero, { ...attachment, at: at(60) });
  const unknown = key(`0x${'33'.repeat(20)}`);
  await ledger.reserve(reservation(unknown, { at: at(7) }));
  await ledger.markUnknown(unknown, { error: 'facilitator timed out', at: at(8) });
  const failed = key(`0x${'44'.repeat(20)}`);
  await ledger.reserve(reservation(failed, { at: at(9) }));
  await ledger.markFailed(failed, { error: 'insufficient funds', at: at(10) });
  const invoice = {
    product_id: 'gspc.evidence_bundle',
    sku_id: 'evidence_bundle',
    resource: '/api/evidence-bundle?obligation=dora&bundle=1&invoice=gbp&commissioned_by=Acme%20Ltd',
    commissioned_by: 'Acme Ltd',
    amount_atomic: '987654321',
    currency: 'GBP',
    at: at(11),
  };
  await ledger.createInvoice({ ...invoice, ref: 'inv_issued' });
  await ledger.createInvoice({ ...invoice, ref: 'inv_paid' });
  await ledger.markInvoicePaid('inv_paid', at(12));
  return { ledger, demandTx, zeroTx };
}

function appWith(ledger: Ledger | undefined) {
  const { state } = demoApp();
  const app = buildApp({
    state,
    logLevel: 'silent',
    baseUrl: 'http://localhost:8080',
    now: () => NOW,
    ...(ledger && { ledger }),
    products: { rail },
  });
  after(() => app.close());
  return app;
}

describe('GET /api/revenue', () => {
  it('counts only the non-self, non-zero settlement as demand; the others are audit records or open', async () => {
    const { ledger, demandTx, zeroTx } = await filled();
    const r = await appWith(ledger).inject({ method: 'GET', url: '/api/revenue' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['access-control-allow-origin'], '*');
    const b = r.json();
    assert.equal(b.schema, 'svc.revenue/0.1');
    assert.equal(b.as_of, NOW.toISOString());
    assert.deepEqual(b.ledger, { backend: 'sqlite', schema_version: ledger.schemaVersion });
    assert.deepEqual(b.unread, []);
    assert.deepEqual(b.demand, {
      count: 1,
      totals: [{ network: 'eip155:8453', asset: USDC.toLowerCase(), count: 1, amount_atomic: '10000' }],
      by_product: [
        {
          product_id: 'gspc.request_attestation',
          network: 'eip155:8453',
          asset: USDC.toLowerCase(),
          count: 1,
          amount_atomic: '10000',
        },
      ],
    });
    assert.equal(b.audit.self_funded.count, 1);
    assert.deepEqual(b.audit.self_funded.totals, [
      { network: 'eip155:8453', asset: USDC.toLowerCase(), count: 1, amount_atomic: '10000' },
    ]);
    assert.equal(b.audit.zero_value.count, 1);
    assert.deepEqual([b.open.RESERVED, b.open.UNKNOWN, b.open.FAILED], [0, 1, 1]);
    assert.match(b.open.note, /gspc reconcile/);
    assert.deepEqual([b.invoices.ISSUED, b.invoices.PAID], [1, 1]);
    assert.deepEqual(b.self_payers, [PAY_TO]);
    assert.equal(b.settlements_total, 3);
    const s = b.settlements as Array<Record<string, string>>;
    assert.deepEqual(
      s.map((x) => x.counted_as),
      ['zero-value', 'self-funded', 'demand'],
      'most recent first',
    );
    assert.equal(s[2]!.transaction, demandTx);
    assert.equal(s[2]!.payer, `0x${'11'.repeat(20)}`);
    assert.equal(s[2]!.settled_at, at(1));
    assert.equal(s[0]!.transaction, zeroTx);
    assert.equal(s[0]!.settled_at, at(6), 'the settle time, not when the artefact was attached');
    assert.match(b.how_to_check, /transaction/);
    assert.ok(!r.body.includes('SECRET-ARTEFACT-BYTES') && !r.body.includes('artefact'), 'no artefact is published');
    assert.ok(!r.body.includes('987654321') && !r.body.includes('inv_'), 'no invoice amount or reference is published');
  });

  it('without a ledger: 200 with ledger null and the reason, not an error', async () => {
    const r = await appWith(undefined).inject({ method: 'GET', url: '/api/revenue' });
    assert.equal(r.statusCode, 200);
    const b = r.json();
    assert.equal(b.ledger, null);
    assert.equal(b.demand, null);
    assert.equal(b.settlements, null);
    assert.match(b.unread[0].reason, /no ledger is configured/);
  });

  it('an unreadable ledger: 200 with null figures naming it, and no driver detail', async () => {
    const ledger = await openLedger({ sqlitePath: join(tempDir(), 'closed.sqlite') });
    await ledger.close();
    const b = (await appWith(ledger).inject({ method: 'GET', url: '/api/revenue' })).json();
    assert.equal(b.demand, null);
    assert.deepEqual(b.unread, [
      {
        source: 'ledger',
        reason: "the ledger could not be read (ledger_unavailable); the operator's log has the detail",
      },
    ]);
  });
});

describe('revenue rules', () => {
  const self = new Set([PAY_TO]);
  it('a payment reserved as self-funded stays self-funded even when its payer is no longer listed', () => {
    assert.equal(
      countedAs({ payer: `0x${'55'.repeat(20)}`, self_funded: true, amount_atomic: '5' }, new Set()),
      'self-funded',
    );
    assert.equal(
      countedAs({ payer: PAY_TO.toUpperCase().replace('0X', '0x'), self_funded: false, amount_atomic: '5' }, self),
      'self-funded',
    );
    assert.equal(
      countedAs({ payer: `0x${'55'.repeat(20)}`, self_funded: false, amount_atomic: '0' }, self),
      'zero-value',
    );
  });

  it("publishes a resource with only the products' own parameters", () => {
    assert.equal(
      publicResource('/api/evidence-bundle?obligation=dora&bundle=1&commissioned_by=Acme&x=y'),
      '/api/evidence-bundle?obligation=dora&bundle=1',
    );
    assert.equal(
      publicResource('https://h.example/api/request-attestation?subject=m%2F1'),
      '/api/request-attestation?subject=m%2F1',
    );
  });

  it('sums exactly beyond 2^53 and lists at most the limit', () => {
    const rec = (n: number) => ({
      payer: `0x${'66'.repeat(20)}`,
      nonce: `0x${n.toString(16).padStart(64, '0')}`,
      product_id: 'p',
      resource: '/api/free-door',
      amount_atomic: '9007199254740993',
      asset: USDC,
      network: 'eip155:8453',
      pay_to: PAY_TO,
      self_funded: false,
      state: 'SETTLED' as const,
      transaction: `t${n}`,
      updated_at: at(n),
    });
    const d = revenueDocument({
      now: NOW,
      ledger: { backend: 'sqlite', schema_version: 1 },
      records: [rec(1), rec(2), rec(3)],
      invoices: [],
      selfPayers: [],
      limit: 2,
    }) as Record<string, any>;
    assert.equal(d.demand.totals[0].amount_atomic, '27021597764222979');
    assert.deepEqual(
      d.settlements.map((s: { transaction: string }) => s.transaction),
      ['t3', 't2'],
    );
    assert.deepEqual([d.settlements_total, d.settlements_listed], [3, 2]);
  });
});
