/**
 * Issue 37: the paid path attacked as an attacker would, on the local rail (anvil, Circle's USDC,
 * the reference facilitator in its failure modes, the service on a real port, a SQLite ledger).
 * Each test is one attack that found a loss or a defect; each failed on the code before the fix.
 * The rate-limit and invoice attacks are in paid-limits.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { extractReceiptFromResponse, type JWSSignedReceipt } from '@x402/extensions/offer-receipt';
import { payingFetch, startLocalRail, type LocalRail } from '../../demo/local-rail/index.js';
import { createPublicClient, decodeFunctionData, getAddress, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { wrapFetchWithSIWx } from '@x402/extensions/sign-in-with-x';
import { createChainReader } from '../../src/payments/chain-reader.js';
import { reconcile } from '../../src/payments/reconcile.js';
import type { Ledger } from '../../src/store/ledger.js';
import { noAnvil } from '../helpers/chain.js';
import {
  authorizationNonce,
  challengeOf,
  decodeHeader,
  handPayment,
  officialPayment,
  startPaidService,
  type PaidService,
} from './paid-harness.js';

const PRICE = 20_000n; // request_attestation and the feed, outside any promo (GSPC_PROMO=none)
const BUNDLE = '/api/evidence-bundle?obligation=article-50&bundle=1';
type Body = Record<string, unknown> & { code?: string; error?: string };
const AUTH_INPUTS = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
] as const;
/** USDC's two transferWithAuthorization overloads: (v, r, s) and a packed signature. */
const TRANSFER_WITH_AUTHORIZATION = [
  {
    type: 'function',
    name: 'transferWithAuthorization',
    stateMutability: 'nonpayable',
    outputs: [],
    inputs: [
      ...AUTH_INPUTS,
      { name: 'v', type: 'uint8' },
      { name: 'r', type: 'bytes32' },
      { name: 's', type: 'bytes32' },
    ],
  },
  {
    type: 'function',
    name: 'transferWithAuthorization',
    stateMutability: 'nonpayable',
    outputs: [],
    inputs: [...AUTH_INPUTS, { name: 'signature', type: 'bytes' }],
  },
] as const;

describe('the paid path cannot be gamed (issue 37)', { skip: noAnvil() }, () => {
  let rail: LocalRail;
  let svc: PaidService;
  let slow: PaidService;
  let attest: string;
  let otherSubject: string;
  before(async () => {
    rail = await startLocalRail({ payerUsdc: 1_000_000_000n });
    const railEnv = {
      GSPC_PAY_TO: rail.payTo.address,
      GSPC_FACILITATOR_URL: rail.facilitatorUrl!,
      GSPC_ASSET: rail.usdc,
      GSPC_PROMO: 'none',
    };
    svc = await startPaidService(rail, { railEnv });
    // A settle slower than this service's facilitator timeout is UNKNOWN (502 settlement_unknown).
    slow = await startPaidService(rail, { railEnv, timeoutMs: 500 });
    const subjects = [
      ...new Set(
        [...svc.state.current().release.evidence.cards.values()]
          .filter((c) => c.surface === 'board.measurement' && c.sig_ed25519)
          .map((c) => c.subject),
      ),
    ];
    attest = `/api/request-attestation?subject=${encodeURIComponent(subjects[0]!)}`;
    otherSubject = `/api/request-attestation?subject=${encodeURIComponent(subjects[1]!)}`;
  });
  after(async () => {
    await svc?.close();
    await slow?.close();
    await rail?.stop();
  });

  const pay = (url: string, header: string) => fetch(url, { headers: { 'payment-signature': header } });
  const keyOf = (payload: Record<string, unknown>) => ({
    payer: rail.payer.address.toLowerCase(),
    nonce: authorizationNonce(payload),
  });
  const payerBalance = () => rail.balanceOf(rail.payer.address);
  const reconcileNow = (ledger: Ledger) =>
    reconcile({ ledger, chain: createChainReader(rail.rpcUrl), now: new Date(), staleAfterMs: 900_000 });
  /** A payment presented for what it did not buy: 409 naming both, no receipt, no artefact. */
  async function refusedElsewhere(r: Response, paidFor: { product_id: string; resource: string; amount: string }) {
    const text = await r.text();
    assert.equal(r.status, 409, text.slice(0, 300));
    const body = JSON.parse(text) as Body & { paid_for: Record<string, string>; requested: Record<string, string> };
    assert.equal(body.code, 'payment_other_resource');
    assert.deepEqual(body.paid_for, {
      product_id: paidFor.product_id,
      resource: paidFor.resource,
      amount_atomic: paidFor.amount,
    });
    assert.equal(body.requested.resource, new URL(r.url).pathname + new URL(r.url).search);
    assert.equal(r.headers.get('payment-response'), null, 'no receipt');
  }

  it('1. a free-door payment reconciled after a slow settle buys nothing else: the bundle is a 409 naming both, with no receipt, and the row still describes the free door', async () => {
    const door = await handPayment(rail, await challengeOf(`${slow.baseUrl}/api/free-door`));
    rail.facilitatorMode('settle-slow', { delayMs: 1500 });
    try {
      const r = await pay(`${slow.baseUrl}/api/free-door`, door.header);
      assert.equal(r.status, 502, await r.clone().text());
      assert.equal(((await r.json()) as Body).code, 'settlement_unknown');
      await sleep(1800); // the facilitator settles after all
    } finally {
      rail.facilitatorMode('normal');
    }
    const key = keyOf(door.payload);
    const report = await reconcileNow(slow.ledger);
    assert.equal(report.entries.find((e) => e.nonce === key.nonce)?.action, 'settled');

    const paidFor = { product_id: 'gspc.free_door', resource: '/api/free-door', amount: '0' };
    await refusedElsewhere(await pay(`${slow.baseUrl}${BUNDLE}`, door.header), paidFor);
    const row = (await slow.ledger.get(key))!;
    assert.deepEqual(
      [row.state, row.product_id, row.resource, row.amount_atomic, row.artefact],
      ['SETTLED', 'gspc.free_door', '/api/free-door', '0', null],
    );
    // The URL it paid for delivers the free door; the bundle stays refused after that.
    const own = await pay(`${slow.baseUrl}/api/free-door`, door.header);
    assert.equal(own.status, 200);
    assert.equal(((await own.json()) as Body).schema, 'svc.free-door/0.1');
    await refusedElsewhere(await pay(`${slow.baseUrl}${BUNDLE}`, door.header), paidFor);
    assert.equal((await slow.ledger.get(key))!.product_id, 'gspc.free_door');
  });

  it("1b. a settled commission replayed on the bundle's URL or for another subject is a 409 naming both, never another artefact", async () => {
    const { header } = await officialPayment(rail, await challengeOf(`${svc.baseUrl}${attest}`));
    assert.equal((await pay(`${svc.baseUrl}${attest}`, header)).status, 200);
    const paidFor = { product_id: 'gspc.request_attestation', resource: attest, amount: String(PRICE) };
    await refusedElsewhere(await pay(`${svc.baseUrl}${BUNDLE}`, header), paidFor);
    await refusedElsewhere(await pay(`${svc.baseUrl}${otherSubject}`, header), paidFor);
    assert.equal((await pay(`${svc.baseUrl}${attest}`, header)).status, 200);
  });

  it('2. settlement_pending with a transaction is never FAILED: 502 saying the charge may come, UNKNOWN with that transaction; once mined, reconcile settles it and the retry gets the artefact, charged once', async () => {
    const url = `${svc.baseUrl}${attest}`;
    const { header, payload } = await officialPayment(rail, await challengeOf(url));
    const b0 = await payerBalance();
    rail.facilitatorMode('settle-pending', { land: 'held' });
    let r: Response;
    try {
      r = await pay(url, header);
    } catch (e) {
      await rail.landPending();
      throw e;
    } finally {
      rail.facilitatorMode('normal');
    }
    try {
      await pendingThenMined(url, header, payload, r, b0);
    } finally {
      await rail.landPending(); // never leave the chain holding for the next test
    }
  });

  async function pendingThenMined(
    url: string,
    header: string,
    payload: Record<string, unknown>,
    r: Response,
    b0: bigint,
  ): Promise<void> {
    const body = (await r.json()) as Body & { transaction: string };
    assert.equal(r.status, 502, JSON.stringify(body));
    assert.equal(body.code, 'settlement_pending');
    assert.match(body.transaction, /^0x[0-9a-f]{64}$/);
    assert.doesNotMatch(body.error!, /nothing was charged/);
    assert.match(body.error!, /not charged yet, or charged/);
    const key = keyOf(payload);
    const parked = (await svc.ledger.get(key))!;
    assert.deepEqual([parked.state, parked.transaction], ['UNKNOWN', body.transaction]);
    const early = await pay(url, header);
    assert.equal(early.status, 409);
    assert.equal(((await early.json()) as Body).code, 'payment_pending');
    // Not mined yet: reconcile reads the chain and leaves it pending.
    const before = (await reconcileNow(svc.ledger)).entries.find((e) => e.nonce === key.nonce)!;
    assert.deepEqual([before.action, before.to], ['pending', 'UNKNOWN']);
    assert.equal(before.chain?.authorization, 'unused');

    await rail.landPending(); // the transfer lands
    assert.equal(b0 - (await payerBalance()), PRICE);
    const e = (await reconcileNow(svc.ledger)).entries.find((x) => x.nonce === key.nonce)!;
    assert.deepEqual([e.action, e.from, e.to, e.transaction], ['settled', 'UNKNOWN', 'SETTLED', body.transaction]);
    assert.deepEqual(
      [e.chain?.authorization, e.chain?.transaction, e.chain?.transfer],
      ['used', body.transaction, true],
    );
    const first = await pay(url, header);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-gspc-replay'), '1');
    assert.equal(
      decodeHeader<{ transaction: string }>(first.headers.get('payment-response')).transaction,
      e.transaction,
    );
    const bytes = await first.text();
    assert.equal(await (await pay(url, header)).text(), bytes, 'the artefact is produced once, then replayed');
    assert.equal(b0 - (await payerBalance()), PRICE, 'charged once');
  }

  it('4. an authorization valid for 10 years, or until 2^64-1, is a 402 naming validBefore before any facilitator call; one within the terms settles', async () => {
    const url = `${svc.baseUrl}${attest}`;
    const challenge = await challengeOf(url);
    const now = BigInt(Math.floor(Date.now() / 1000));
    const b0 = await payerBalance();
    rail.facilitatorMode('down'); // any facilitator call would answer 503
    try {
      for (const validBefore of [now + 10n * 365n * 86_400n, 2n ** 64n - 1n]) {
        const p = await handPayment(rail, challenge, { validBefore });
        const r = await pay(url, p.header);
        const body = (await r.json()) as Body;
        assert.equal(r.status, 402, JSON.stringify(body));
        assert.match(body.error!, new RegExp(`validBefore ${validBefore} is later than .*maxTimeoutSeconds`));
        assert.ok(r.headers.get('payment-required'), 'a fresh challenge');
        assert.equal(await svc.ledger.get(keyOf(p.payload)), undefined);
      }
    } finally {
      rail.facilitatorMode('normal');
    }
    assert.equal(await payerBalance(), b0);
    const within = await handPayment(rail, challenge, { validBefore: now + 300n });
    assert.equal((await pay(url, within.header)).status, 200);
  });

  it('5. a FAILED payment reopened on another product of the same price records that product, resource and amount, and is then bound to it', async () => {
    const url = `${svc.baseUrl}${attest}`;
    const { header, payload } = await officialPayment(rail, await challengeOf(url));
    rail.facilitatorMode('settle-fails');
    try {
      assert.equal((await pay(url, header)).status, 402);
    } finally {
      rail.facilitatorMode('normal');
    }
    const key = keyOf(payload);
    assert.equal((await svc.ledger.get(key))!.state, 'FAILED');
    const feed = await pay(`${svc.baseUrl}/api/eunomia-data?feed=1`, header);
    assert.equal(feed.status, 200, await feed.clone().text());
    assert.equal(((await feed.json()) as Body).schema, 'svc.eunomia-data/0.2');
    const row = (await svc.ledger.get(key))!;
    assert.deepEqual(
      [row.state, row.attempts, row.product_id, row.sku_id, row.resource, row.amount_atomic],
      ['SETTLED', 2, 'gspc.issuance', 'issuance', '/api/eunomia-data?feed=1', String(PRICE)],
    );
    await refusedElsewhere(await pay(url, header), {
      product_id: 'gspc.issuance',
      resource: '/api/eunomia-data?feed=1',
      amount: String(PRICE),
    });
  });

  it("6. a forged copy carrying the victim's (payer, nonce) reserves nothing, and the genuine payment then settles", async () => {
    const url = `${svc.baseUrl}${attest}`;
    const genuine = await officialPayment(rail, await challengeOf(url));
    const forged = structuredClone(genuine.payload) as { payload: { signature: string } };
    const sig = forged.payload.signature;
    forged.payload.signature = `${sig.slice(0, 10)}${sig[10] === '0' ? '1' : '0'}${sig.slice(11)}`;
    const r1 = await pay(url, Buffer.from(JSON.stringify(forged)).toString('base64'));
    assert.equal(r1.status, 402);
    assert.equal(await svc.ledger.get(keyOf(genuine.payload)), undefined, 'the forged copy reserved nothing');
    const r2 = await pay(url, genuine.header);
    assert.equal(r2.status, 200, await r2.clone().text());
  });

  it('7. the receipt verifier tells an offer from a receipt and checks an expected resource and amount', async () => {
    const url = `${svc.baseUrl}${attest}`;
    const verify = async (body: Record<string, unknown>) =>
      (await (
        await fetch(`${svc.baseUrl}/api/receipts/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as { result: string; reason: string; kind?: string; payload?: unknown };
    const challenge = (await (await fetch(url)).json()) as {
      extensions: { 'offer-receipt': { info: { offers: { signature: string }[] } } };
    };
    const offer = challenge.extensions['offer-receipt'].info.offers[0]!.signature;
    const asReceipt = await verify({ jws: offer });
    assert.equal(asReceipt.result, 'INVALID');
    assert.equal(asReceipt.kind, 'offer');
    assert.match(asReceipt.reason, /an offer, not a receipt/);
    assert.equal(asReceipt.payload, undefined);
    assert.deepEqual([(await verify({ jws: offer, kind: 'offer' })).result], ['VALID']);

    const res = await payingFetch(rail)(url);
    assert.equal(res.status, 200);
    const receipt = (extractReceiptFromResponse(res) as JWSSignedReceipt).signature;
    const plain = await verify({ jws: receipt });
    assert.deepEqual([plain.result, plain.kind], ['VALID', 'receipt']);
    assert.equal((await verify({ jws: receipt, resource: url, amount: String(PRICE) })).result, 'VALID');
    const elsewhere = await verify({ jws: receipt, resource: `${svc.baseUrl}${BUNDLE}` });
    assert.equal(elsewhere.result, 'INVALID');
    assert.match(elsewhere.reason, /covers .*request-attestation.*, not .*evidence-bundle/);
    const dearer = await verify({ jws: receipt, amount: '250000000' });
    assert.equal(dearer.result, 'INVALID');
    assert.match(dearer.reason, /20000.*not 250000000/);
    assert.equal((await verify({ jws: receipt, kind: 'offer' })).result, 'INVALID');
  });

  it('8. a chain observer rebuilds the payment from the settle transaction and gets no artefact, no receipt and no URL; the buyer with its payment id gets the lost response again (decision P42)', async () => {
    const bought = await officialPayment(rail, await challengeOf(`${svc.baseUrl}${otherSubject}`));
    const paid = await pay(`${svc.baseUrl}${otherSubject}`, bought.header);
    assert.equal(paid.status, 200);
    const original = await paid.text();
    const transaction = decodeHeader<{ transaction: `0x${string}` }>(paid.headers.get('payment-response')).transaction;

    // Everything below comes from the public chain and a public challenge.
    const tx = await createPublicClient({ transport: http(rail.rpcUrl) }).getTransaction({ hash: transaction });
    const call = decodeFunctionData({ abi: TRANSFER_WITH_AUTHORIZATION, data: tx.input });
    const a = call.args as readonly unknown[];
    const signature =
      a.length === 9
        ? `0x${(a[7] as string).slice(2)}${(a[8] as string).slice(2)}${Number(a[6]).toString(16).padStart(2, '0')}`
        : (a[6] as string);
    const pub = await challengeOf(`${svc.baseUrl}/api/free-door`);
    const rebuilt = (id?: string) =>
      Buffer.from(
        JSON.stringify({
          x402Version: 2,
          resource: pub.resource,
          accepted: pub.accepts[0],
          payload: {
            signature,
            authorization: {
              from: getAddress(a[0] as string),
              to: getAddress(a[1] as string),
              value: String(a[2]),
              validAfter: String(a[3]),
              validBefore: String(a[4]),
              nonce: a[5],
            },
          },
          ...(id && { extensions: { 'payment-identifier': { info: { required: false, id } } } }),
        }),
      ).toString('base64');

    // Probing another URL names nothing the buyer paid for.
    const probe = await pay(`${svc.baseUrl}/api/free-door`, rebuilt());
    const probed = (await probe.json()) as Body;
    assert.equal(probe.status, 409);
    assert.equal(probed.code, 'payment_other_resource');
    assert.equal(probed.paid_for, undefined);
    assert.doesNotMatch(JSON.stringify(probed), /request-attestation/);
    // Even knowing (or guessing) the URL: no artefact, no receipt, with no id or its own.
    for (const header of [rebuilt(), rebuilt('observer-chosen-id-0001')]) {
      const stolen = await pay(`${svc.baseUrl}${otherSubject}`, header);
      const text = await stolen.text();
      assert.equal(stolen.status, 409, text.slice(0, 300));
      assert.equal((JSON.parse(text) as Body).code, 'payment_already_delivered');
      assert.equal(stolen.headers.get('payment-response'), null, 'no receipt');
      assert.notEqual(text, original);
    }
    // The buyer, whose response was lost, sends the same payment: same id, same bytes.
    const again = await pay(`${svc.baseUrl}${otherSubject}`, bought.header);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('x-gspc-replay'), '1');
    assert.equal(await again.text(), original);
  });

  it('9. a facilitator that settles and answers success:false without a transaction (the reference catch path): the buyer is never told to pay again; the same payment is pending, reconciled, then delivered, charged once; under a 5xx it is unknown at once', async () => {
    const p = await officialPayment(rail, await challengeOf(`${svc.baseUrl}${attest}`));
    const before = await payerBalance();
    rail.facilitatorMode('settle-lies');
    let first: Response;
    try {
      first = await pay(`${svc.baseUrl}${attest}`, p.header);
    } finally {
      rail.facilitatorMode('normal');
    }
    const told = (await first.json()) as Body;
    assert.equal(first.status, 402);
    assert.equal(told.code, 'settlement_failed');
    assert.doesNotMatch(told.error!, /made no transfer|nothing (was|is) (charged|moved)/);
    assert.equal(before - (await payerBalance()), PRICE, 'charged by the transfer the facilitator denied');
    assert.equal((await svc.ledger.get(keyOf(p.payload)))!.state, 'FAILED');

    // The same payment again: its nonce is used on chain, so it is pending, never a 402 to pay.
    const again = await pay(`${svc.baseUrl}${attest}`, p.header);
    const pending = (await again.json()) as Body;
    assert.equal(again.status, 409, JSON.stringify(pending));
    assert.equal(pending.code, 'payment_pending');
    assert.match(pending.error!, /Do not pay again/);
    assert.equal((await svc.ledger.get(keyOf(p.payload)))!.state, 'UNKNOWN');
    assert.equal(
      (await reconcileNow(svc.ledger)).entries.find((e) => e.nonce === keyOf(p.payload).nonce)?.action,
      'settled',
    );
    const delivered = await pay(`${svc.baseUrl}${attest}`, p.header);
    assert.equal(delivered.status, 200);
    assert.equal(before - (await payerBalance()), PRICE, 'charged once');

    const q = await officialPayment(rail, await challengeOf(`${svc.baseUrl}${attest}`));
    rail.facilitatorMode('settle-lies', { status: 500 });
    try {
      const r = await pay(`${svc.baseUrl}${attest}`, q.header);
      assert.equal(r.status, 502);
      assert.equal(((await r.json()) as Body).code, 'settlement_unknown');
    } finally {
      rail.facilitatorMode('normal');
    }
    assert.equal((await svc.ledger.get(keyOf(q.payload)))!.state, 'UNKNOWN');
  });

  it('10. a payment sent without a payment id, reconciled after a slow settle: the chain observer replaying it gets 409 payer_sign_in_required, another wallet signed in gets the 402, the buyer signed in with the official SIWX client gets the artefact and its receipt, charged once (decision P45)', async () => {
    const url = `${slow.baseUrl}${attest}`;
    const bought = await handPayment(rail, await challengeOf(url), { paymentId: false });
    const before = await payerBalance();
    rail.facilitatorMode('settle-slow', { delayMs: 1500 });
    try {
      const r = await pay(url, bought.header);
      assert.equal(r.status, 502, await r.clone().text());
      await sleep(1800);
    } finally {
      rail.facilitatorMode('normal');
    }
    const key = keyOf(bought.payload);
    assert.equal((await reconcileNow(slow.ledger)).entries.find((e) => e.nonce === key.nonce)?.action, 'settled');

    // The observer has the payload (it is in the calldata): no artefact, no receipt.
    const stolen = await pay(url, bought.header);
    const told = (await stolen.json()) as Body;
    assert.equal(stolen.status, 409, JSON.stringify(told));
    assert.equal(told.code, 'payer_sign_in_required');
    assert.equal(stolen.headers.get('payment-response'), null);
    assert.equal((await slow.ledger.get(key))!.artefact, null, 'kept for its payer');

    // Another wallet signs in through the official client: nothing it bought here, so the 402.
    const other = await wrapFetchWithSIWx(fetch, privateKeyToAccount(generatePrivateKey()))(url);
    const otherBody = (await other.json()) as Body;
    assert.equal(other.status, 402, JSON.stringify(otherBody));
    assert.match(otherBody.error!, /holds no settled payment/);

    // The buyer signs in with the paying wallet through the official client.
    const buyer = wrapFetchWithSIWx(fetch, privateKeyToAccount(rail.payer.privateKey));
    const got = await buyer(url);
    const text = await got.text();
    assert.equal(got.status, 200, text.slice(0, 300));
    assert.equal(got.headers.get('x-gspc-replay'), '1');
    const receipt = decodeHeader<{ success: boolean; payer: string; transaction: string }>(
      got.headers.get('payment-response'),
    );
    assert.equal(receipt.success, true);
    assert.equal(receipt.payer.toLowerCase(), key.payer);
    assert.equal((await slow.ledger.get(key))!.artefact_sha256 !== null, true);
    // Again (a new proof each time, as the client signs one per 402): the same bytes.
    assert.equal(await (await buyer(url)).text(), text);
    // And on another URL the buyer's wallet bought nothing: the 402.
    assert.equal((await buyer(`${slow.baseUrl}${otherSubject}`)).status, 402);
    assert.equal(before - (await payerBalance()), PRICE, 'charged once');
  });
});
