/**
 * payForArtefact's decisions that the local chain cannot provoke on demand: a reservation
 * reconcile parked as UNKNOWN while the settle was in flight, an artefact that cannot be built,
 * a conflicting payload, a reconciled settlement replayed without an artefact, a settle answer
 * naming a transaction without confirming it. The ledger is the
 * real SQLite store; the facilitator is scripted behind the service's own Facilitator interface
 * (the real one is exercised end to end in paid.e2e.test.ts).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { GspcError } from '../../src/core/errors.js';
import type { Facilitator, SettleOutcome } from '../../src/payments/facilitator.js';
import { payForArtefact, type PaidDeps, type PaidOutcome } from '../../src/payments/paid-request.js';
import { openLedger } from '../../src/store/open-ledger.js';
import { tempDir } from '../helpers/tmp.js';
import { artefact, body, payment, rail, request, requirements, TX } from './paid-request-fixture.js';
import { readPaymentHeader } from '../../src/payments/payment-header.js';

const ledger = await openLedger({ sqlitePath: join(tempDir(), 'ledger.sqlite') });
after(() => ledger.close());

function scripted(settle: () => Promise<SettleOutcome>): Facilitator & { settles: number } {
  const f = {
    settles: 0,
    verify: async () => ({ kind: 'valid' as const, payer: undefined }),
    settle: async () => {
      f.settles++;
      return settle();
    },
  };
  return f;
}

const deps = (facilitator: Facilitator): PaidDeps => ({
  ledger,
  facilitator,
  rail,
  boardKey: { healthy: false, kid: 'did:web:x#board-attestation-1', reason: 'test key absent' },
  now: () => new Date(),
  inFlightWaitMs: 200,
});
describe('payForArtefact', () => {
  it('a duplicate that arrives while the first verifies waits for its settlement and gets the artefact, not a 402', async () => {
    const p = payment();
    let settle!: () => void;
    const settledOnChain = new Promise<void>((r) => {
      settle = r;
    });
    let verifies = 0;
    let settles = 0;
    let duplicate: Promise<PaidOutcome> | undefined;
    // The duplicate looks the payment up while the first is being verified (nothing recorded
    // yet) and its verification is answered only after the first settled: the facilitator then
    // refuses the spent authorization, as the chain does. Its reservation finds the first's.
    const f: Facilitator = {
      verify: async () => {
        verifies++;
        if (verifies === 1) {
          duplicate = payForArtefact(request(p), deps(f));
          return { kind: 'valid', payer: undefined };
        }
        await settledOnChain;
        return { kind: 'invalid', reason: 'invalid_exact_evm_payload_authorization_nonce_used', message: undefined };
      },
      settle: async () => {
        settles++;
        settle();
        return { kind: 'settled', transaction: TX, network: rail.network, payer: p.payer };
      },
    };
    const a = await payForArtefact(request(p), deps(f));
    const d = await duplicate!;
    assert.equal(a.kind, 'delivered');
    assert.equal(d.kind, 'delivered', JSON.stringify(d));
    assert.equal(d.kind === 'delivered' && d.replay, true);
    assert.equal(verifies, 2);
    assert.equal(settles, 1, 'settled once');
  });

  it("settles when reconcile parked the reservation as UNKNOWN mid-settle: the facilitator's answer resolves it", async () => {
    const p = payment();
    const key = { payer: p.payer, nonce: p.nonce };
    const f = scripted(async () => {
      await ledger.markUnknown(key, { error: 'reservation abandoned (reconcile)', at: new Date().toISOString() });
      return { kind: 'settled', transaction: TX, network: rail.network, payer: p.payer };
    });
    const out = await payForArtefact(request(p), deps(f));
    assert.equal(out.kind, 'delivered');
    const r = (await ledger.get(key))!;
    assert.equal(r.state, 'SETTLED');
    assert.equal(r.transaction, TX);
    assert.equal(r.artefact_sha256, artefact.sha256);
  });

  it('an artefact that cannot be built reserves nothing and settles nothing', async () => {
    const p = payment();
    const f = scripted(async () => ({ kind: 'settled', transaction: TX, network: rail.network, payer: p.payer }));
    await assert.rejects(
      payForArtefact(
        request(p, () => {
          throw new Error('no release');
        }),
        deps(f),
      ),
      /no release/,
    );
    assert.equal(f.settles, 0);
    assert.equal(await ledger.get(p), undefined);
  });

  it('the artefact is made while the facilitator verifies, and only a verified payment is reserved: a refusal writes nothing, and the same payment may be sent again', async () => {
    const p = payment();
    const steps: string[] = [];
    let refuse = true;
    // The facilitator answers once the artefact is made (or after 5 s): with the artefact made
    // while it verifies, 'produced' comes first; made after, the answer waits 5 s and comes
    // first. A timer of a few ms raced the event loop on a loaded machine.
    let onProduced: (() => void) | undefined;
    const f: Facilitator = {
      verify: async () => {
        steps.push('verify sent');
        await new Promise<void>((r) => {
          onProduced = r;
          setTimeout(r, 5000).unref();
        });
        steps.push('verify answered');
        return refuse
          ? { kind: 'invalid', reason: 'invalid_exact_evm_payload_signature', message: undefined }
          : { kind: 'valid', payer: undefined };
      },
      settle: async () => {
        steps.push('settle');
        return { kind: 'settled', transaction: TX, network: rail.network, payer: p.payer };
      },
    };
    const watched = new Proxy(ledger, {
      get(target, name) {
        const v = Reflect.get(target, name) as unknown;
        if (typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          if (name === 'reserve' || name === 'markFailed') steps.push(name);
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const produce = () => {
      steps.push('produced');
      onProduced?.();
      return artefact;
    };
    const out = await payForArtefact(request(p, produce), { ...deps(f), ledger: watched });
    assert.equal(out.kind, 'rejected');
    assert.match(out.kind === 'rejected' ? out.reason : '', /refused the payment: invalid_exact_evm_payload_signature/);
    assert.deepEqual(steps, ['verify sent', 'produced', 'verify answered']);
    assert.equal(await ledger.get(p), undefined, 'a refused payload holds no (payer, nonce)');

    refuse = false;
    steps.length = 0;
    const again = await payForArtefact(request(p, produce), { ...deps(f), ledger: watched });
    assert.equal(again.kind, 'delivered');
    assert.deepEqual(steps, ['verify sent', 'produced', 'verify answered', 'reserve', 'settle']);
    assert.equal((await ledger.get(p))!.attempts, 1);
  });

  it('a verification that is not answered, or throws, writes nothing and settles nothing', async () => {
    const down = scripted(async () => ({ kind: 'settled', transaction: TX, network: rail.network, payer: 'x' }));
    down.verify = async () => ({ kind: 'unavailable', error: 'ECONNREFUSED' });
    const p = payment();
    await assert.rejects(
      payForArtefact(request(p), deps(down)),
      (e: GspcError) => e.code === 'facilitator_unavailable',
    );
    assert.equal(await ledger.get(p), undefined);

    const broken = scripted(async () => ({ kind: 'settled', transaction: TX, network: rail.network, payer: 'x' }));
    broken.verify = async () => {
      throw new Error('a bug');
    };
    const q = payment();
    await assert.rejects(payForArtefact(request(q), deps(broken)), /a bug/);
    assert.equal(await ledger.get(q), undefined);
    assert.equal(down.settles + broken.settles, 0);
  });

  it('the same authorization with another payload is a conflict, and nothing is settled', async () => {
    const p = payment();
    const f = scripted(async () => ({ kind: 'settled', transaction: TX, network: rail.network, payer: p.payer }));
    assert.equal((await payForArtefact(request(p), deps(f))).kind, 'delivered');
    const auth = (p.payload.payload as { authorization: Record<string, string> }).authorization;
    const other = readPaymentHeader({
      'payment-signature': Buffer.from(
        JSON.stringify({
          x402Version: 2,
          accepted: requirements,
          payload: { signature: `0x${'ef'.repeat(65)}`, authorization: auth },
        }),
      ).toString('base64'),
    })!;
    await assert.rejects(payForArtefact(request(other), deps(f)), (e: GspcError) => e.code === 'payment_conflict');
    assert.equal(f.settles, 1);
  });

  it('an unknown outcome is recorded, later requests are pending, and a reconciled settlement is delivered by producing the artefact once', async () => {
    const p = payment();
    const key = { payer: p.payer, nonce: p.nonce };
    const f = scripted(async () => ({ kind: 'unknown', error: 'timed out' }));
    await assert.rejects(payForArtefact(request(p), deps(f)), (e: GspcError) => e.code === 'settlement_unknown');
    await assert.rejects(payForArtefact(request(p), deps(f)), (e: GspcError) => e.code === 'payment_pending');
    await ledger.resolveUnknown(key, { state: 'SETTLED', transaction: TX, at: new Date().toISOString() });
    let produced = 0;
    const out = await payForArtefact(
      request(p, () => {
        produced++;
        return artefact;
      }),
      deps(f),
    );
    assert.equal(out.kind, 'delivered');
    assert.equal(out.kind === 'delivered' && out.replay, true);
    const again = await payForArtefact(
      request(p, () => {
        produced++;
        return artefact;
      }),
      deps(f),
    );
    assert.equal(again.kind === 'delivered' && again.body.equals(body), true);
    assert.equal(produced, 1);
    assert.equal(f.settles, 1);
  });

  it('a settle answer naming a transaction it did not see confirmed is UNKNOWN with that transaction, never FAILED; the buyer is told it may be charged', async () => {
    const p = payment();
    const f = scripted(async () => ({
      kind: 'pending',
      transaction: TX,
      reason: 'settlement_pending',
      message: 'receipt not seen within 20 s',
    }));
    await assert.rejects(
      payForArtefact(request(p), deps(f)),
      (e: GspcError) =>
        e.code === 'settlement_pending' &&
        e.details?.transaction === TX &&
        /not charged yet, or charged/.test(e.message) &&
        !/nothing was charged/.test(e.message),
    );
    const r = (await ledger.get(p))!;
    assert.deepEqual([r.state, r.transaction], ['UNKNOWN', TX]);
    await assert.rejects(
      payForArtefact(request(p), deps(f)),
      (e: GspcError) => e.code === 'payment_pending' && e.details?.transaction === TX,
    );
    assert.equal(f.settles, 1);
  });

  it('a reconciled settlement presented for another resource is refused naming both; nothing is produced or attached', async () => {
    const p = payment();
    const f = scripted(async () => ({ kind: 'unknown', error: 'timed out' }));
    await assert.rejects(payForArtefact(request(p), deps(f)), (e: GspcError) => e.code === 'settlement_unknown');
    await ledger.resolveUnknown(p, { state: 'SETTLED', transaction: TX, at: new Date().toISOString() });
    let produced = 0;
    const bundle = {
      ...request(p, () => {
        produced++;
        return artefact;
      }),
      product_id: 'gspc.evidence_bundle',
      sku_id: 'evidence_bundle',
      resourcePath: '/api/evidence-bundle?obligation=o&bundle=1',
      resourceUrl: 'http://x/api/evidence-bundle?obligation=o&bundle=1',
    };
    await assert.rejects(payForArtefact(bundle, deps(f)), (e: GspcError) => {
      const d = e.details as { paid_for: Record<string, string>; requested: Record<string, string> };
      return (
        e.code === 'payment_other_resource' &&
        d.paid_for.resource === '/api/request-attestation?subject=m' &&
        d.paid_for.amount_atomic === '20000' &&
        d.requested.product_id === 'gspc.evidence_bundle'
      );
    });
    assert.equal(produced, 0);
    assert.equal((await ledger.get(p))!.artefact, null);
    assert.equal(f.settles, 1);
  });

  it('an authorization open longer than maxTimeoutSeconds plus the skew is refused before the facilitator is asked', async () => {
    let verifies = 0;
    const f = scripted(async () => ({ kind: 'settled', transaction: TX, network: rail.network, payer: 'x' }));
    f.verify = async () => {
      verifies++;
      return { kind: 'valid', payer: undefined };
    };
    const late = payment(undefined, 300 + 120 + 60);
    const out = await payForArtefact(request(late), deps(f));
    assert.equal(out.kind, 'rejected');
    assert.match(
      out.kind === 'rejected' ? out.reason : '',
      /validBefore \d+ is later than now \+ maxTimeoutSeconds \(300 s\) \+ 120 s/,
    );
    assert.equal(verifies, 0);
    assert.equal(await ledger.get(late), undefined);
    assert.equal((await payForArtefact(request(payment(undefined, 300 + 100)), deps(f))).kind, 'delivered');
  });

  it('a settle never sent fails the reservation (the payer may retry) and is a 503-class error', async () => {
    const p = payment();
    const f = scripted(async () => ({ kind: 'not_sent', error: 'ECONNREFUSED' }));
    await assert.rejects(payForArtefact(request(p), deps(f)), (e: GspcError) => e.code === 'facilitator_unavailable');
    assert.equal((await ledger.get(p))!.state, 'FAILED');
  });
});
