/**
 * Contract: invoices, list order, exact amounts and input validation. Invalid input is refused
 * before any write, identically on both backends.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { NewReservation } from '../../src/store/ledger.js';
import { rejectsWith } from './ledger-harness.js';
import type { ContractContext } from './ledger-contract-settlements.js';
import { artefact, invoice, newKey, reservation, t } from './ledger-fixtures.js';

const newRef = () => `INV-${randomBytes(6).toString('hex')}`;
const UINT256_MAX = '115792089237316195423570985008687907853269984665640564039457584007913129639935';

export function recordContract(ctx: ContractContext): void {
  describe('invoices', () => {
    it('issue, get, pay, pay again (idempotent, first paid_at kept), retried issue, conflicting issue', async () => {
      const ledger = ctx.ledger();
      const ref = newRef();
      const issued = await ledger.createInvoice(invoice(ref));
      assert.deepEqual(issued, {
        ...invoice(ref),
        state: 'ISSUED',
        paid_at: null,
        artefact: null,
        artefact_sha256: null,
        receipt: null,
      });
      assert.deepEqual(await ledger.getInvoice(ref), issued);
      assert.deepEqual(
        await ledger.createInvoice(invoice(ref, { at: t(1) })),
        issued,
        'a retried request gets the same invoice',
      );
      await rejectsWith(ledger.createInvoice(invoice(ref, { amount_atomic: '1' })), 'ledger_conflict');
      const paid = await ledger.markInvoicePaid(ref, t(100));
      assert.deepEqual([paid.state, paid.paid_at, paid.at], ['PAID', t(100), t(0)]);
      assert.deepEqual(await ledger.markInvoicePaid(ref, t(200)), paid);
      assert.deepEqual(await ledger.getInvoice(ref), paid);
      assert.equal(await ledger.getInvoice(newRef()), undefined);
      await rejectsWith(ledger.markInvoicePaid(newRef(), t(1)), 'ledger_not_found');
      await rejectsWith(ledger.createInvoice(invoice('bad ref with spaces')), 'ledger_input_invalid');
    });

    it('lists invoices in the order they were issued', async () => {
      const ledger = ctx.ledger();
      const refs = [newRef(), newRef(), newRef()];
      for (const ref of refs) await ledger.createInvoice(invoice(ref));
      await ledger.markInvoicePaid(refs[1]!, t(5));
      const mine = (await ledger.listInvoices()).filter((i) => refs.includes(i.ref));
      assert.deepEqual(
        mine.map((i) => [i.ref, i.state]),
        [
          [refs[0], 'ISSUED'],
          [refs[1], 'PAID'],
          [refs[2], 'ISSUED'],
        ],
      );
    });
  });

  describe('records', () => {
    it('lists settlements in created order, optionally by state', async () => {
      const ledger = ctx.ledger();
      const keys = Array.from({ length: 5 }, newKey);
      for (const k of keys) await ledger.reserve(reservation(k));
      await ledger.markFailed(keys[1]!, { error: 'no', at: t(1) });
      await ledger.markFailed(keys[3]!, { error: 'no', at: t(1) });
      await ledger.markSettled(keys[4]!, { ...artefact(4), transaction: '0x4', at: t(1) });
      // Reopening keys[1] later does not move it in the order.
      await ledger.reserve(reservation(keys[1]!, { at: t(2) }));
      const nonces = keys.map((k) => k.nonce);
      const mine = (await ledger.list()).filter((r) => nonces.includes(r.nonce));
      assert.deepEqual(
        mine.map((r) => [nonces.indexOf(r.nonce), r.state]),
        [
          [0, 'RESERVED'],
          [1, 'RESERVED'],
          [2, 'RESERVED'],
          [3, 'FAILED'],
          [4, 'SETTLED'],
        ],
      );
      const failed = await ledger.list({ state: 'FAILED' });
      assert.ok(failed.every((r) => r.state === 'FAILED'));
      assert.deepEqual(
        failed.filter((r) => nonces.includes(r.nonce)).map((r) => r.nonce),
        [keys[3]!.nonce],
      );
      await rejectsWith(ledger.list({ state: 'LOST' as never }), 'ledger_input_invalid');
    });

    it('amounts ("250000000", "0", uint256 max) and times round-trip exactly; an empty artefact stays empty', async () => {
      const ledger = ctx.ledger();
      const times = ['2025-03-04T05:06:07Z', '2025-03-04T05:06:07.1Z', '2025-03-04T05:06:07.123456Z'];
      for (const [i, amount_atomic] of ['250000000', '0', UINT256_MAX].entries()) {
        const key = newKey();
        await ledger.reserve(reservation(key, { amount_atomic, at: times[i]!, self_funded: i === 1 }));
        const got = (await ledger.get(key))!;
        assert.equal(got.amount_atomic, amount_atomic);
        assert.equal(got.at, times[i]);
        assert.equal(got.self_funded, i === 1);
        const ref = newRef();
        assert.equal((await ledger.createInvoice(invoice(ref, { amount_atomic }))).amount_atomic, amount_atomic);
        assert.equal((await ledger.getInvoice(ref))!.amount_atomic, amount_atomic);
      }
      const key = newKey();
      await ledger.reserve(reservation(key));
      await ledger.markSettled(key, {
        ...artefact(0),
        artefact: Buffer.alloc(0),
        artefact_sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        transaction: '0x0',
        at: t(1),
      });
      assert.equal((await ledger.get(key))!.artefact!.length, 0);
    });

    it('refuses malformed input before writing anything', async () => {
      const ledger = ctx.ledger();
      const key = newKey();
      const bad: Array<[Partial<NewReservation>, string]> = [
        [{ payer: '0x1234' }, 'payer'],
        [{ payer: key.payer.slice(2) }, 'payer'],
        [{ nonce: '0x' + 'ab'.repeat(31) }, 'nonce'],
        [{ nonce: '0x' + 'zz'.repeat(32) }, 'nonce'],
        [{ amount_atomic: '1.5' }, 'amount_atomic'],
        [{ amount_atomic: '-1' }, 'amount_atomic'],
        [{ amount_atomic: '01' }, 'amount_atomic'],
        [{ amount_atomic: ' 1' }, 'amount_atomic'],
        [{ amount_atomic: '1e21' }, 'amount_atomic'],
        [{ amount_atomic: 250000000 as never }, 'amount_atomic'],
        [{ amount_atomic: '1' + '0'.repeat(78) }, 'amount_atomic'],
        [{ payment_sha256: 'abc' }, 'payment_sha256'],
        [{ at: '2025-01-01 00:00:00' }, 'at'],
        [{ at: '2025-13-01T00:00:00Z' }, 'at'],
        [{ at: '2025-01-01T00:00:00+02:00' }, 'at'],
        [{ resource: '/x\u0000y' }, 'resource'],
        [{ product_id: '' }, 'product_id'],
        [{ sku_id: 'a\uD800' }, 'sku_id'],
        [{ self_funded: 'yes' as never }, 'self_funded'],
        [{ valid_before: undefined as never }, 'valid_before'],
        [{ valid_before: 1735689900 as never }, 'valid_before'],
        [{ valid_before: '' }, 'valid_before'],
        [{ valid_before: '01' }, 'valid_before'],
        [{ valid_before: '-1' }, 'valid_before'],
        [{ valid_before: '1735689900.5' }, 'valid_before'],
        [{ valid_before: '1' + '0'.repeat(78) }, 'valid_before'],
      ];
      for (const [over, field] of bad)
        await rejectsWith(
          ledger.reserve(reservation(key, over)),
          'ledger_input_invalid',
          new RegExp(`^ledger: ${field} `),
        );
      assert.equal(await ledger.get(key), undefined);

      await ledger.reserve(reservation(key));
      const a = artefact(16);
      await rejectsWith(
        ledger.markSettled(key, { ...a, artefact_sha256: '00'.repeat(32), transaction: '0x1', at: t(1) }),
        'ledger_input_invalid',
        /does not match/,
      );
      await rejectsWith(
        ledger.markSettled(key, { ...a, receipt: 'not a jws', transaction: '0x1', at: t(1) }),
        'ledger_input_invalid',
        /^ledger: receipt /,
      );
      await rejectsWith(
        ledger.markSettled(key, { ...a, transaction: '', at: t(1) }),
        'ledger_input_invalid',
        /^ledger: transaction /,
      );
      await rejectsWith(
        ledger.markFailed(key, { error: 'x', at: 'yesterday' }),
        'ledger_input_invalid',
        /^ledger: at /,
      );
      await rejectsWith(ledger.get({ payer: key.payer, nonce: 'nope' }), 'ledger_input_invalid', /^ledger: nonce /);
      await rejectsWith(
        ledger.createInvoice(invoice(newRef(), { amount_atomic: '12.00' })),
        'ledger_input_invalid',
        /^ledger: amount_atomic /,
      );
      assert.equal((await ledger.get(key))!.state, 'RESERVED');
    });
  });
}
