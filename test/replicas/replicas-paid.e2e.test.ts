/**
 * Exactly once across replicas (issue 17): three `gspc serve` on one PostgreSQL ledger behind
 * nginx, paid on the local anvil chain with Circle's USDC contract and the rail's real x402
 * facilitator, payments built by the official x402 client.
 *
 * - One payment sent at once to every replica directly and through the balancer: the same
 *   artefact bytes everywhere, one transfer on chain, one SETTLED record.
 * - Many fresh payments in parallel, each sent to all replicas at once (GSPC_TEST_REPLICA_PAYMENTS,
 *   default 100; 1,000 in `npm run bench`, decision X4): the same per payment, the chain's total equals the ledger's, and every replica
 *   reports the same revenue.
 * - A replica killed with SIGKILL in the middle of a settle, again and again
 *   (GSPC_TEST_REPLICA_KILLS, default 50): after reconciling against the chain, every payment the
 *   chain charged has its artefact retrievable from a surviving replica, and the chain charged
 *   exactly the payments the ledger holds as SETTLED.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { type LocalRail, startLocalRail } from '../../demo/local-rail/index.js';
import { createChainReader } from '../../src/payments/chain-reader.js';
import { reconcile } from '../../src/payments/reconcile.js';
import { openLedger } from '../../src/store/open-ledger.js';
import { noAnvil } from '../helpers/chain.js';
import { nginxMissing } from '../helpers/nginx.js';
import { challengeOf, officialPayment } from '../payments/paid-harness.js';
import { probePostgres } from '../store/postgres-harness.js';
import { startTopology, type Topology } from './topology.js';

const pgProbe = await probePostgres();
const skip =
  noAnvil() ?? nginxMissing() ?? (pgProbe.ok ? undefined : `PostgreSQL is not reachable (${pgProbe.reason})`);
const PAYMENTS = Number(process.env.GSPC_TEST_REPLICA_PAYMENTS ?? 100);
const KILLS = Number(process.env.GSPC_TEST_REPLICA_KILLS ?? 50);
const PRICE = 20_000n; // request_attestation outside any promo (GSPC_PROMO=none)

let rail: LocalRail | undefined;
let t: Topology | undefined;
if (skip === undefined) {
  rail = await startLocalRail({ payerUsdc: PRICE * BigInt(PAYMENTS + KILLS + 100) });
  after(() => rail!.stop());
  t = await startTopology({
    GSPC_PAY_TO: rail.payTo.address,
    GSPC_FACILITATOR_URL: rail.facilitatorUrl!,
    GSPC_ASSET: rail.usdc,
    GSPC_PROMO: 'none',
    GSPC_FACILITATOR_TIMEOUT_MS: '10000',
  });
}

/** A paid product of the demo: a commission receipt for a model the board measured. */
async function paidPath(): Promise<string> {
  const bundle = (await (await fetch(`${t!.lb}/cards-bundle.json`)).json()) as {
    cards: { surface: string; subject: string; sig_ed25519: string | null }[];
  };
  const subject = bundle.cards.find((c) => c.surface === 'board.measurement' && c.sig_ed25519)!.subject;
  return `/api/request-attestation?subject=${encodeURIComponent(subject)}`;
}

/** Sends one payment to every replica directly and through the balancer, all at once. */
async function everywhere(path: string, header: string): Promise<{ status: number; body: string }[]> {
  const targets = [...t!.replicas.map((r) => r.url), t!.lb, t!.lb];
  return Promise.all(
    targets.map(async (base) => {
      const r = await fetch(`${base}${path}`, { headers: { 'payment-signature': header } });
      return { status: r.status, body: await r.text() };
    }),
  );
}

const payerBalance = () => rail!.balanceOf(rail!.payer.address);

describe('exactly once across replicas', { skip }, () => {
  it('one payment at every replica and the balancer at once: one artefact, one transfer, one SETTLED record', async () => {
    const path = await paidPath();
    const { header } = await officialPayment(rail!, await challengeOf(`${t!.lb}${path}`));
    const before = await payerBalance();
    const answers = await everywhere(path, header);
    assert.deepEqual(
      answers.map((a) => a.status),
      answers.map(() => 200),
      answers.map((a) => a.body.slice(0, 200)).join('\n'),
    );
    assert.equal(new Set(answers.map((a) => a.body)).size, 1, 'the same artefact bytes from every replica');
    assert.equal(before - (await payerBalance()), PRICE, 'one transfer on chain');
    const ledger = await openLedger({ databaseUrl: t!.database });
    try {
      const settled = await ledger.list({ state: 'SETTLED', withArtefacts: false });
      assert.equal(settled.length, 1);
      assert.deepEqual(
        (await ledger.history(settled[0]!)).map((h) => h.to),
        ['RESERVED', 'SETTLED'],
      );
    } finally {
      await ledger.close();
    }
  });

  it(`${PAYMENTS} fresh payments, each sent to every replica at once: one transfer and one record each, equal revenue everywhere`, async () => {
    const path = await paidPath();
    const challenge = await challengeOf(`${t!.lb}${path}`);
    const before = await payerBalance();
    const ledger = await openLedger({ databaseUrl: t!.database });
    const settledBefore = (await ledger.list({ state: 'SETTLED', withArtefacts: false })).length;
    let next = 0;
    const mismatched: string[] = [];
    const worker = async () => {
      for (let i = next++; i < PAYMENTS; i = next++) {
        const { header } = await officialPayment(rail!, challenge);
        const answers = await everywhere(path, header);
        if (answers.some((a) => a.status !== 200) || new Set(answers.map((a) => a.body)).size !== 1)
          mismatched.push(
            `payment ${i}: ${answers.map((a) => (a.status === 200 ? '200' : `${a.status} ${a.body.slice(0, 160)}`)).join(', ')}`,
          );
      }
    };
    try {
      await Promise.all(Array.from({ length: 8 }, worker));
      assert.deepEqual(mismatched, []);
      const charged = before - (await payerBalance());
      assert.equal(charged, PRICE * BigInt(PAYMENTS), 'the chain moved exactly one price per payment');
      const settled = await ledger.list({ state: 'SETTLED', withArtefacts: false });
      assert.equal(settled.length - settledBefore, PAYMENTS, 'one SETTLED record per payment');
      assert.equal(new Set(settled.map((r) => r.transaction)).size, settled.length, 'one transaction per record');
      // Everything but the moment each replica built its answer (as_of).
      const revenue = await Promise.all(
        t!.replicas.map(async (r) => {
          const doc = (await (await fetch(`${r.url}/api/revenue`)).json()) as Record<string, unknown>;
          delete doc.as_of;
          return JSON.stringify(doc);
        }),
      );
      assert.equal(new Set(revenue).size, 1, 'every replica reports the same revenue');
      assert.match(revenue[0]!, new RegExp(`"settlements_total":${settledBefore + PAYMENTS}\\b`));
    } finally {
      await ledger.close();
    }
  });

  it(`a replica killed in the middle of a settle, ${KILLS} times: every charged payment's artefact is retrievable after reconcile`, async () => {
    const path = await paidPath();
    const challenge = await challengeOf(`${t!.lb}${path}`);
    rail!.facilitatorMode('settle-slow', { delayMs: 300 });
    const before = await payerBalance();
    const headers: string[] = [];
    const restarts: Promise<unknown>[] = [];
    for (let i = 0; i < KILLS; i++) {
      const slot = i % t!.replicas.length;
      await restarts[i - t!.replicas.length]; // this slot's previous restart has answered
      const replica = t!.replicas[slot]!;
      const { header } = await officialPayment(rail!, challenge);
      headers.push(header);
      const pending = fetch(`${replica.url}${path}`, { headers: { 'payment-signature': header } }).catch(() => null);
      // Somewhere between before the settle call and while the facilitator is settling.
      await new Promise((r) => setTimeout(r, 20 + ((i * 37) % 400)));
      process.kill(replica.child.pid!, 'SIGKILL');
      await pending;
      restarts[i] = t!.restart(slot);
    }
    await Promise.all(restarts);
    rail!.facilitatorMode('normal');
    // Settlements the facilitator was still making when their replica died: wait until the
    // payer's balance has not moved for a second.
    for (let last = -1n, now = await payerBalance(); now !== last; last = now, now = await payerBalance())
      await new Promise((r) => setTimeout(r, 1000));

    // What a killed replica left RESERVED is resolved against the chain (the clock moved past
    // the staleness bound: a reconcile never takes a payment a live request may still settle).
    const ledger = await openLedger({ databaseUrl: t!.database });
    try {
      const report = await reconcile({
        ledger,
        chain: createChainReader(rail!.rpcUrl),
        now: new Date(Date.now() + 120_000),
        staleAfterMs: 60_000,
      });
      assert.equal(report.counts.error, 0, JSON.stringify(report));
    } finally {
      await ledger.close();
    }
    // Every payment again, at the balancer: the charged ones answer their artefact; a payment a
    // replica died before settling is settled now (its authorization was never used) or, when
    // its reservation is what the reconcile found unused but still valid, stays pending (409).
    let delivered = 0;
    for (const header of headers) {
      const r = await fetch(`${t!.lb}${path}`, { headers: { 'payment-signature': header } });
      if (r.status === 200) delivered++;
      else assert.equal(r.status, 409, `a payment neither delivered nor pending: ${r.status} ${await r.text()}`);
    }
    const charged = before - (await payerBalance());
    assert.equal(
      charged,
      PRICE * BigInt(delivered),
      'the chain charged exactly the payments that deliver their artefact',
    );
    assert.ok(delivered > 0, `${delivered} of ${KILLS} payments delivered`);
  });
});
