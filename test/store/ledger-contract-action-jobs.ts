/**
 * Contract: what schema version 3 added. The action-job receipt chain is appended
 * optimistically on the head the writer read (single-writer staging: a moved head is
 * `ledger_conflict`, never a fork; of concurrent appends on one head exactly one wins), stores
 * each receipt's canonical text and hash as written, and checks the job states. Heartbeats are
 * appended and summarised per source. Both are append-only, even with raw SQL. A version-2
 * store migrates to 3 and keeps its rows.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { canonicalJson } from '../../src/core/crypto/canonical-json.js';
import type { ActionId, ActionJobReceipt, JobState } from '../../src/core/ledger/action-jobs-receipt.js';
import {
  GENESIS_HEAD,
  GENESIS_SHA256,
  headOf,
  nextReceipt,
  verifyReceiptChain,
  type ChainHead,
} from '../../src/core/ledger/receipt-chain.js';
import type { Ledger, StoredActionReceipt } from '../../src/store/ledger.js';
import { rejectsWith, type LedgerHarness } from './ledger-harness.js';
import { invoice, newKey, reservation, t } from './ledger-fixtures.js';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

function receipt(
  head: ChainHead,
  job_id: string,
  state: JobState = 'REQUESTED',
  action_id: ActionId = 'svc.gspc.board.read',
  at = t(head.seq),
): ActionJobReceipt {
  return nextReceipt(head, {
    job_id,
    kind: state === 'REQUESTED' ? 'intent' : 'state',
    action_id,
    state,
    reason: state === 'REQUESTED' ? 'operator asked for a board read' : `${state.toLowerCase()} by the test`,
    recorded_at: at,
    recorded_by: 'contract test',
  });
}

/** Appends on the current head and returns the stored row. */
async function append(
  ledger: Ledger,
  job: string,
  state: JobState = 'REQUESTED',
  action_id?: ActionId,
): Promise<StoredActionReceipt> {
  const head = headOf((await ledger.listActionReceipts()).at(-1));
  return ledger.appendActionReceipt(receipt(head, job, state, action_id), head.sha256);
}

export function actionJobsContract(harness: LedgerHarness): void {
  describe('action-job receipts', () => {
    it('an empty store has no receipts and no heartbeats', async () => {
      const ledger = await (await harness.fresh()).open();
      try {
        assert.deepEqual(await ledger.listActionReceipts(), []);
        assert.deepEqual(await ledger.latestHeartbeats(), []);
      } finally {
        await ledger.close();
      }
    });

    it('appends intent and state receipts as canonical text with their hash, linked from genesis, and reads them back by seq', async () => {
      const store = await harness.fresh();
      const ledger = await store.open();
      try {
        const first = receipt(GENESIS_HEAD, 'job-a');
        const stored = await ledger.appendActionReceipt(first, GENESIS_SHA256);
        assert.deepEqual(stored, {
          seq: 1,
          job_id: 'job-a',
          sha256: sha256(canonicalJson(first)),
          body: canonicalJson(first),
        });
        await append(ledger, 'job-a', 'REFUSED');
        await append(ledger, 'job-b', 'REQUESTED', 'svc.evidence.root.read');
        await append(ledger, 'job-b', 'CANCELLED', 'svc.evidence.root.read');
        const rows = await ledger.listActionReceipts();
        assert.deepEqual(
          rows.map((r) => [r.seq, r.job_id, (JSON.parse(r.body) as ActionJobReceipt).state]),
          [
            [1, 'job-a', 'REQUESTED'],
            [2, 'job-a', 'REFUSED'],
            [3, 'job-b', 'REQUESTED'],
            [4, 'job-b', 'CANCELLED'],
          ],
        );
        for (const r of rows) assert.equal(r.sha256, sha256(r.body));
        assert.equal((JSON.parse(rows[1]!.body) as ActionJobReceipt).prev_sha256, rows[0]!.sha256);
        const { check } = verifyReceiptChain(rows);
        assert.deepEqual([check.state, check.length, check.head_sha256], ['INTACT', 4, rows[3]!.sha256]);
        assert.deepEqual(await ledger.listActionReceipts({ limit: 2 }), rows.slice(0, 2));
        await rejectsWith(ledger.listActionReceipts({ limit: 0 }), 'ledger_input_invalid', /^ledger: limit /);
        await ledger.close();
        const again = await store.open();
        try {
          assert.deepEqual(await again.listActionReceipts(), rows, 'receipts survive close and reopen byte for byte');
        } finally {
          await again.close();
        }
      } finally {
        await ledger.close();
      }
    });

    it('a writer whose expected head is stale gets ledger_conflict and nothing is written (no fork)', async () => {
      const ledger = await (await harness.fresh()).open();
      try {
        await ledger.appendActionReceipt(receipt(GENESIS_HEAD, 'job-1'), GENESIS_SHA256);
        // A second writer still holding the genesis head.
        await rejectsWith(
          ledger.appendActionReceipt(receipt(GENESIS_HEAD, 'job-2'), GENESIS_SHA256),
          'ledger_conflict',
          /head moved/,
        );
        const rows = await ledger.listActionReceipts();
        assert.deepEqual(
          rows.map((r) => r.job_id),
          ['job-1'],
        );
        // Re-reading the head and building on it succeeds.
        await append(ledger, 'job-2');
        assert.equal(verifyReceiptChain(await ledger.listActionReceipts()).check.state, 'INTACT');
      } finally {
        await ledger.close();
      }
    });

    it('concurrent appends on the same expected head (over four connections): exactly one wins, the others get ledger_conflict', async () => {
      const store = await harness.fresh();
      const ledgers = await Promise.all([store.open(), store.open(), store.open(), store.open()]);
      try {
        await ledgers[0]!.appendActionReceipt(receipt(GENESIS_HEAD, 'seed'), GENESIS_SHA256);
        const head = headOf((await ledgers[0]!.listActionReceipts()).at(-1));
        const tries = Array.from({ length: 12 }, (_, i) =>
          ledgers[i % 4]!.appendActionReceipt(receipt(head, `racer-${i}`), head.sha256),
        );
        const results = await Promise.allSettled(tries);
        const won = results.filter((r) => r.status === 'fulfilled');
        assert.equal(won.length, 1);
        for (const r of results)
          if (r.status === 'rejected') await rejectsWith(Promise.reject(r.reason), 'ledger_conflict');
        const rows = await ledgers[1]!.listActionReceipts();
        assert.equal(rows.length, 2);
        assert.deepEqual(rows[1], (won[0] as PromiseFulfilledResult<StoredActionReceipt>).value);
        assert.equal(verifyReceiptChain(rows).check.state, 'INTACT');
      } finally {
        await Promise.all(ledgers.map((l) => l.close()));
      }
    });

    it('refuses a malformed receipt, one not linked to the expected head, or not at head + 1, before writing anything', async () => {
      const ledger = await (await harness.fresh()).open();
      try {
        const good = receipt(GENESIS_HEAD, 'job-x');
        await rejectsWith(
          ledger.appendActionReceipt({ ...good, action_id: 'svc.shell.exec' as ActionId }, GENESIS_SHA256),
          'ledger_input_invalid',
          /^ledger: action_id /,
        );
        await rejectsWith(
          ledger.appendActionReceipt({ ...good, state: 'REFUSED' }, GENESIS_SHA256),
          'ledger_input_invalid',
          /^ledger: state /,
        );
        await rejectsWith(
          ledger.appendActionReceipt({ ...good, extra: 1 } as ActionJobReceipt, GENESIS_SHA256),
          'ledger_input_invalid',
          /^ledger: extra /,
        );
        await rejectsWith(
          ledger.appendActionReceipt({ ...good, recorded_at: '2025-02-30T00:00:00Z' }, GENESIS_SHA256),
          'ledger_input_invalid',
          /^ledger: recorded_at /,
        );
        await rejectsWith(
          ledger.appendActionReceipt({ ...good, reason: 'a\u0000b' }, GENESIS_SHA256),
          'ledger_input_invalid',
          /^ledger: reason /,
        );
        await rejectsWith(
          ledger.appendActionReceipt(good, 'f'.repeat(64)),
          'ledger_input_invalid',
          /^ledger: prev_sha256 /,
        );
        await rejectsWith(
          ledger.appendActionReceipt(good, 'nope'),
          'ledger_input_invalid',
          /^ledger: expectedHeadSha256 /,
        );
        await rejectsWith(
          ledger.appendActionReceipt({ ...good, seq: 2 }, GENESIS_SHA256),
          'ledger_input_invalid',
          /^ledger: seq must be 1/,
        );
        assert.deepEqual(await ledger.listActionReceipts(), []);
      } finally {
        await ledger.close();
      }
    });

    it('follows the job states: an intent opens a new job; one state receipt (REFUSED or CANCELLED) closes it for good', async () => {
      const ledger = await (await harness.fresh()).open();
      try {
        await append(ledger, 'job-1');
        await rejectsWith(append(ledger, 'job-1'), 'ledger_transition_invalid', /already exists/);
        await rejectsWith(append(ledger, 'ghost', 'REFUSED'), 'ledger_transition_invalid', /no intent/);
        await rejectsWith(
          append(ledger, 'job-1', 'REFUSED', 'svc.xrpl.assets.read'),
          'ledger_transition_invalid',
          /is for svc\.gspc\.board\.read/,
        );
        await append(ledger, 'job-1', 'REFUSED');
        await rejectsWith(append(ledger, 'job-1', 'CANCELLED'), 'ledger_transition_invalid', /already REFUSED/);
        assert.equal((await ledger.listActionReceipts()).length, 2);
      } finally {
        await ledger.close();
      }
    });

    it('receipts and heartbeats are append-only, even with raw SQL', async () => {
      const store = await harness.fresh();
      const ledger = await store.open();
      try {
        await append(ledger, 'job-1');
        await ledger.recordHeartbeat({ source: 'watchdog', at: t(0) });
        await assert.rejects(
          store.raw(`UPDATE action_receipts SET body = '{}' WHERE seq = 1`),
          /append-only|not allowed/,
        );
        await assert.rejects(store.raw('DELETE FROM action_receipts'), /append-only|not allowed/);
        await assert.rejects(store.raw(`UPDATE heartbeats SET at = '${t(99)}'`), /append-only|not allowed/);
        await assert.rejects(store.raw('DELETE FROM heartbeats'), /append-only|not allowed/);
        assert.equal((await ledger.listActionReceipts()).length, 1);
        assert.equal((await ledger.latestHeartbeats())[0]!.last_seen, t(0));
      } finally {
        await ledger.close();
      }
    });
  });

  describe('heartbeats', () => {
    it('latest per source is the most recently recorded beat, with its note and the count of beats', async () => {
      const ledger = await (await harness.fresh()).open();
      try {
        assert.deepEqual(await ledger.recordHeartbeat({ source: 'watchdog', at: t(0) }), {
          source: 'watchdog',
          at: t(0),
          note: null,
        });
        await ledger.recordHeartbeat({ source: 'oracle-2', at: t(5), note: 'first' });
        await ledger.recordHeartbeat({ source: 'watchdog', at: t(600), note: 'cron tick' });
        // A beat dated earlier but recorded later is the latest: recording order, not the clock it carries.
        await ledger.recordHeartbeat({ source: 'oracle-2', at: t(1) });
        assert.deepEqual(await ledger.latestHeartbeats(), [
          { source: 'oracle-2', last_seen: t(1), beats: 2, note: null },
          { source: 'watchdog', last_seen: t(600), beats: 2, note: 'cron tick' },
        ]);
      } finally {
        await ledger.close();
      }
    });

    it('refuses a source that is not a slug, a time that is not ISO UTC, or a note with control characters', async () => {
      const ledger = await (await harness.fresh()).open();
      try {
        await rejectsWith(
          ledger.recordHeartbeat({ source: 'Watch Dog', at: t(0) }),
          'ledger_input_invalid',
          /^ledger: source /,
        );
        await rejectsWith(ledger.recordHeartbeat({ source: '', at: t(0) }), 'ledger_input_invalid', /^ledger: source /);
        await rejectsWith(
          ledger.recordHeartbeat({ source: 'watchdog', at: '2025-01-01 00:00:00' }),
          'ledger_input_invalid',
          /^ledger: at /,
        );
        await rejectsWith(
          ledger.recordHeartbeat({ source: 'watchdog', at: t(0), note: 'two\nlines' }),
          'ledger_input_invalid',
          /^ledger: note /,
        );
        assert.deepEqual(await ledger.latestHeartbeats(), []);
      } finally {
        await ledger.close();
      }
    });
  });

  describe('schema version 3', () => {
    it('a version-2 store left by an older service migrates to the latest: its payments and invoices stay, and receipts and heartbeats work', async () => {
      const store = await harness.fresh();
      const steps = harness.migrations.filter((m) => m.version <= 2);
      await store.exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL);
${steps.map((m) => `${m.sql}\nINSERT INTO schema_migrations (version, name) VALUES (${m.version}, '${m.name}');`).join('\n')}`);
      // Rows written by the version-2 service through its own API (the store is at version 2 until reopened by this one).
      const key = newKey();
      const ref = `INV-v2-${key.nonce.slice(2, 14)}`;
      const r = reservation(key);
      await store.exec(`INSERT INTO settlements (payer, nonce, product_id, sku_id, resource, amount_atomic, asset, network, pay_to,
  payment_sha256, self_funded, valid_before, state, attempts, created_at, updated_at)
VALUES ('${key.payer}', '${key.nonce}', '${r.product_id}', '${r.sku_id}', '${r.resource}', '${r.amount_atomic}', '${r.asset.toLowerCase()}',
  '${r.network}', '${r.pay_to.toLowerCase()}', '${r.payment_sha256}', FALSE, '${r.valid_before}', 'RESERVED', 1, '${t(0)}', '${t(0)}');
INSERT INTO settlement_events (payer, nonce, from_state, to_state, attempt, at) VALUES ('${key.payer}', '${key.nonce}', NULL, 'RESERVED', 1, '${t(0)}');
INSERT INTO invoices (ref, product_id, sku_id, resource, commissioned_by, amount_atomic, currency, state, created_at)
VALUES ('${ref}', '${invoice(ref).product_id}', 's', '/r', 'Example Ltd', '100', 'GBP', 'ISSUED', '${t(0)}');`);
      const ledger = await store.open();
      try {
        assert.equal(ledger.schemaVersion, 6);
        const versions = (await store.raw('SELECT version FROM schema_migrations ORDER BY version')).map((row) =>
          Number(row.version),
        );
        assert.deepEqual(versions, [1, 2, 3, 4, 5, 6]);
        const old = (await ledger.get(key))!;
        assert.deepEqual(
          [old.state, old.valid_before, old.amount_atomic, old.at],
          ['RESERVED', r.valid_before, r.amount_atomic, t(0)],
        );
        assert.deepEqual(
          (await ledger.history(key)).map((e) => [e.from, e.to]),
          [[null, 'RESERVED']],
        );
        assert.equal((await ledger.getInvoice(ref))!.state, 'ISSUED');
        assert.equal((await ledger.reserve(reservation(key, { at: t(1) }))).outcome, 'exists');
        assert.deepEqual(await ledger.listActionReceipts(), []);
        await append(ledger, 'after-migration');
        await ledger.recordHeartbeat({ source: 'watchdog', at: t(2) });
        assert.equal((await ledger.latestHeartbeats()).length, 1);
      } finally {
        await ledger.close();
      }
    });
  });
}
