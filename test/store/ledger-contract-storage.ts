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
        const all = harness.migrations.map((m) => m.version);
        assert.deepEqual(all, [1, 2, 3, 4, 5, 6]);
        for (const l of [a, b, c]) assert.equal(l.schemaVersion, 6);
        const versions = (await store.raw('SELECT version FROM schema_migrations ORDER BY version')).map((r) =>
          Number(r.version),
        );
        assert.deepEqual(versions, all);
        const key = newKey();
        assert.equal((await a.reserve(reservation(key))).outcome, 'reserved');
        assert.equal((await c.reserve(reservation(key))).outcome, 'exists', 'all three see one schema and one table');
      } finally {
        await Promise.all([a.close(), b.close(), c.close()]);
      }
    });

    it('schema 6: a version-5 store whose payment-identifier id two racing payments both took keeps it on the first; the later row loses it; one id then reserves once', async () => {
      const store = await harness.fresh();
      const upTo5 = harness.migrations.filter((m) => m.version <= 5);
      await store.exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL);
${upTo5.map((m) => m.sql).join('\n')}
${upTo5.map((m) => `INSERT INTO schema_migrations (version, name) VALUES (${m.version}, '${m.name.replaceAll("'", "''")}');`).join('\n')}`);
      const id = 'ab'.repeat(32);
      const [first, second, other] = [newKey(), newKey(), newKey()];
      const row = (k: { payer: string; nonce: string }, pid: string) =>
        `INSERT INTO settlements (payer, nonce, product_id, sku_id, resource, amount_atomic, asset, network, pay_to,
  payment_sha256, self_funded, state, attempts, created_at, updated_at, payment_id_sha256)
VALUES ('${k.payer}', '${k.nonce}', 'p', 's', '/r', '1', 'a', 'eip155:8453', 'b', '${'cd'.repeat(32)}', FALSE, 'RESERVED', 1,
  '${t(0)}', '${t(0)}', '${pid}');`;
      await store.exec(`${row(first, id)}\n${row(second, id)}\n${row(other, 'ef'.repeat(32))}`);
      const ledger = await store.open();
      try {
        assert.equal(ledger.schemaVersion, 6);
        assert.equal((await ledger.get(first))!.payment_id_sha256, id);
        assert.equal((await ledger.get(second))!.payment_id_sha256, null, 'the later row loses the id');
        assert.equal((await ledger.get(other))!.payment_id_sha256, 'ef'.repeat(32));
        const taken = await ledger.reserve(reservation(newKey(), { payment_id_sha256: id }));
        assert.equal(taken.outcome, 'id_taken');
        assert.equal(taken.record.nonce, first.nonce);
      } finally {
        await ledger.close();
      }
    });

    it('a version-1 store left by an older service migrates to the latest: old rows get valid_before null and no invoice artefact, and carry on', async () => {
      const store = await harness.fresh();
      const v1 = harness.migrations.find((m) => m.version === 1)!;
      await store.exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL);
${v1.sql}
INSERT INTO schema_migrations (version, name) VALUES (1, '${v1.name}');`);
      const key = newKey();
      const r = reservation(key);
      const ref = `INV-v1-${key.nonce.slice(2, 14)}`;
      // The columns version 1 had, as the older service wrote them (FALSE is 0 in SQLite).
      await store.exec(`INSERT INTO settlements (payer, nonce, product_id, sku_id, resource, amount_atomic, asset, network, pay_to,
  payment_sha256, self_funded, state, attempts, created_at, updated_at)
VALUES ('${key.payer}', '${key.nonce}', '${r.product_id}', '${r.sku_id}', '${r.resource}', '${r.amount_atomic}', '${r.asset.toLowerCase()}',
  '${r.network}', '${r.pay_to.toLowerCase()}', '${r.payment_sha256}', FALSE, 'RESERVED', 1, '${t(0)}', '${t(0)}');
INSERT INTO invoices (ref, product_id, sku_id, resource, commissioned_by, amount_atomic, currency, state, created_at)
VALUES ('${ref}', 'p', 's', '/r', 'Example Ltd', '100', 'GBP', 'ISSUED', '${t(0)}');`);
      const ledger = await store.open();
      try {
        assert.equal(ledger.schemaVersion, 6);
        const versions = (await store.raw('SELECT version FROM schema_migrations ORDER BY version')).map((row) =>
          Number(row.version),
        );
        assert.deepEqual(versions, [1, 2, 3, 4, 5, 6]);
        const old = (await ledger.get(key))!;
        assert.equal(old.valid_before, null);
        assert.equal(old.amount_atomic, r.amount_atomic);
        const replay = await ledger.reserve(reservation(key, { valid_before: null, at: t(1) }));
        assert.equal(replay.outcome, 'exists');
        assert.equal((await ledger.markUnknown(key, { error: 'timeout', at: t(2) })).valid_before, null);
        const invoice = (await ledger.getInvoice(ref))!;
        assert.deepEqual(
          [invoice.artefact, invoice.artefact_sha256, invoice.receipt, invoice.state],
          [null, null, null, 'ISSUED'],
        );
        assert.equal((await ledger.markInvoicePaid(ref, t(3))).paid_at, t(3));
      } finally {
        await ledger.close();
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
      const released = artefact(50_000);
      await first.createInvoice(invoice(ref, { amount_atomic: '250000000', artefact: released }));
      await first.markInvoicePaid(ref, t(3));
      const before = {
        s: await first.get(settled),
        f: await first.get(failed),
        h: await first.history(settled),
        i: await first.getInvoice(ref),
      };
      await first.close();
      await first.close(); // closing twice is harmless
      await rejectsWith(first.get(settled), 'ledger_unavailable', /closed/);

      const second = await store.open();
      try {
        const after = {
          s: await second.get(settled),
          f: await second.get(failed),
          h: await second.history(settled),
          i: await second.getInvoice(ref),
        };
        assert.deepEqual(after, before);
        assert.ok(after.s!.artefact!.equals(a.artefact));
        assert.ok(after.i!.artefact!.equals(released.artefact));
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
      await assert.rejects(
        store.raw(`DELETE FROM settlements WHERE nonce = '${key.nonce}'`),
        /never deleted|not allowed/,
      );
      await assert.rejects(store.raw('DELETE FROM invoices'), /never deleted|not allowed/);
      await assert.rejects(
        store.raw(`UPDATE settlement_events SET error = 'rewritten' WHERE nonce = '${key.nonce}'`),
        /append-only/,
      );
      await assert.rejects(store.raw(`DELETE FROM settlement_events WHERE nonce = '${key.nonce}'`), /append-only/);
      assert.equal((await ctx.ledger().get(key))!.state, 'RESERVED');
      assert.equal((await ctx.ledger().history(key)).length, 1);
    });
  });
}
