/**
 * Contract: what schema version 2 added. Reservations keep the authorization's validBefore
 * (reconcile needs it to close an UNKNOWN payment); invoices carry the artefact they release,
 * checked like a settlement's; listings can leave the artefact bytes unread.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { SettlementRecord } from '../../src/store/ledger.js';
import { rejectsWith } from './ledger-harness.js';
import type { ContractContext } from './ledger-contract-settlements.js';
import { artefact, invoice, newKey, reservation, sha256, t } from './ledger-fixtures.js';

const newRef = () => `INV-${randomBytes(6).toString('hex')}`;
const UINT256_MAX = '115792089237316195423570985008687907853269984665640564039457584007913129639935';
const withoutBytes = (r: SettlementRecord) => ({ ...r, artefact: null });

export function schemaV2Contract(ctx: ContractContext): void {
  describe('valid_before', () => {
    it('round-trips a time, 0, uint256 max and null through reserve, get, list, transitions and replays', async () => {
      const ledger = ctx.ledger();
      for (const valid_before of ['1735689900', '0', UINT256_MAX, null]) {
        const key = newKey();
        const r = await ledger.reserve(reservation(key, { valid_before }));
        assert.equal(r.record.valid_before, valid_before);
        assert.equal((await ledger.get(key))!.valid_before, valid_before);
        assert.equal(
          (await ledger.list({ state: 'RESERVED' })).find((x) => x.nonce === key.nonce)!.valid_before,
          valid_before,
        );
        assert.equal((await ledger.markUnknown(key, { error: 'timeout', at: t(1) })).valid_before, valid_before);
        assert.equal(
          (await ledger.reserve(reservation(key, { valid_before, at: t(2) }))).record.valid_before,
          valid_before,
        );
        assert.equal(
          (await ledger.resolveUnknown(key, { state: 'FAILED', error: 'expired', at: t(3) })).valid_before,
          valid_before,
        );
        // Reopening a FAILED record with the same payload keeps the same authorization.
        assert.equal(
          (await ledger.reserve(reservation(key, { valid_before, at: t(4) }))).record.valid_before,
          valid_before,
        );
      }
    });
  });

  describe('listing without artefact bytes', () => {
    it('withArtefacts: false returns every field but the bytes (the hash stays); true and the default return them', async () => {
      const ledger = ctx.ledger();
      const settled = newKey();
      const failed = newKey();
      await ledger.reserve(reservation(settled));
      const a = artefact(100_000);
      await ledger.markSettled(settled, { ...a, transaction: '0x1', at: t(1) });
      await ledger.reserve(reservation(failed));
      await ledger.markFailed(failed, { error: 'no', at: t(1) });
      const mine = (rs: SettlementRecord[]) => rs.filter((r) => r.nonce === settled.nonce || r.nonce === failed.nonce);
      const full = mine(await ledger.list());
      assert.deepEqual(mine(await ledger.list({ withArtefacts: true })), full);
      assert.deepEqual(mine(await ledger.list({})), full);
      assert.ok(full[0]!.artefact!.equals(a.artefact));
      const light = mine(await ledger.list({ withArtefacts: false }));
      assert.deepEqual(light, full.map(withoutBytes));
      assert.equal(light[0]!.artefact_sha256, a.artefact_sha256);
      assert.equal(light[0]!.receipt, a.receipt);
      const lightSettled = mine(await ledger.list({ state: 'SETTLED', withArtefacts: false }));
      assert.deepEqual(lightSettled, [withoutBytes(full[0]!)]);
      await rejectsWith(
        ledger.list({ withArtefacts: 'no' as never }),
        'ledger_input_invalid',
        /^ledger: withArtefacts /,
      );
      await rejectsWith(
        ledger.list({ state: 'LOST' as never, withArtefacts: false }),
        'ledger_input_invalid',
        /^ledger: state /,
      );
    });
  });

  describe('invoices with the artefact they release', () => {
    it('issue with an artefact: bytes, hash and receipt round-trip; paying keeps them; a retried issue is the same invoice', async () => {
      const ledger = ctx.ledger();
      const ref = newRef();
      const a = artefact(70_000);
      const issued = await ledger.createInvoice(invoice(ref, { artefact: a }));
      assert.ok(Buffer.isBuffer(issued.artefact) && issued.artefact.equals(a.artefact));
      assert.deepEqual(
        [issued.artefact_sha256, issued.receipt, issued.state, issued.paid_at],
        [a.artefact_sha256, a.receipt, 'ISSUED', null],
      );
      assert.equal(sha256(issued.artefact!), a.artefact_sha256);
      assert.deepEqual(await ledger.getInvoice(ref), issued);
      // A retry builds the same bytes again (a fresh Buffer) and an upper-case hash: still the same invoice.
      const again = {
        artefact: Buffer.from(a.artefact),
        artefact_sha256: a.artefact_sha256.toUpperCase(),
        receipt: a.receipt,
      };
      assert.deepEqual(await ledger.createInvoice(invoice(ref, { artefact: again, at: t(9) })), issued);
      const paid = await ledger.markInvoicePaid(ref, t(10));
      assert.deepEqual(paid, { ...issued, state: 'PAID', paid_at: t(10) });
      assert.deepEqual(await ledger.getInvoice(ref), paid);
    });

    it('the same ref with another artefact, another receipt, or with and without one is a conflict', async () => {
      const ledger = ctx.ledger();
      const a = artefact(100);
      const withOne = newRef();
      await ledger.createInvoice(invoice(withOne, { artefact: a }));
      await rejectsWith(ledger.createInvoice(invoice(withOne, { artefact: artefact(100) })), 'ledger_conflict');
      await rejectsWith(
        ledger.createInvoice(invoice(withOne, { artefact: { ...a, receipt: null } })),
        'ledger_conflict',
      );
      await rejectsWith(
        ledger.createInvoice(invoice(withOne, { artefact: { ...a, receipt: 'eyJ9.eyJ9.b3RoZXI' } })),
        'ledger_conflict',
      );
      await rejectsWith(ledger.createInvoice(invoice(withOne)), 'ledger_conflict');
      const without = newRef();
      await ledger.createInvoice(invoice(without));
      await rejectsWith(ledger.createInvoice(invoice(without, { artefact: a })), 'ledger_conflict');
      const unsigned = newRef();
      const issued = await ledger.createInvoice(invoice(unsigned, { artefact: { ...a, receipt: null } }));
      assert.equal(issued.receipt, null);
      assert.deepEqual(await ledger.createInvoice(invoice(unsigned, { artefact: { ...a, receipt: null } })), issued);
    });

    it('refuses a wrong hash, a malformed receipt or non-Buffer bytes before writing anything', async () => {
      const ledger = ctx.ledger();
      const ref = newRef();
      const a = artefact(64);
      await rejectsWith(
        ledger.createInvoice(invoice(ref, { artefact: { ...a, artefact_sha256: '00'.repeat(32) } })),
        'ledger_input_invalid',
        /does not match/,
      );
      await rejectsWith(
        ledger.createInvoice(invoice(ref, { artefact: { ...a, receipt: 'not a jws' } })),
        'ledger_input_invalid',
        /^ledger: receipt /,
      );
      await rejectsWith(
        ledger.createInvoice(invoice(ref, { artefact: { ...a, artefact: a.artefact.toString('latin1') as never } })),
        'ledger_input_invalid',
        /^ledger: artefact /,
      );
      await rejectsWith(
        ledger.createInvoice(invoice(ref, { artefact: null as never })),
        'ledger_input_invalid',
        /^ledger: artefact /,
      );
      assert.equal(await ledger.getInvoice(ref), undefined);
    });

    it('listInvoices({ withArtefacts: false }) leaves the bytes unread and keeps the hash', async () => {
      const ledger = ctx.ledger();
      const refs = [newRef(), newRef()];
      const a = artefact(30_000);
      await ledger.createInvoice(invoice(refs[0]!, { artefact: a }));
      await ledger.createInvoice(invoice(refs[1]!));
      const mine = (all: Awaited<ReturnType<typeof ledger.listInvoices>>) => all.filter((i) => refs.includes(i.ref));
      const full = mine(await ledger.listInvoices());
      assert.ok(full[0]!.artefact!.equals(a.artefact));
      assert.deepEqual(mine(await ledger.listInvoices({ withArtefacts: true })), full);
      const light = mine(await ledger.listInvoices({ withArtefacts: false }));
      assert.deepEqual(
        light,
        full.map((i) => ({ ...i, artefact: null })),
      );
      assert.equal(light[0]!.artefact_sha256, a.artefact_sha256);
      await rejectsWith(
        ledger.listInvoices({ withArtefacts: 1 as never }),
        'ledger_input_invalid',
        /^ledger: withArtefacts /,
      );
    });
  });
}
