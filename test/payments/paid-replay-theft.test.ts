/**
 * Issue 37, second review: a payment's signature and authorization are public in its settle
 * transaction's calldata, so presenting them again proves nothing (decision P42). Only a request
 * carrying the x402 payment-identifier id the payment was bought with gets its artefact again;
 * a failed settlement whose authorization turns out used is pending, never "pay again"; a
 * duplicate whose verification timed out, or a payload with a key the facilitator ignores, is
 * answered from the ledger. The ledger is the real SQLite store; the facilitator is scripted.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { after, beforeEach, describe, it } from 'node:test';
import type { GspcError } from '../../src/core/errors.js';
import type { Facilitator, SettleOutcome, VerifyOutcome } from '../../src/payments/facilitator.js';
import { payForArtefact, type PaidDeps, type PaidOutcome } from '../../src/payments/paid-request.js';
import { readPaymentHeader, type ReadPayment } from '../../src/payments/payment-header.js';
import { openLedger } from '../../src/store/open-ledger.js';
import { tempDir } from '../helpers/tmp.js';
import { artefact, body, payment, rail, request, TX } from './paid-request-fixture.js';

const ledger = await openLedger({ sqlitePath: join(tempDir(), 'ledger.sqlite') });
after(() => ledger.close());

// Fresh for each test: an id names one purchase, so two tests must not share one.
const freshId = (who: string) => `${who}-${randomBytes(8).toString('hex')}`;
let ID = '';
let OTHER_ID = '';
beforeEach(() => {
  ID = freshId('buyer');
  OTHER_ID = freshId('observer');
});

/** The same payment with another envelope: a payment-identifier id, and a change to its JSON. */
function variant(p: ReadPayment, o: { id?: string; edit?: (json: Record<string, any>) => void } = {}): ReadPayment {
  const json = structuredClone(p.payload) as Record<string, any>;
  if (o.id !== undefined) json.extensions = { 'payment-identifier': { info: { required: false, id: o.id } } };
  o.edit?.(json);
  return readPaymentHeader({ 'payment-signature': Buffer.from(JSON.stringify(json)).toString('base64') })!;
}

function facilitator(
  o: { verify?: () => Promise<VerifyOutcome>; settle?: () => Promise<SettleOutcome> } = {},
): Facilitator & { settles: number } {
  const f = {
    settles: 0,
    verify: o.verify ?? (async () => ({ kind: 'valid' as const, payer: undefined })),
    settle: async () => {
      f.settles++;
      return o.settle
        ? o.settle()
        : { kind: 'settled' as const, transaction: TX, network: rail.network, payer: undefined };
    },
  };
  return f;
}

const deps = (f: Facilitator): PaidDeps => ({
  ledger,
  facilitator: f,
  rail,
  boardKey: { healthy: false, kid: 'did:web:x#board-attestation-1', reason: 'test key absent' },
  now: () => new Date(),
  inFlightWaitMs: 300,
});

const OTHER_RESOURCE = {
  product_id: 'gspc.request_attestation',
  sku_id: 'request_attestation',
  resourcePath: '/api/request-attestation?subject=secret',
  resourceUrl: 'http://x/api/request-attestation?subject=secret',
};

async function refused(p: Promise<PaidOutcome>, code: string): Promise<GspcError> {
  let caught: GspcError | undefined;
  const outcome = await p.catch((e: GspcError) => {
    caught = e;
    return undefined;
  });
  assert.equal(caught?.code, code, `expected ${code}, got ${caught?.code ?? JSON.stringify(outcome?.kind)}`);
  return caught!;
}

describe('a public payload buys nothing (issue 37, decision P42)', () => {
  it('a delivered payment replayed without its payment id, or with another, is a 409 payment_already_delivered with no artefact; with its id, the artefact again', async () => {
    const bought = variant(payment(), { id: ID });
    const f = facilitator();
    const first = await payForArtefact(request(bought), deps(f));
    assert.equal(first.kind, 'delivered');

    // An observer of the chain rebuilds the payload from the calldata: no id, or its own.
    const observed = variant(bought, { edit: (j) => delete j.extensions });
    const e = await refused(payForArtefact(request(observed), deps(f)), 'payment_already_delivered');
    assert.match(e.message, /payment-identifier/);
    assert.doesNotMatch(JSON.stringify(e.details ?? {}), /resource|receipt|subject=/);
    await refused(payForArtefact(request(variant(bought, { id: OTHER_ID })), deps(f)), 'payment_already_delivered');

    // The buyer who lost the response sends the same payment with the same id.
    const again = await payForArtefact(request(variant(bought, { id: ID })), deps(f));
    assert.equal(again.kind, 'delivered');
    assert.equal(again.kind === 'delivered' && again.replay, true);
    assert.deepEqual(again.kind === 'delivered' && again.body, body);
    assert.equal(f.settles, 1, 'settled once');
  });

  it('the same payment id with another payment (a new authorization) is a 409 payment_conflict and settles nothing: the id is the purchase, not the signature', async () => {
    const id = 'retry-under-one-id-0001';
    const f = facilitator();
    assert.equal((await payForArtefact(request(variant(payment(), { id })), deps(f))).kind, 'delivered');
    const resigned = variant(payment(), { id });
    const e = await refused(payForArtefact(request(resigned), deps(f)), 'payment_conflict');
    assert.match(e.message, /payment-identifier id was already used/);
    assert.equal(f.settles, 1, 'never charged twice');
    assert.equal(await ledger.get(resigned), undefined, 'nothing reserved');
  });

  it('two new payments racing under one id: one is charged and delivered, the other is a 409 payment_conflict and settles nothing (the unique index, schema 6)', async () => {
    const id = freshId('raced');
    const f = facilitator();
    const outcomes = await Promise.allSettled(
      [payment(), payment()].map((p) => payForArtefact(request(variant(p, { id })), deps(f))),
    );
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled' && o.value.kind === 'delivered').length, 1);
    const refusedOnes = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
    assert.deepEqual(
      refusedOnes.map((o) => (o.reason as GspcError).code),
      ['payment_conflict'],
    );
    assert.equal(f.settles, 1, 'charged once');
  });

  it('a payment sent without an id is delivered once: a replay of it is refused', async () => {
    const p = variant(payment(), { edit: (j) => delete j.extensions });
    const f = facilitator();
    assert.equal((await payForArtefact(request(p), deps(f))).kind, 'delivered');
    await refused(payForArtefact(request(p), deps(f)), 'payment_already_delivered');
  });

  it('presented for another resource, the 409 names what was paid for only to the holder of its payment id', async () => {
    const bought = variant(payment(), { id: ID });
    const f = facilitator();
    assert.equal((await payForArtefact({ ...request(bought), ...OTHER_RESOURCE }, deps(f))).kind, 'delivered');
    const probe = await refused(
      payForArtefact(request(variant(bought, { id: OTHER_ID })), deps(f)),
      'payment_other_resource',
    );
    assert.doesNotMatch(probe.message, /secret/);
    assert.doesNotMatch(JSON.stringify(probe.details ?? {}), /secret/);
    assert.equal((probe.details as Record<string, unknown> | undefined)?.paid_for, undefined);
    const own = await refused(payForArtefact(request(bought), deps(f)), 'payment_other_resource');
    assert.equal(
      ((own.details as Record<string, Record<string, string>>).paid_for ?? {}).resource,
      OTHER_RESOURCE.resourcePath,
    );
  });

  it('a payment settled by reconcile and never delivered goes to the request carrying the id it was reserved with', async () => {
    const bought = variant(payment(), { id: ID });
    const lost = facilitator({ settle: async () => ({ kind: 'unknown', error: 'reset' }) });
    await refused(payForArtefact(request(bought), deps(lost)), 'settlement_unknown');
    await ledger.resolveUnknown(bought, { state: 'SETTLED', transaction: TX, at: new Date().toISOString() });

    const f = facilitator();
    const observed = variant(bought, { edit: (j) => delete j.extensions });
    await refused(payForArtefact(request(observed), deps(f)), 'payment_already_delivered');
    await refused(payForArtefact(request(variant(bought, { id: OTHER_ID })), deps(f)), 'payment_already_delivered');
    const delivered = await payForArtefact(request(bought), deps(f));
    assert.equal(delivered.kind, 'delivered');
    assert.equal((await ledger.get(bought))!.artefact_sha256, artefact.sha256);
    assert.equal((await payForArtefact(request(bought), deps(f))).kind, 'delivered', 'and again with its id');
    await refused(payForArtefact(request(observed), deps(f)), 'payment_already_delivered');
  });
});

describe('the payer signed in is the buyer (decision P45)', () => {
  const PAYER = `0x${'11'.repeat(20)}`; // the fixture's authorization.from
  const signedIn = (p: ReadPayment, who = PAYER) => ({ ...request(p), signedInAs: who });

  it('settled by reconcile, never delivered, sent without an id: no replay has it (409 payer_sign_in_required), whatever id it carries; the payer signed in does', async () => {
    const bought = variant(payment(), { edit: (j) => delete j.extensions });
    const lost = facilitator({ settle: async () => ({ kind: 'unknown', error: 'reset' }) });
    await refused(payForArtefact(request(bought), deps(lost)), 'settlement_unknown');
    await ledger.resolveUnknown(bought, { state: 'SETTLED', transaction: TX, at: new Date().toISOString() });

    const f = facilitator();
    // Rebuilt from the chain: the same payload, with no id, an id of the observer's, or signed in
    // by the observer's wallet.
    const e = await refused(payForArtefact(request(bought), deps(f)), 'payer_sign_in_required');
    assert.match(e.message, /SIGN-IN-WITH-X/);
    await refused(payForArtefact(request(variant(bought, { id: OTHER_ID })), deps(f)), 'payer_sign_in_required');
    await refused(payForArtefact(signedIn(bought, `0x${'99'.repeat(20)}`), deps(f)), 'payer_sign_in_required');
    assert.equal((await ledger.get(bought))!.artefact, null, 'nothing attached');

    const delivered = await payForArtefact(signedIn(bought), deps(f));
    assert.equal(delivered.kind, 'delivered');
    assert.deepEqual(delivered.kind === 'delivered' && delivered.body, body);
    assert.equal((await ledger.get(bought))!.artefact_sha256, artefact.sha256);
    await refused(payForArtefact(request(bought), deps(f)), 'payment_already_delivered');
    assert.equal((await payForArtefact(signedIn(bought), deps(f))).kind, 'delivered', 'and again to its payer');
    assert.equal(f.settles, 0, 'never settled again');
  });

  it('two sign-ins by the payer at once, each producing its own bytes: both get the one artefact kept (found by review: the second was a 409 ledger_conflict)', async () => {
    const bought = variant(payment(), { edit: (j) => delete j.extensions });
    const lost = facilitator({ settle: async () => ({ kind: 'unknown', error: 'reset' }) });
    await refused(payForArtefact(request(bought), deps(lost)), 'settlement_unknown');
    await ledger.resolveUnknown(bought, { state: 'SETTLED', transaction: TX, at: new Date().toISOString() });
    let n = 0;
    const produce = () => {
      const b = Buffer.from(`{"made":${++n}}\n`);
      return { body: b, sha256: createHash('sha256').update(b).digest('hex') };
    };
    const f = facilitator();
    const both = await Promise.all(
      [1, 2].map(() => payForArtefact({ ...request(bought, produce), signedInAs: PAYER }, deps(f))),
    );
    assert.deepEqual(
      both.map((o) => o.kind),
      ['delivered', 'delivered'],
    );
    const kept = (await ledger.get(bought))!.artefact!;
    for (const o of both) assert.deepEqual(o.kind === 'delivered' && o.body, kept);
  });

  it('a delivered payment sent without an id goes again to its payer signed in, never to another wallet', async () => {
    const p = variant(payment(), { edit: (j) => delete j.extensions });
    const f = facilitator();
    assert.equal((await payForArtefact(request(p), deps(f))).kind, 'delivered');
    await refused(payForArtefact(signedIn(p, `0x${'98'.repeat(20)}`), deps(f)), 'payment_already_delivered');
    const again = await payForArtefact(signedIn(p), deps(f));
    assert.equal(again.kind === 'delivered' && again.replay, true);
    assert.equal(f.settles, 1);
  });

  it('presented for another resource, the 409 names what was paid for to its payer signed in', async () => {
    const bought = variant(payment(), { edit: (j) => delete j.extensions });
    const f = facilitator();
    assert.equal((await payForArtefact({ ...request(bought), ...OTHER_RESOURCE }, deps(f))).kind, 'delivered');
    const other = await refused(
      payForArtefact(signedIn(bought, `0x${'97'.repeat(20)}`), deps(f)),
      'payment_other_resource',
    );
    assert.equal((other.details as Record<string, unknown>).paid_for, undefined);
    const own = await refused(payForArtefact(signedIn(bought), deps(f)), 'payment_other_resource');
    assert.equal(
      ((own.details as Record<string, Record<string, string>>).paid_for ?? {}).resource,
      OTHER_RESOURCE.resourcePath,
    );
  });
});

describe('told the truth about money (issue 37, findings 2-4)', () => {
  it('a FAILED payment sent again and refused because its nonce is used becomes UNKNOWN: 409 payment_pending, never a 402 to pay again', async () => {
    const p = variant(payment(), { id: ID });
    const failing = facilitator({
      settle: async () => ({ kind: 'failed', reason: 'unexpected_settle_error', message: 'rpc timeout' }),
    });
    assert.equal((await payForArtefact(request(p), deps(failing))).kind, 'settle_failed');
    assert.equal((await ledger.get(p))!.state, 'FAILED');

    const used = facilitator({
      verify: async () => ({ kind: 'invalid', reason: 'invalid_exact_evm_nonce_already_used', message: undefined }),
    });
    const e = await refused(payForArtefact(request(p), deps(used)), 'payment_pending');
    assert.doesNotMatch(e.message, /nothing (was|is) (charged|settled)/);
    assert.equal((await ledger.get(p))!.state, 'UNKNOWN');
    assert.equal(used.settles, 0);
  });

  it('a settle refused because the nonce is used is UNKNOWN (502 settlement_unknown), never FAILED with "send it again"', async () => {
    const p = variant(payment(), { id: ID });
    const f = facilitator({
      settle: async () => ({ kind: 'failed', reason: 'invalid_exact_evm_nonce_already_used', message: undefined }),
    });
    const e = await refused(payForArtefact(request(p), deps(f)), 'settlement_unknown');
    assert.match(e.message, /Do not pay again/);
    assert.equal((await ledger.get(p))!.state, 'UNKNOWN');
  });

  it('a duplicate whose verification times out after the first settled is answered from the ledger, not "nothing was charged"', async () => {
    const p = variant(payment(), { id: ID });
    let duplicate: Promise<PaidOutcome> | undefined;
    let settled!: () => void;
    const onChain = new Promise<void>((r) => {
      settled = r;
    });
    let verifies = 0;
    const f: Facilitator = {
      verify: async () => {
        if (++verifies === 1) {
          duplicate = payForArtefact(request(p), deps(f));
          return { kind: 'valid', payer: undefined };
        }
        await onChain;
        return { kind: 'unavailable', error: 'the verify timed out' };
      },
      settle: async () => {
        settled();
        return { kind: 'settled', transaction: TX, network: rail.network, payer: undefined };
      },
    };
    assert.equal((await payForArtefact(request(p), deps(f))).kind, 'delivered');
    const d = await duplicate!;
    assert.equal(d.kind, 'delivered', JSON.stringify(d));
  });

  it('a key inside payload.payload the facilitator ignores is the same payment: the genuine header is a replay, and a conflict never says nothing is settled', async () => {
    const genuine = variant(payment(), { id: ID });
    const padded = variant(genuine, {
      edit: (j) => {
        j.payload.extra = 'x';
      },
    });
    const f = facilitator();
    assert.equal((await payForArtefact(request(padded), deps(f))).kind, 'delivered');
    const replay = await payForArtefact(request(genuine), deps(f));
    assert.equal(replay.kind, 'delivered', JSON.stringify(replay));
    assert.equal(f.settles, 1);

    const otherSignature = variant(genuine, {
      edit: (j) => {
        j.payload.signature = `0x${'ef'.repeat(65)}`;
      },
    });
    const e = await refused(payForArtefact(request(otherSignature), deps(f)), 'payment_conflict');
    assert.doesNotMatch(e.message, /nothing is settled/);
    assert.match(e.message, /settled on chain/);
  });
});
