/**
 * Contract: what the database itself guarantees. Migrations apply once however often (and
 * however concurrently) a store is opened; records survive close and reopen byte for byte;
 * nothing can be deleted, even with raw SQL; a closed ledger refuses work.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rejectsWith, type LedgerHarness } from './ledger-harness.js';
import type { ContractContext } from './ledger-contract-settlements.js';
import { artefact, invoice, newKey, reservation, t } from './ledger-fixtures.js';

export function storageContract(ctx: ContractContext, harness: LedgerHarness): void {
  describe('storage', () => {
    it('migrations are idempotent: a fresh store opened twice at once and again records each version once', async () => {
      const store = await harness.fresh();
      const [a, b] = await Promise.all([store.open(), store.open()]);
      const c = await store.open();
      try {
        for (const l of [a, b, c]) assert.equal(l.schemaVersion, 1);
        const versions = (await store.raw('SELECT version FROM schema_migrations ORDER BY version')).map((r) => Number(r.version));
        assert.deepEqual(versions, [1]);
        const key = newKey();
        assert.equal((await a.reserve(reservation(key))).outcome, 'reserved');
        assert.equal((await c.reserve(reservation(key))).outcome, 'exists', 'all three see one schema and one table');
      } finally {
        await Promise.all([a.close(), b.close(), c.close()]);
      }
    });

    it('refuses a store migrated by a newer service', async () => {
      const store = await harness.fresh();
      await (await store.open()).close();
      await store.raw(`INSERT INTO schema_migrations (version, name) VALUES (999, 'from the future')`);
      await rejectsWith(store.open(), 'ledger_schema_unsupported', /999/);
    });

    it('records, history and invoices survive close and reopen byte for byte', async () => {
      const store = ctx.store();
      const first = await store.open();
      const settled = newKey();
      const failed = newKey();
      const a = artefact(200_000);
      await first.reserve(reservation(settled, { amount_atomic: '0', self_funded: true }));
      await first.markSettled(settled, { ...a, transaction: '0xbeef', at: t(1) });
      await first.reserve(reservation(failed));
      await first.markFailed(failed, { error: 'declined', at: t(2) });
      const ref = `INV-reopen-${settled.nonce.slice(2, 14)}`;
      await first.createInvoice(invoice(ref, { amount_atomic: '250000000' }));
      await first.markInvoicePaid(ref, t(3));
      const before = { s: await first.get(settled), f: await first.get(failed), h: await first.history(settled), i: await first.getInvoice(ref) };
      await first.close();
      await first.close(); // closing twice is harmless
      await rejectsWith(first.get(settled), 'ledger_unavailable', /closed/);

      const second = await store.open();
      try {
        const after = { s: await second.get(settled), f: await second.get(failed), h: await second.history(settled), i: await second.getInvoice(ref) };
        assert.deepEqual(after, before);
        assert.ok(after.s!.artefact!.equals(a.artefact));
        assert.equal(after.s!.amount_atomic, '0');
        assert.equal((await second.reserve(reservation(settled))).outcome, 'exists');
      } finally {
        await second.close();
      }
    });

    it('nothing is deleted and history is append-only, even with raw SQL', async () => {
      const store = ctx.store();
      const key = newKey();
      await ctx.ledger().reserve(reservation(key));
      await ctx.ledger().createInvoice(invoice(`INV-keep-${key.nonce.slice(2, 14)}`));
      await assert.rejects(store.raw(`DELETE FROM settlements WHERE nonce = '${key.nonce}'`), /never deleted|not allowed/);
      await assert.rejects(store.raw('DELETE FROM invoices'), /never deleted|not allowed/);
      await assert.rejects(store.raw(`UPDATE settlement_events SET error = 'rewritten' WHERE nonce = '${key.nonce}'`), /append-only/);
      await assert.rejects(store.raw(`DELETE FROM settlement_events WHERE nonce = '${key.nonce}'`), /append-only/);
      assert.equal((await ctx.ledger().get(key))!.state, 'RESERVED');
      assert.equal((await ctx.ledger().history(key)).length, 1);
    });
  });
}
