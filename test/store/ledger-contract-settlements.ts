/**
 * Contract: the settlement lifecycle. Reserve before work, settle once, replay the same bytes,
 * refuse a different payload on the same nonce, and let exactly one of many concurrent callers
 * win each step.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Ledger } from '../../src/store/ledger.js';
import { rejectsWith, type LedgerStore } from './ledger-harness.js';
import { artefact, newKey, reservation, sha256, t } from './ledger-fixtures.js';

export interface ContractContext {
  ledger(): Ledger;
  store(): LedgerStore;
}

export function settlementContract(ctx: ContractContext): void {
  describe('settlements', () => {
    it('reserve → settle → get returns the identical artefact bytes, receipt and history', async () => {
      const ledger = ctx.ledger();
      const key = newKey();
      const r = await ledger.reserve(reservation(key));
      assert.equal(r.outcome, 'reserved');
      assert.equal(r.record.state, 'RESERVED');
      assert.equal(r.record.attempts, 1);
      assert.equal(r.record.artefact, null);
      const a = artefact();
      const settled = await ledger.markSettled(key, { ...a, transaction: '0xabc', at: t(5) });
      assert.equal(settled.state, 'SETTLED');
      const got = (await ledger.get(key))!;
      assert.ok(Buffer.isBuffer(got.artefact));
      assert.ok(got.artefact.equals(a.artefact));
      assert.equal(got.artefact_sha256, a.artefact_sha256);
      assert.equal(sha256(got.artefact), a.artefact_sha256);
      assert.deepEqual({ ...got }, { ...settled });
      assert.equal(got.receipt, a.receipt);
      assert.equal(got.transaction, '0xabc');
      assert.equal(got.at, t(0));
      assert.equal(got.updated_at, t(5));
      assert.deepEqual(
        (await ledger.history(key)).map((e) => [e.from, e.to, e.attempt, e.transaction, e.at]),
        [
          [null, 'RESERVED', 1, null, t(0)],
          ['RESERVED', 'SETTLED', 1, '0xabc', t(5)],
        ],
      );
    });

    it('a replay of a settled payment is "exists" with the record and its artefact, and changes nothing', async () => {
      const ledger = ctx.ledger();
      const key = newKey();
      await ledger.reserve(reservation(key));
      const a = artefact(1000);
      const settled = await ledger.markSettled(key, { ...a, transaction: '0xdef', at: t(2) });
      // The payer address and nonce arrive checksummed or upper-case; they name the same payment.
      const shouty = { payer: `0x${key.payer.slice(2).toUpperCase()}`, nonce: `0x${key.nonce.slice(2).toUpperCase()}` };
      const replay = await ledger.reserve(
        reservation(shouty, { payment_sha256: reservation(key).payment_sha256.toUpperCase(), at: t(9) }),
      );
      assert.equal(replay.outcome, 'exists');
      assert.equal(replay.record.state, 'SETTLED');
      assert.ok(replay.record.artefact!.equals(a.artefact));
      assert.deepEqual(replay.record, settled);
      assert.equal((await ledger.history(key)).length, 2);
    });

    it('the same key with another payment payload is "conflict", whatever the state', async () => {
      const ledger = ctx.ledger();
      for (const finish of ['none', 'settle', 'fail', 'unknown'] as const) {
        const key = newKey();
        await ledger.reserve(reservation(key));
        if (finish === 'settle') await ledger.markSettled(key, { ...artefact(10), transaction: '0x1', at: t(1) });
        if (finish === 'fail') await ledger.markFailed(key, { error: 'insufficient funds', at: t(1) });
        if (finish === 'unknown') await ledger.markUnknown(key, { error: 'timeout', at: t(1) });
        const before = await ledger.get(key);
        const other = await ledger.reserve(reservation(key, { payment_sha256: sha256('another payload'), at: t(3) }));
        assert.equal(other.outcome, 'conflict', finish);
        assert.deepEqual(other.record, before);
        assert.deepEqual(await ledger.get(key), before, 'a conflict changes nothing');
      }
    });

    it('20 concurrent reserves of one key (over two connections) yield exactly one "reserved"', async () => {
      const second = await ctx.store().open();
      try {
        const key = newKey();
        const ledgers = [ctx.ledger(), second];
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, (_, i) => ledgers[i % 2]!.reserve(reservation(key, { at: t(i) }))),
        );
        assert.equal(outcomes.filter((o) => o.outcome === 'reserved').length, 1);
        assert.equal(outcomes.filter((o) => o.outcome === 'exists').length, 19);
        assert.equal((await ctx.ledger().history(key)).length, 1);
        // Settling races too: one mover wins, the others find the record no longer RESERVED.
        const a = artefact(100);
        const settles = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) =>
            ledgers[i % 2]!.markSettled(key, { ...a, transaction: `0x${i}`, at: t(30) }),
          ),
        );
        assert.equal(settles.filter((s) => s.status === 'fulfilled').length, 1);
        for (const s of settles)
          if (s.status === 'rejected') await rejectsWith(Promise.reject(s.reason), 'ledger_transition_invalid');
      } finally {
        await second.close();
      }
    });

    it('a FAILED record is reopened by the same payload (attempts counts), concurrently only once, and settles later', async () => {
      const ledger = ctx.ledger();
      const key = newKey();
      await ledger.reserve(reservation(key));
      const failed = await ledger.markFailed(key, { error: 'facilitator: invalid signature\nretry later', at: t(1) });
      assert.equal(failed.state, 'FAILED');
      assert.equal(failed.error, 'facilitator: invalid signature\nretry later');
      const again = await Promise.all(Array.from({ length: 10 }, () => ledger.reserve(reservation(key, { at: t(2) }))));
      assert.equal(again.filter((o) => o.outcome === 'reserved').length, 1);
      const reopened = again.find((o) => o.outcome === 'reserved')!.record;
      assert.equal(reopened.attempts, 2);
      assert.equal(reopened.error, null);
      assert.equal(reopened.at, t(0), 'the first reservation time stays');
      await ledger.markFailed(key, { error: 'nonce used', at: t(3) });
      assert.equal((await ledger.reserve(reservation(key, { at: t(4) }))).record.attempts, 3);
      const settled = await ledger.markSettled(key, { ...artefact(10), transaction: '0xfeed', at: t(5) });
      assert.equal(settled.attempts, 3);
      assert.deepEqual(
        (await ledger.history(key)).map((e) => `${e.from}>${e.to}#${e.attempt}:${e.error ?? ''}`),
        [
          'null>RESERVED#1:',
          'RESERVED>FAILED#1:facilitator: invalid signature\nretry later',
          'FAILED>RESERVED#2:',
          'RESERVED>FAILED#2:nonce used',
          'FAILED>RESERVED#3:',
          'RESERVED>SETTLED#3:',
        ],
      );
    });

    it('UNKNOWN resolves to SETTLED (artefact attached later, idempotently) or to FAILED', async () => {
      const ledger = ctx.ledger();
      const key = newKey();
      await ledger.reserve(reservation(key));
      const unknown = await ledger.markUnknown(key, { error: 'facilitator timed out after 30 s', at: t(1) });
      assert.equal(unknown.state, 'UNKNOWN');
      assert.equal(
        (await ledger.reserve(reservation(key, { at: t(2) }))).outcome,
        'exists',
        'an UNKNOWN payment is never retried',
      );
      const resolved = await ledger.resolveUnknown(key, { state: 'SETTLED', transaction: '0xchain', at: t(3) });
      assert.deepEqual(
        [resolved.state, resolved.transaction, resolved.artefact, resolved.error],
        ['SETTLED', '0xchain', null, null],
      );
      const a = artefact(256);
      const attached = await ledger.attachArtefact(key, { ...a, at: t(4) });
      assert.ok(attached.artefact!.equals(a.artefact));
      assert.deepEqual(
        await ledger.attachArtefact(key, { ...a, at: t(5) }),
        attached,
        'attaching the same bytes again is a no-op',
      );
      await rejectsWith(ledger.attachArtefact(key, { ...artefact(256), at: t(6) }), 'ledger_conflict');

      const withBytes = newKey();
      await ledger.reserve(reservation(withBytes));
      await ledger.markUnknown(withBytes, { error: 'socket hang up', at: t(1) });
      const b = artefact(64);
      const direct = await ledger.resolveUnknown(withBytes, {
        state: 'SETTLED',
        transaction: '0x2',
        at: t(2),
        artefact: b,
      });
      assert.ok(direct.artefact!.equals(b.artefact));

      const lost = newKey();
      await ledger.reserve(reservation(lost));
      await ledger.markUnknown(lost, { error: 'timeout', at: t(1) });
      const failed = await ledger.resolveUnknown(lost, { state: 'FAILED', error: 'no transfer on chain', at: t(2) });
      assert.deepEqual([failed.state, failed.error, failed.transaction], ['FAILED', 'no transfer on chain', null]);
      assert.equal(
        (await ledger.reserve(reservation(lost, { at: t(3) }))).outcome,
        'reserved',
        'nothing moved, so the payer may retry',
      );
    });

    it('illegal transitions and unknown keys throw stable codes and change nothing', async () => {
      const ledger = ctx.ledger();
      const a = { ...artefact(8), transaction: '0x1', at: t(9) };
      const unknownKey = newKey();
      await rejectsWith(ledger.markSettled(unknownKey, a), 'ledger_not_found');
      await rejectsWith(ledger.markFailed(unknownKey, { error: 'x', at: t(1) }), 'ledger_not_found');

      const reserved = newKey();
      await ledger.reserve(reservation(reserved));
      await rejectsWith(
        ledger.resolveUnknown(reserved, { state: 'FAILED', error: 'x', at: t(1) }),
        'ledger_transition_invalid',
        /UNKNOWN .*RESERVED/,
      );
      await rejectsWith(ledger.attachArtefact(reserved, { ...artefact(8), at: t(1) }), 'ledger_transition_invalid');

      const settled = newKey();
      await ledger.reserve(reservation(settled));
      await ledger.markSettled(settled, a);
      const snapshot = await ledger.get(settled);
      await rejectsWith(ledger.markSettled(settled, a), 'ledger_transition_invalid', /SETTLED/);
      await rejectsWith(ledger.markFailed(settled, { error: 'late', at: t(10) }), 'ledger_transition_invalid');
      await rejectsWith(ledger.markUnknown(settled, { error: 'late', at: t(10) }), 'ledger_transition_invalid');
      await rejectsWith(
        ledger.resolveUnknown(settled, { state: 'FAILED', error: 'x', at: t(10) }),
        'ledger_transition_invalid',
      );
      assert.deepEqual(await ledger.get(settled), snapshot);

      const failed = newKey();
      await ledger.reserve(reservation(failed));
      await ledger.markFailed(failed, { error: 'no', at: t(1) });
      await rejectsWith(ledger.markSettled(failed, a), 'ledger_transition_invalid', /FAILED/);
      await rejectsWith(ledger.markUnknown(failed, { error: 'x', at: t(1) }), 'ledger_transition_invalid');
    });
  });
}
