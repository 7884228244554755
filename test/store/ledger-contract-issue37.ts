/**
 * Contract: what issue 37 asks of the ledger, on both backends. A reopened FAILED record
 * describes the attempt that reopened it (product, sku, resource, amount); an UNKNOWN record keeps
 * the transaction a facilitator named without confirming it; reconcile can reopen a FAILED record
 * whose authorization was used on chain; an open invoice is found again by its request's hash, so
 * a repeated request never stores its artefact twice (schema 4).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { rejectsWith } from './ledger-harness.js';
import type { ContractContext } from './ledger-contract-settlements.js';
import { artefact, invoice, newKey, reservation, sha256, t } from './ledger-fixtures.js';

const TX = `0x${'ab'.repeat(32)}`;
const newRef = () => `INV-${randomBytes(6).toString('hex')}`;

export function issue37Contract(ctx: ContractContext): void {
  describe('issue 37: a payment is bound to what it bought; the ledger never contradicts the chain', () => {
    it('the payment-identifier hash (schema 5): kept from the reservation, never taken by a reopen, set by the first attach of a reconciled settlement, never by markSettled', async () => {
      const ledger = ctx.ledger();
      const [a, b, c] = [sha256('id-a'), sha256('id-b'), sha256('id-c')];
      const key = newKey();
      const first = await ledger.reserve(reservation(key, { payment_id_sha256: a }));
      assert.equal(first.record.payment_id_sha256, a);
      await ledger.markFailed(key, { error: 'refused', at: t(1) });
      // The payload is public (a settle that broadcast, then failed): another id cannot reopen it.
      const taken = await ledger.reserve(reservation(key, { payment_id_sha256: b, at: t(2) }));
      assert.equal(taken.outcome, 'conflict');
      const stolen = await ledger.reserve(reservation(key, { at: t(2) }));
      assert.equal(stolen.outcome, 'conflict', 'no id cannot reopen a record sent with one');
      assert.equal((await ledger.get(key))!.state, 'FAILED');
      const reopened = await ledger.reserve(reservation(key, { payment_id_sha256: a, at: t(2) }));
      assert.equal(reopened.record.payment_id_sha256, a);
      const settled = await ledger.markSettled(key, { ...artefact(10), transaction: TX, at: t(3) });
      assert.equal(settled.payment_id_sha256, a);

      const none = newKey();
      assert.equal((await ledger.reserve(reservation(none))).record.payment_id_sha256, null);
      await ledger.markUnknown(none, { error: 'lost', at: t(1) });
      await ledger.resolveUnknown(none, { state: 'SETTLED', transaction: TX, at: t(2) });
      const attached = await ledger.attachArtefact(none, { ...artefact(10), payment_id_sha256: c, at: t(3) });
      assert.equal(attached.payment_id_sha256, c);
      assert.equal((await ledger.get(none))!.payment_id_sha256, c);
      await rejectsWith(
        ledger.reserve(reservation(newKey(), { payment_id_sha256: 'not-a-hash' })),
        'ledger_input_invalid',
      );
      // Found by the id's hash: the record that holds it.
      assert.equal((await ledger.findByPaymentId(a))?.nonce, key.nonce);
      assert.equal((await ledger.findByPaymentId(c))?.nonce, none.nonce);
      assert.equal(await ledger.findByPaymentId(b), undefined, 'a refused reopen took nothing');
      assert.equal(await ledger.findByPaymentId(sha256('never')), undefined);
      await rejectsWith(ledger.findByPaymentId('not-a-hash'), 'ledger_input_invalid');
    });

    it('one payment per payment-identifier id (schema 6): a new payment under a held id is id_taken, naming the holder, and writes nothing; ten racing new payments under one id reserve once', async () => {
      const ledger = ctx.ledger();
      const id = sha256(`one-id-${newKey().nonce}`);
      const holder = newKey();
      assert.equal((await ledger.reserve(reservation(holder, { payment_id_sha256: id }))).outcome, 'reserved');
      const late = newKey();
      const taken = await ledger.reserve(reservation(late, { payment_id_sha256: id }));
      assert.equal(taken.outcome, 'id_taken');
      assert.equal(taken.record.nonce, holder.nonce);
      assert.equal(await ledger.get(late), undefined, 'nothing written');
      assert.equal((await ledger.reserve(reservation(holder, { payment_id_sha256: id }))).outcome, 'exists');

      const raced = sha256(`raced-${newKey().nonce}`);
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, () => ledger.reserve(reservation(newKey(), { payment_id_sha256: raced }))),
      );
      assert.equal(outcomes.filter((o) => o.outcome === 'reserved').length, 1);
      assert.equal(outcomes.filter((o) => o.outcome === 'id_taken').length, 9);

      // Ten duplicates of ONE payment (one key, one id) at once, as replicas receive it: one
      // reserves, the others are that payment (exists), never id_taken (found by the replicas
      // test: PostgreSQL reports the id index before the (payer, nonce) arbiter sees the row).
      const one = newKey();
      const same = sha256(`same-${one.nonce}`);
      const dupes = await Promise.all(
        Array.from({ length: 10 }, () => ledger.reserve(reservation(one, { payment_id_sha256: same }))),
      );
      assert.deepEqual(dupes.map((o) => o.outcome).sort(), ['reserved', ...Array(9).fill('exists')].sort());
    });

    it('findSettledFor: a payer’s SETTLED record for one product and resource, one not yet delivered first, then the latest; never another payer’s, product’s or resource’s, nor one not SETTLED (decision P45)', async () => {
      const ledger = ctx.ledger();
      const payer = newKey().payer;
      const key = () => ({ payer, nonce: newKey().nonce });
      const resource = '/api/request-attestation?subject=m1';
      const of = (over: Record<string, string>) => ({
        payer: payer.toUpperCase().replace('0X', '0x'),
        product_id: 'evidence-card',
        resource,
        ...over,
      });
      assert.equal(await ledger.findSettledFor(of({})), undefined);
      const delivered = key();
      await ledger.reserve(reservation(delivered, { resource }));
      await ledger.markSettled(delivered, { ...artefact(1), transaction: TX, at: t(1) });
      assert.equal((await ledger.findSettledFor(of({})))?.nonce, delivered.nonce, 'checksummed or not, the same payer');
      const later = key();
      await ledger.reserve(reservation(later, { resource, at: t(2) }));
      await ledger.markSettled(later, { ...artefact(2), transaction: TX, at: t(3) });
      assert.equal((await ledger.findSettledFor(of({})))?.nonce, later.nonce, 'the latest');
      const owed = key();
      await ledger.reserve(reservation(owed, { resource, at: t(4) }));
      await ledger.markUnknown(owed, { error: 'lost', at: t(5) });
      assert.equal((await ledger.findSettledFor(of({})))?.nonce, later.nonce, 'UNKNOWN is not settled');
      await ledger.resolveUnknown(owed, { state: 'SETTLED', transaction: TX, at: t(6) });
      const pending = key();
      await ledger.reserve(reservation(pending, { resource, at: t(7) }));
      await ledger.markSettled(pending, { ...artefact(3), transaction: TX, at: t(8) });
      assert.equal((await ledger.findSettledFor(of({})))?.nonce, owed.nonce, 'one never delivered comes first');
      assert.equal(await ledger.findSettledFor(of({ product_id: 'other' })), undefined);
      assert.equal(await ledger.findSettledFor(of({ resource: `${resource}x` })), undefined);
      assert.equal(await ledger.findSettledFor(of({ payer: newKey().payer })), undefined);
      await rejectsWith(ledger.findSettledFor(of({ payer: 'nobody' })), 'ledger_input_invalid');
    });

    it('a FAILED record reopened by its id for another product and resource takes the new attempt’s fields; the history keeps both; without an id it is reopened only for what it was', async () => {
      const ledger = ctx.ledger();
      const bare = newKey();
      await ledger.reserve(reservation(bare, { product_id: 'gspc.request_attestation', resource: '/api/a?subject=m' }));
      await ledger.markFailed(bare, { error: 'settle refused', at: t(1) });
      const elsewhere = await ledger.reserve(
        reservation(bare, { product_id: 'gspc.issuance', resource: '/api/eunomia-data?feed=1', at: t(2) }),
      );
      assert.equal(elsewhere.outcome, 'conflict', 'a public payload cannot be spent on another product');
      const same = await ledger.reserve(
        reservation(bare, { product_id: 'gspc.request_attestation', resource: '/api/a?subject=m', at: t(2) }),
      );
      assert.equal(same.outcome, 'reserved');

      const id = sha256('buyer');
      const key = newKey();
      await ledger.reserve(
        reservation(key, {
          product_id: 'gspc.request_attestation',
          resource: '/api/a?subject=m',
          payment_id_sha256: id,
        }),
      );
      await ledger.markFailed(key, { error: 'settle refused', at: t(1) });
      const again = await ledger.reserve(
        reservation(key, {
          payment_id_sha256: id,
          product_id: 'gspc.issuance',
          sku_id: 'issuance',
          resource: '/api/eunomia-data?feed=1',
          self_funded: true,
          at: t(2),
        }),
      );
      assert.equal(again.outcome, 'reserved');
      const r = again.record;
      assert.deepEqual(
        [r.product_id, r.sku_id, r.resource, r.attempts, r.self_funded, r.at],
        ['gspc.issuance', 'issuance', '/api/eunomia-data?feed=1', 2, true, t(0)],
      );
      const settled = await ledger.markSettled(key, { ...artefact(10), transaction: TX, at: t(3) });
      assert.equal(settled.resource, '/api/eunomia-data?feed=1');
      assert.deepEqual(
        (await ledger.history(key)).map((e) => `${e.from}>${e.to}#${e.attempt}`),
        ['null>RESERVED#1', 'RESERVED>FAILED#1', 'FAILED>RESERVED#2', 'RESERVED>SETTLED#2'],
      );
    });

    it('UNKNOWN keeps a transaction named without confirmation; resolving to FAILED clears it, to SETTLED keeps the chain’s', async () => {
      const ledger = ctx.ledger();
      const named = newKey();
      await ledger.reserve(reservation(named));
      const unknown = await ledger.markUnknown(named, { error: 'settlement_pending', transaction: TX, at: t(1) });
      assert.deepEqual([unknown.state, unknown.transaction], ['UNKNOWN', TX]);
      assert.equal((await ledger.history(named)).at(-1)!.transaction, TX);
      const failed = await ledger.resolveUnknown(named, { state: 'FAILED', error: 'expired unused', at: t(2) });
      assert.deepEqual([failed.state, failed.transaction], ['FAILED', null]);
      const other = newKey();
      await ledger.reserve(reservation(other));
      await ledger.markUnknown(other, { error: 'settlement_pending', transaction: TX, at: t(1) });
      const settled = await ledger.resolveUnknown(other, {
        state: 'SETTLED',
        transaction: `0x${'cd'.repeat(32)}`,
        at: t(2),
      });
      assert.equal(settled.transaction, `0x${'cd'.repeat(32)}`);
    });

    it('reopenUnknown moves FAILED → UNKNOWN with the transaction found, and nothing else', async () => {
      const ledger = ctx.ledger();
      const key = newKey();
      await ledger.reserve(reservation(key));
      await rejectsWith(ledger.reopenUnknown(key, { error: 'used', at: t(1) }), 'ledger_transition_invalid');
      await ledger.markFailed(key, { error: 'refused', at: t(1) });
      const reopened = await ledger.reopenUnknown(key, { error: 'used on chain', transaction: TX, at: t(2) });
      assert.deepEqual([reopened.state, reopened.transaction, reopened.error], ['UNKNOWN', TX, 'used on chain']);
      const settled = await ledger.resolveUnknown(key, { state: 'SETTLED', transaction: TX, at: t(3) });
      assert.equal(settled.state, 'SETTLED');
      assert.deepEqual(
        (await ledger.history(key)).map((e) => `${e.from}>${e.to}`),
        ['null>RESERVED', 'RESERVED>FAILED', 'FAILED>UNKNOWN', 'UNKNOWN>SETTLED'],
      );
      await rejectsWith(ledger.reopenUnknown(newKey(), { error: 'x', at: t(1) }), 'ledger_not_found');
    });

    it('an open invoice is found by its request hash: the same request gets it back, concurrently one is stored; once paid a new one is issued', async () => {
      const ledger = ctx.ledger();
      const request = sha256(`request:${newRef()}`);
      assert.equal(await ledger.findOpenInvoice(request), undefined);
      const first = await ledger.createInvoice(
        invoice(newRef(), { request_sha256: request, artefact: artefact(100, null) }),
      );
      assert.equal((await ledger.findOpenInvoice(request))!.ref, first.ref);
      const racing = await Promise.all(
        Array.from({ length: 5 }, () =>
          ledger.createInvoice(invoice(newRef(), { request_sha256: request, artefact: artefact(100, null) })),
        ),
      );
      assert.deepEqual(new Set(racing.map((i) => i.ref)), new Set([first.ref]), 'the same request is the same invoice');
      const stored = (await ledger.listInvoices({ withArtefacts: false })).filter((i) => i.ref === first.ref);
      assert.equal(stored.length, 1);
      await ledger.markInvoicePaid(first.ref, t(5));
      assert.equal(await ledger.findOpenInvoice(request), undefined);
      const next = await ledger.createInvoice(invoice(newRef(), { request_sha256: request }));
      assert.notEqual(next.ref, first.ref);
      assert.equal(next.state, 'ISSUED');
      await rejectsWith(ledger.findOpenInvoice('not-a-hash'), 'ledger_input_invalid');
    });
  });
}
