/**
 * Issue 37, attack 3: no free amplification. A settled payment (here a 0-USDC free-door one) used
 * to exempt every request carrying it from the `paid` budget, so one header replayed forever let
 * invoice requests, each storing a bundle in the ledger, through any budget. On the local rail,
 * with the budgets `gspc serve` reads from GSPC_RATE_LIMITS=paid=20 (the others at their defaults).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startLocalRail, type LocalRail } from '../../demo/local-rail/index.js';
import { readConfig } from '../../src/config.js';
import { noAnvil } from '../helpers/chain.js';
import { challengeOf, handPayment, startPaidService, type PaidService } from './paid-harness.js';

const INVOICE = '/api/evidence-bundle?obligation=dora&bundle=1&invoice=gbp&commissioned_by=';

describe('a settled payment exempts nothing from the budgets; invoices are limited and de-duplicated', {
  skip: noAnvil(),
}, () => {
  let rail: LocalRail;
  const open: PaidService[] = [];
  /** A fresh service (fresh budgets and ledger) with GSPC_RATE_LIMITS=paid=20. */
  async function service(): Promise<PaidService> {
    const s = await startPaidService(rail, {
      railEnv: { GSPC_PAY_TO: rail.payTo.address, GSPC_FACILITATOR_URL: rail.facilitatorUrl!, GSPC_ASSET: rail.usdc },
      rateLimits: readConfig({ GSPC_RATE_LIMITS: 'paid=20' }).rateLimits,
    });
    open.push(s);
    return s;
  }
  /** `n` requests one after another; each answer's status (and the body of the answered ones). */
  async function send(n: number, url: (i: number) => string, h?: string) {
    const out: { status: number; body: Record<string, string> }[] = [];
    for (let i = 0; i < n; i++) {
      const r = await fetch(url(i), h === undefined ? {} : { headers: { 'payment-signature': h } });
      out.push({ status: r.status, body: (await r.json()) as Record<string, string> });
    }
    return out;
  }
  const count = (answers: { status: number }[], status: number) => answers.filter((a) => a.status === status).length;

  before(async () => {
    rail = await startLocalRail();
  });
  after(async () => {
    for (const s of open) await s.close();
    await rail?.stop();
  });

  it('60 invoice requests carrying a settled free-door header under paid=20 see 429s, and the same request stores one invoice', async () => {
    const svc = await service();
    const door = `${svc.baseUrl}/api/free-door`;
    const header = (await handPayment(rail, await challengeOf(door))).header;
    const paid = await fetch(door, { headers: { 'payment-signature': header } });
    assert.equal(paid.status, 200, await paid.clone().text());
    const answers = await send(60, () => `${svc.baseUrl}${INVOICE}Acme%20Ltd`, header);
    const issued = answers.filter((a) => a.status === 202);
    assert.ok(count(answers, 429) >= 40, `429s: ${count(answers, 429)} of 60`);
    assert.ok(issued.length > 0 && issued.length <= 20, `${issued.length} answered`);
    assert.equal(new Set(issued.map((a) => a.body.ref)).size, 1, 'the same request is the same invoice');
    assert.equal((await svc.ledger.listInvoices({ withArtefacts: false })).length, 1, 'its artefact stored once');
    const limited = answers.find((a) => a.status === 429)!.body;
    assert.deepEqual([limited.code, limited.class], ['rate_limited', 'invoice']);
  });

  it('one invoice request spelt differently (a trailing &, parameters reordered, + for a space) stores one invoice (issue 37 review, finding 6)', async () => {
    const svc = await service();
    const spellings = [
      '/api/evidence-bundle?obligation=dora&bundle=1&invoice=gbp&commissioned_by=Acme%20Ltd',
      '/api/evidence-bundle?obligation=dora&bundle=1&invoice=gbp&commissioned_by=Acme%20Ltd&',
      '/api/evidence-bundle?commissioned_by=Acme%20Ltd&invoice=gbp&bundle=1&obligation=dora',
      '/api/evidence-bundle?obligation=dora&bundle=1&invoice=gbp&commissioned_by=Acme+Ltd',
    ];
    const answers = await send(spellings.length, (i) => `${svc.baseUrl}${spellings[i]}`);
    assert.deepEqual(
      answers.map((a) => a.status),
      spellings.map(() => 202),
    );
    assert.equal(new Set(answers.map((a) => a.body.ref)).size, 1, 'the same request is the same invoice');
    assert.equal((await svc.ledger.listInvoices({ withArtefacts: false })).length, 1, 'its artefact stored once');
  });

  it('invoices without any header have their own budget, however the parameter is spelt: distinct requests are refused once it is spent', async () => {
    const svc = await service();
    // Every other request names `invoice` percent-encoded, as the route's query reader decodes it.
    const answers = await send(
      30,
      (i) => `${svc.baseUrl}${i % 2 === 0 ? INVOICE : INVOICE.replace('invoice=', '%69nvoice=')}Buyer%20${i}`,
    );
    const issued = count(answers, 202);
    assert.equal(issued, readConfig({}).rateLimits.invoice, `${issued} issued`);
    assert.equal(count(answers, 429), 30 - issued);
    assert.equal((await svc.ledger.listInvoices({ withArtefacts: false })).length, issued);
  });

  it("a settled payment's own product is limited like any other paid request", async () => {
    const svc = await service();
    const door = `${svc.baseUrl}/api/free-door`;
    const own = (await handPayment(rail, await challengeOf(door))).header;
    const answers = await send(30, () => door, own);
    assert.equal(count(answers, 200), 20);
    assert.equal(count(answers, 429), 10);
  });
});
