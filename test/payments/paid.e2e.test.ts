/**
 * Paying for evidence end to end, no mocks: anvil with Circle's USDC at the Base address, the
 * reference x402 facilitator over HTTP, the service on a real port with a SQLite ledger, and the
 * official @x402/fetch client (or payments built by hand for what the official client refuses to
 * build). Balances, receipts, replays, concurrent duplicates and every failure path.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  extractReceiptFromResponse,
  verifyReceiptSignatureJWS,
  type JWSSignedReceipt,
} from '@x402/extensions/offer-receipt';
import { payingFetch, startLocalRail, type LocalRail, type RailAccount } from '../../demo/local-rail/index.js';
import { privateKeyToAccount } from 'viem/accounts';
import { reconcile } from '../../src/payments/reconcile.js';
import { createChainReader } from '../../src/payments/chain-reader.js';
import { ADMIN_URL, postgresHarness, probePostgres } from '../store/postgres-harness.js';
import {
  authorizationNonce,
  challengeOf,
  decodeHeader,
  handPayment,
  officialPayment,
  startPaidService,
  type PaidService,
} from './paid-harness.js';
import { noAnvil } from '../helpers/chain.js';

const skip = noAnvil();
// The same paid flow on the PostgreSQL ledger (several replicas share one), when a server answers.
const pgProbe = await probePostgres();
if (!pgProbe.ok)
  process.stderr.write(
    `\n*** SKIPPED (PostgreSQL half of the paid flow): no server at ${ADMIN_URL}: ${pgProbe.reason} ***\n`,
  );
const pgHarness = pgProbe.ok ? postgresHarness() : undefined;
const PRICE = 20_000n; // request_attestation, outside any promo (GSPC_PROMO=none)
// Anvil dev account 5: known key, never funded with USDC.
const BROKE: RailAccount = {
  address: privateKeyToAccount('0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba').address,
  privateKey: '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
};

/** The same payment sent six times at once: each answer's status and body. */
function sixAtOnce(url: string, header: string): Promise<{ status: number; body: string }[]> {
  return Promise.all(
    Array.from({ length: 6 }, () =>
      fetch(url, { headers: { 'payment-signature': header } }).then(async (r) => ({
        status: r.status,
        body: await r.text(),
      })),
    ),
  );
}

describe('paid requests on the local rail', { skip }, () => {
  let rail: LocalRail;
  let svc: PaidService;
  let subject: string;
  let url: string;
  before(async () => {
    rail = await startLocalRail({ payerUsdc: 1_000_000_000n });
    svc = await startPaidService(rail, {
      railEnv: {
        GSPC_PAY_TO: rail.payTo.address,
        GSPC_FACILITATOR_URL: rail.facilitatorUrl!,
        GSPC_ASSET: rail.usdc,
        GSPC_PROMO: 'none',
      },
    });
    subject = [...svc.state.current().release.evidence.cards.values()].find(
      (c) => c.surface === 'board.measurement' && c.sig_ed25519,
    )!.subject;
    url = `${svc.baseUrl}/api/request-attestation?subject=${encodeURIComponent(subject)}`;
  });
  after(async () => {
    await svc?.close();
    await rail?.stop();
  });
  const balances = async () => ({
    payer: await rail.balanceOf(rail.payer.address),
    payTo: await rail.balanceOf(rail.payTo.address),
  });

  it('the official client pays a commission receipt: exact balance moves, a signed receipt naming the transaction, verified two ways', async () => {
    const before0 = await balances();
    const res = await payingFetch(rail)(url);
    assert.equal(res.status, 200, await res.clone().text());
    const body = (await res.json()) as Record<string, unknown> & {
      payload: { status: string; reserve: unknown[]; fresh_run: string };
    };
    assert.equal(body.surface, 'ras.commission');
    assert.equal(body.payload.status, 'COMMISSIONED');
    assert.equal(body.payload.fresh_run, 'UNMEASURED');
    assert.ok(body.payload.reserve.length > 0 && body.payload.reserve.length <= 24);
    const after0 = await balances();
    assert.equal(before0.payer - after0.payer, PRICE);
    assert.equal(after0.payTo - before0.payTo, PRICE);

    const settle = decodeHeader<{ success: boolean; transaction: string; payer: string }>(
      res.headers.get('payment-response'),
    );
    assert.equal(settle.success, true);
    assert.match(settle.transaction, /^0x[0-9a-f]{64}$/);
    assert.equal(settle.payer, rail.payer.address.toLowerCase());
    const receipt = extractReceiptFromResponse(res) as JWSSignedReceipt;
    const payload = await verifyReceiptSignatureJWS(receipt); // resolves did:web:localhost%3A<port> over HTTP
    assert.equal(payload.transaction, settle.transaction);
    assert.equal(payload.resourceUrl, url);
    const checked = (await (
      await fetch(`${svc.baseUrl}/api/receipts/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jws: receipt.signature }),
      })
    ).json()) as { result: string };
    assert.equal(checked.result, 'VALID');

    const record = (await svc.ledger.list({ state: 'SETTLED' })).find((r) => r.transaction === settle.transaction)!;
    assert.equal(record.amount_atomic, String(PRICE));
    assert.equal(
      record.artefact_sha256,
      createHash('sha256')
        .update(Buffer.from(JSON.stringify(body) + '\n'))
        .digest('hex'),
    );
  });

  it('on PostgreSQL too: concurrent duplicates of one payment settle once and a replay settles nothing', {
    skip: pgProbe.ok ? false : `no PostgreSQL: ${pgProbe.reason}`,
  }, async () => {
    const ledger = await (await pgHarness!.fresh()).open();
    const pgSvc = await startPaidService(rail, {
      ledger,
      railEnv: {
        GSPC_PAY_TO: rail.payTo.address,
        GSPC_FACILITATOR_URL: rail.facilitatorUrl!,
        GSPC_ASSET: rail.usdc,
        GSPC_PROMO: 'none',
      },
    });
    after(() => pgSvc.close());
    assert.equal(pgSvc.ledger.backend, 'postgres');
    const pgUrl = `${pgSvc.baseUrl}/api/request-attestation?subject=${encodeURIComponent(subject)}`;
    const { header } = await officialPayment(rail, await challengeOf(pgUrl));
    const b0 = await balances();
    const answers = await sixAtOnce(pgUrl, header);
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 200, 200, 200],
    );
    assert.equal(new Set(answers.map((a) => a.body)).size, 1);
    const replay = await fetch(pgUrl, { headers: { 'x-payment': header } });
    assert.equal(await replay.text(), answers[0]!.body);
    assert.equal(b0.payer - (await balances()).payer, PRICE);
    const records = await pgSvc.ledger.list({ state: 'SETTLED', withArtefacts: false });
    assert.equal(records.length, 1);
    assert.equal((await pgSvc.ledger.history(records[0]!)).length, 2, 'RESERVED then SETTLED, once');
  });

  it('a replay returns the same artefact and settles nothing; the same payment as X-PAYMENT is the same payment', async () => {
    const { header } = await officialPayment(rail, await challengeOf(url));
    const first = await fetch(url, { headers: { 'payment-signature': header } });
    assert.equal(first.status, 200);
    const bytes = await first.text();
    const mid = await balances();
    const again = await fetch(url, { headers: { 'payment-signature': header } });
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('x-gspc-replay'), '1');
    assert.equal(await again.text(), bytes);
    const asV1Name = await fetch(url, { headers: { 'x-payment': header } });
    assert.equal(asV1Name.status, 200);
    assert.equal(await asV1Name.text(), bytes);
    assert.ok(asV1Name.headers.get('x-payment-response'));
    assert.deepEqual(await balances(), mid);
  });

  it('concurrent duplicates of one payment settle once and all get the same artefact', async () => {
    const { header } = await officialPayment(rail, await challengeOf(url));
    const b0 = await balances();
    const answers = await sixAtOnce(url, header);
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 200, 200, 200],
    );
    assert.equal(new Set(answers.map((a) => a.body)).size, 1);
    const b1 = await balances();
    assert.equal(b0.payer - b1.payer, PRICE);
    const records = (await svc.ledger.list()).filter(
      (r) => r.payer === rail.payer.address.toLowerCase() && r.state === 'SETTLED',
    );
    assert.equal(new Set(records.map((r) => r.transaction)).size, records.length, 'one transaction per payment');
  });

  it('a payment for another amount, an expired authorization, an unfunded payer, and a commission with nothing to reserve are refused with a fresh 402 and the reason', async () => {
    const challenge = await challengeOf(url);
    const b0 = await balances();
    const cheap = await handPayment(rail, challenge, { value: '1' });
    const r1 = await fetch(url, { headers: { 'payment-signature': cheap.header } });
    assert.equal(r1.status, 402);
    assert.match(((await r1.json()) as { error: string }).error, /for 1 atomic units; this resource costs 20000/);
    assert.ok(r1.headers.get('payment-required'));

    const tampered = await handPayment(rail, challenge);
    (tampered.payload.payload as { authorization: { value: string } }).authorization.value = '20001';
    (tampered.payload.accepted as { amount: string }).amount = '20001';
    const r2 = await fetch(url, {
      headers: { 'payment-signature': Buffer.from(JSON.stringify(tampered.payload)).toString('base64') },
    });
    assert.equal(r2.status, 402);

    const expired = await handPayment(rail, challenge, { validBefore: BigInt(Math.floor(Date.now() / 1000) - 60) });
    const r3 = await fetch(url, { headers: { 'payment-signature': expired.header } });
    assert.equal(r3.status, 402);
    assert.match(((await r3.json()) as { error: string }).error, /valid_before/);

    const broke = await officialPayment(rail, challenge, BROKE);
    const r4 = await fetch(url, { headers: { 'payment-signature': broke.header } });
    assert.equal(r4.status, 402);
    assert.match(((await r4.json()) as { error: string }).error, /insufficient/);
    // Verified before it is reserved (issue 37): a refused payment writes nothing.
    const brokeKey = { payer: BROKE.address.toLowerCase(), nonce: authorizationNonce(broke.payload) };
    assert.equal(await svc.ledger.get(brokeKey), undefined);
    assert.equal(
      await svc.ledger.get({ payer: rail.payer.address.toLowerCase(), nonce: authorizationNonce(cheap.payload) }),
      undefined,
    );

    const nobodyUrl = `${svc.baseUrl}/api/request-attestation?subject=no-such-model`;
    const nobody = await handPayment(rail, await challengeOf(nobodyUrl));
    const r5 = await fetch(nobodyUrl, { headers: { 'payment-signature': nobody.header } });
    assert.equal(r5.status, 402);
    assert.match(((await r5.json()) as { error: string }).error, /nothing to reserve, so the payment was not taken/);
    assert.deepEqual(await balances(), b0);
  });

  it('a v1 payload in X-PAYMENT is wrapped for the facilitator and settles', async () => {
    const b0 = await balances();
    const v1 = await handPayment(rail, await challengeOf(url), { version: 1 });
    const r = await fetch(url, { headers: { 'x-payment': v1.header } });
    assert.equal(r.status, 200, await r.clone().text());
    assert.equal(decodeHeader<{ success: boolean }>(r.headers.get('x-payment-response')).success, true);
    assert.equal(b0.payer - (await balances()).payer, PRICE);
  });

  it('a settle the facilitator refuses is a 402 with success:false, nothing delivered, and the payer may retry', async () => {
    const { header } = await officialPayment(rail, await challengeOf(url));
    rail.facilitatorMode('settle-fails', { reason: 'unexpected_settle_error' });
    try {
      const r = await fetch(url, { headers: { 'payment-signature': header } });
      assert.equal(r.status, 402);
      const s = decodeHeader<{ success: boolean; errorReason: string }>(r.headers.get('payment-response'));
      assert.equal(s.success, false);
      assert.equal(s.errorReason, 'unexpected_settle_error');
      assert.equal(((await r.json()) as { payload?: unknown }).payload, undefined);
    } finally {
      rail.facilitatorMode('normal');
    }
    const retry = await fetch(url, { headers: { 'payment-signature': header } });
    assert.equal(retry.status, 200);
  });

  it('a facilitator that is down is a 503, nothing is charged or reserved, and the same payment then settles', async () => {
    const { header, payload } = await officialPayment(rail, await challengeOf(url));
    const b0 = await balances();
    rail.facilitatorMode('down');
    try {
      const r = await fetch(url, { headers: { 'payment-signature': header } });
      assert.equal(r.status, 503);
      assert.equal(((await r.json()) as { code: string }).code, 'facilitator_unavailable');
    } finally {
      rail.facilitatorMode('normal');
    }
    const key = { payer: rail.payer.address.toLowerCase(), nonce: authorizationNonce(payload) };
    assert.equal(await svc.ledger.get(key), undefined);
    assert.deepEqual(await balances(), b0);
    const retry = await fetch(url, { headers: { 'payment-signature': header } });
    assert.equal(retry.status, 200, await retry.clone().text());
    assert.equal((await svc.ledger.get(key))!.attempts, 1);
    assert.equal(b0.payer - (await balances()).payer, PRICE);
  });

  it('a settle whose answer never comes is recorded UNKNOWN (502), a retry is 409 pending; gspc reconcile finds the transfer and the retry then gets the artefact, charged once', async () => {
    const slow = await startPaidService(rail, {
      timeoutMs: 500,
      railEnv: {
        GSPC_PAY_TO: rail.payTo.address,
        GSPC_FACILITATOR_URL: rail.facilitatorUrl!,
        GSPC_ASSET: rail.usdc,
        GSPC_PROMO: 'none',
      },
    });
    after(() => slow.close());
    const slowUrl = `${slow.baseUrl}/api/request-attestation?subject=${encodeURIComponent(subject)}`;
    const { header, payload } = await officialPayment(rail, await challengeOf(slowUrl));
    const b0 = await balances();
    rail.facilitatorMode('settle-slow', { delayMs: 1500 });
    let r: Response;
    try {
      r = await fetch(slowUrl, { headers: { 'payment-signature': header } });
      assert.equal(r.status, 502);
      assert.equal(((await r.json()) as { code: string }).code, 'settlement_unknown');
      await new Promise((res) => setTimeout(res, 1800)); // the facilitator settles after all
    } finally {
      rail.facilitatorMode('normal');
    }
    const nonce = authorizationNonce(payload);
    assert.equal((await slow.ledger.get({ payer: rail.payer.address.toLowerCase(), nonce }))!.state, 'UNKNOWN');
    assert.equal(b0.payer - (await balances()).payer, PRICE, 'the transfer happened');
    const retry = await fetch(slowUrl, { headers: { 'payment-signature': header } });
    assert.equal(retry.status, 409);
    assert.equal(((await retry.json()) as { code: string }).code, 'payment_pending');

    const report = await reconcile({
      ledger: slow.ledger,
      chain: createChainReader(rail.rpcUrl),
      now: new Date(),
      staleAfterMs: 900_000,
    });
    const settledEntry = report.entries.find((e) => e.nonce === nonce)!;
    assert.equal(settledEntry.action, 'settled', settledEntry.detail);
    const delivered = await fetch(slowUrl, { headers: { 'payment-signature': header } });
    assert.equal(delivered.status, 200);
    assert.equal(delivered.headers.get('x-gspc-replay'), '1');
    assert.equal(((await delivered.json()) as { surface: string }).surface, 'ras.commission');
    assert.equal(
      decodeHeader<{ transaction: string }>(delivered.headers.get('payment-response')).transaction,
      settledEntry.transaction,
    );
    assert.equal(b0.payer - (await balances()).payer, PRICE, 'still charged once');
  });

  it('the evidence bundle and the feed are delivered for their prices', async () => {
    const pay = payingFetch(rail, { maxAmountPerPayment: false });
    const b0 = await balances();
    const bundle = await pay(`${svc.baseUrl}/api/evidence-bundle?obligation=article-50&bundle=1`);
    assert.equal(bundle.status, 200, await bundle.clone().text());
    const b = (await bundle.json()) as { schema: string; kind: string; manifest_card: { surface: string } };
    assert.equal(b.schema, 'svc.evidence-bundle/0.1');
    assert.equal(b.manifest_card.surface, 'evidence.bundle');
    const feed = await pay(`${svc.baseUrl}/api/eunomia-data?feed=1`);
    assert.equal(feed.status, 200);
    assert.equal(((await feed.json()) as { schema: string }).schema, 'svc.eunomia-data/0.2');
    assert.equal(b0.payer - (await balances()).payer, 250_000_000n + 20_000n);
  });

  it('an invoice is issued without an amount and its artefact is released once the operator marks it paid', async () => {
    const r = await fetch(
      `${svc.baseUrl}/api/evidence-bundle?obligation=dora&bundle=1&invoice=gbp&commissioned_by=${encodeURIComponent('Acme Assurance Ltd')}`,
    );
    assert.equal(r.status, 202);
    const inv = (await r.json()) as Record<string, string>;
    assert.match(inv.ref!, /^inv_[0-9a-z]{26}$/);
    assert.ok(!JSON.stringify(inv).includes('250000000'), 'no amount in the response');
    assert.equal((await fetch(inv.collect!)).status, 202);
    await svc.ledger.markInvoicePaid(inv.ref!, new Date().toISOString());
    const collected = await fetch(inv.collect!);
    assert.equal(collected.status, 200);
    const bytes = Buffer.from(await collected.arrayBuffer());
    assert.equal(createHash('sha256').update(bytes).digest('hex'), inv.artefact_sha256);
    assert.equal(JSON.parse(bytes.toString()).schema, 'svc.evidence-bundle/0.1');
    assert.equal((await fetch(`${svc.baseUrl}/api/invoices/inv_00000000000000000000000000`)).status, 404);
  });

  it('an unconfigured rail answers a payment with 503 and nothing is charged', async () => {
    const bare = await startPaidService(undefined);
    after(() => bare.close());
    const bareUrl = `${bare.baseUrl}/api/request-attestation?subject=${encodeURIComponent(subject)}`;
    const challenge = await challengeOf(bareUrl);
    const b0 = await balances();
    const { header } = await handPayment(rail, {
      ...challenge,
      accepts: [{ ...challenge.accepts[0]!, payTo: rail.payTo.address }],
    });
    const r = await fetch(bareUrl, { headers: { 'payment-signature': header } });
    assert.equal(r.status, 503);
    assert.equal(((await r.json()) as { code: string }).code, 'rail_unconfigured');
    assert.deepEqual(await balances(), b0);
  });
});
