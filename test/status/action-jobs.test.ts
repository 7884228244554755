/**
 * GET /api/action-jobs over a real SQLite ledger: the document's schema and required fields;
 * an intact chain of several jobs; tampering done directly in the SQLite file (a changed
 * receipt, a changed receipt with its hash recomputed, a deleted middle row, a body whose seq
 * disagrees with its row) found as BROKEN at the right seq with the reason; UNREAD without a
 * ledger or when it cannot be read; the listing and verification bounds. The CLI
 * (`gspc action-jobs record | verify`) is tested in test/cli/status-cli.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { appendOnHead, cancelActionJob, recordActionJob } from '../../src/cli/status-commands.js';
import { canonicalJson } from '../../src/core/crypto/canonical-json.js';
import { ACTION_IDS, type ActionJobReceipt, type JobState } from '../../src/core/ledger/action-jobs-receipt.js';
import { RECEIPTS_SHOWN, VERIFY_BOUND } from '../../src/core/ledger/action-jobs-document.js';
import {
  GENESIS_HEAD,
  GENESIS_SHA256,
  nextReceipt,
  sealReceipt,
  verifyReceiptChain,
  type StoredReceiptRow,
} from '../../src/core/ledger/receipt-chain.js';
import { buildApp } from '../../src/app.js';
import type { ServedState } from '../../src/serve/served-state.js';
import { NO_SOURCES } from '../../src/serve/context.js';
import type { Ledger } from '../../src/store/ledger.js';
import { openLedger } from '../../src/store/open-ledger.js';
import { demoApp } from '../helpers/app.js';
import { tempDir } from '../helpers/tmp.js';

const NOW = new Date('2026-09-12T08:00:00.000Z');
const dir = tempDir('gspc-action-jobs-');
let count = 0;
// The demo release is published once, at load (tempDir must not be called in a before() hook).
const state: ServedState = demoApp().state;
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const clock = (seconds: number) => () => new Date(NOW.getTime() - 3_600_000 + seconds * 1000);

function app(ledger: Ledger | undefined): FastifyInstance {
  const a = buildApp({
    state,
    logLevel: 'silent',
    now: () => NOW,
    sources: NO_SOURCES,
    ...(ledger !== undefined && { ledger }),
  });
  after(() => a.close());
  return a;
}

/** A fresh SQLite ledger file with `jobs` recorded jobs (intent + REFUSED each). */
async function ledgerWith(jobs: number): Promise<{ ledger: Ledger; path: string }> {
  const path = join(dir, `ledger-${++count}.sqlite`);
  const ledger = await openLedger({ sqlitePath: path });
  after(() => ledger.close());
  for (let i = 0; i < jobs; i++) {
    await recordActionJob(ledger, {
      action: ACTION_IDS[i % ACTION_IDS.length]!,
      reason: `test job ${i}`,
      by: 'route test',
      jobId: `job-${i}`,
      now: clock(i),
    });
  }
  return { ledger, path };
}

/** Rows as the store keeps them, for the given (job, state) steps, sealed and linked from genesis. */
function sealedRows(steps: ReadonlyArray<readonly [string, JobState]>): StoredReceiptRow[] {
  const rows: StoredReceiptRow[] = [];
  let head = GENESIS_HEAD;
  for (const [job_id, state] of steps) {
    const s = sealReceipt(
      nextReceipt(head, {
        job_id,
        kind: state === 'REQUESTED' ? 'intent' : 'state',
        action_id: 'svc.gspc.board.read',
        state,
        reason: 'r',
        recorded_at: NOW.toISOString(),
        recorded_by: 'unit',
      }),
    );
    rows.push({ seq: s.receipt.seq, job_id, sha256: s.sha256, body: s.body });
    head = { seq: s.receipt.seq, sha256: s.sha256 };
  }
  return rows;
}

/** What an attacker with write access to the file can do: drop the guards and rewrite rows. */
function tamper(path: string, sql: string, ...params: unknown[]): void {
  const db = new Database(path);
  try {
    db.exec('DROP TRIGGER IF EXISTS action_receipts_frozen; DROP TRIGGER IF EXISTS action_receipts_keep;');
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

const bodyOf = async (ledger: Ledger, seq: number) =>
  (await ledger.listActionReceipts()).find((r) => r.seq === seq)!.body;

async function get(a: FastifyInstance, url = '/api/action-jobs') {
  const res = await a.inject({ method: 'GET', url });
  return { res, doc: res.json() as Record<string, any> };
}

describe('GET /api/action-jobs', () => {
  it('serves svc.action-jobs/0.1 with every required field, the FAIL_CLOSED policy and the headers', async () => {
    const { ledger } = await ledgerWith(1);
    const { res, doc } = await get(app(ledger));
    assert.deepEqual(
      [
        res.statusCode,
        res.headers['content-type'],
        res.headers['cache-control'],
        res.headers['access-control-allow-origin'],
        res.headers['x-content-type-options'],
      ],
      [200, 'application/json; charset=utf-8', 'no-store', '*', 'nosniff'],
    );
    assert.deepEqual(
      [doc.schema, doc.observed_at, doc.source],
      ['svc.action-jobs/0.1', NOW.toISOString(), 'action-job ledger (sqlite)'],
    );
    for (const k of [
      'schema',
      'observed_at',
      'source',
      'policy',
      'staging',
      'concurrency_guarantee',
      'job_states',
      'chain',
      'jobs',
      'receipts_total',
      'receipts_limit',
      'receipts',
    ])
      assert.ok(k in doc, k);
    assert.deepEqual(
      { ...doc.policy, reason: typeof doc.policy.reason },
      {
        mode: 'FAIL_CLOSED',
        execution_enabled: false,
        executor_ref: null,
        provider_calls: false,
        egress: false,
        training: false,
        board_writes: false,
        reason: 'string',
      },
    );
    assert.deepEqual(
      [doc.staging, doc.concurrency_guarantee, doc.job_states],
      ['SINGLE_WRITER', 'NONE', ['REQUESTED', 'REFUSED', 'CANCELLED']],
    );
    assert.deepEqual(Object.keys(doc.chain).sort(), [
      'head_sha256',
      'intact_length',
      'length',
      'reason',
      'state',
      'verification',
    ]);
    assert.equal(doc.chain.verification.bound, VERIFY_BOUND);
  });

  it('an intact chain of several jobs: INTACT, each job with its current state and receipt seqs, receipts linked and hashed', async () => {
    const { ledger } = await ledgerWith(3);
    // An intent whose refusal was never written (a record that stopped), closed later by cancel.
    await appendOnHead(ledger, (head) =>
      nextReceipt(head, {
        job_id: 'open-job',
        kind: 'intent',
        action_id: 'svc.xrpl.assets.read',
        state: 'REQUESTED',
        reason: 'left open',
        recorded_at: clock(10)().toISOString(),
        recorded_by: 'route test',
      }),
    );
    await recordActionJob(ledger, {
      action: 'svc.evidence.root.read',
      reason: 'after',
      by: 'route test',
      jobId: 'job-after',
      now: clock(11),
    });
    await cancelActionJob(ledger, { jobId: 'open-job', reason: 'withdrawn', by: 'route test', now: clock(12) });
    const rows = await ledger.listActionReceipts();
    const { doc } = await get(app(ledger));
    assert.deepEqual(
      [doc.chain.state, doc.chain.length, doc.chain.intact_length, doc.chain.head_sha256],
      ['INTACT', 10, 10, rows.at(-1)!.sha256],
    );
    assert.equal('broken_at_seq' in doc.chain, false);
    assert.deepEqual(
      doc.jobs.map((j: any) => [j.job_id, j.action_id, j.state, j.final, j.receipts]),
      [
        ['job-0', 'svc.gspc.board.read', 'REFUSED', true, [1, 2]],
        ['job-1', 'svc.regulation.deadlines.read', 'REFUSED', true, [3, 4]],
        ['job-2', 'svc.xrpl.assets.read', 'REFUSED', true, [5, 6]],
        ['open-job', 'svc.xrpl.assets.read', 'CANCELLED', true, [7, 10]],
        ['job-after', 'svc.evidence.root.read', 'REFUSED', true, [8, 9]],
      ],
    );
    assert.deepEqual(
      [doc.jobs[3].requested_at, doc.jobs[3].updated_at],
      [clock(10)().toISOString(), clock(12)().toISOString()],
    );
    assert.deepEqual([doc.receipts_total, doc.receipts.length], [10, 10]);
    let prev = GENESIS_SHA256;
    for (const [i, r] of (doc.receipts as Array<ActionJobReceipt & { sha256: string }>).entries()) {
      const { sha256: hash, ...receipt } = r;
      assert.equal(receipt.seq, i + 1);
      assert.equal(receipt.prev_sha256, prev);
      assert.equal(hash, sha256(canonicalJson(receipt)), 'a reader can recompute each hash from the served receipt');
      prev = hash;
    }
    assert.equal(doc.receipts[1].reason.startsWith('execution is disabled (policy FAIL_CLOSED)'), true);
  });

  it('an empty ledger is EMPTY (read, no receipt), with the genesis head', async () => {
    const { ledger } = await ledgerWith(0);
    const { doc } = await get(app(ledger));
    assert.deepEqual(
      [doc.chain.state, doc.chain.length, doc.chain.head_sha256, doc.jobs, doc.receipts, doc.receipts_total],
      ['EMPTY', 0, GENESIS_SHA256, [], [], 0],
    );
  });

  it('a receipt changed in the SQLite file is BROKEN at its seq; only the verified prefix becomes jobs and receipts', async () => {
    const { ledger, path } = await ledgerWith(3);
    const a = app(ledger);
    assert.equal((await get(a)).doc.chain.state, 'INTACT');
    tamper(path, `UPDATE action_receipts SET body = replace(body, 'test job 1', 'test job 1!') WHERE seq = 3`);
    const { res, doc } = await get(a);
    assert.deepEqual([res.statusCode, doc.chain.state, doc.chain.broken_at_seq], [200, 'BROKEN', 3]);
    assert.match(doc.chain.reason, /^seq 3: the body does not hash to its recorded sha256/);
    assert.deepEqual([doc.chain.length, doc.chain.intact_length, doc.receipts_total], [6, 2, 6]);
    assert.deepEqual(
      doc.jobs.map((j: any) => j.job_id),
      ['job-0'],
    );
    assert.deepEqual(
      doc.receipts.map((r: any) => r.seq),
      [1, 2],
    );
  });

  it('a receipt changed with its hash recomputed breaks the next link', async () => {
    const { ledger, path } = await ledgerWith(3);
    const forged = (await bodyOf(ledger, 2)).replace('"REFUSED"', '"CANCELLED"');
    tamper(path, 'UPDATE action_receipts SET body = ?, sha256 = ? WHERE seq = 2', forged, sha256(forged));
    const { doc } = await get(app(ledger));
    assert.deepEqual([doc.chain.state, doc.chain.broken_at_seq], ['BROKEN', 3]);
    assert.match(doc.chain.reason, /^seq 3: prev_sha256 is not the hash of seq 2/);
  });

  it('a deleted middle row is a gap: BROKEN at the missing seq', async () => {
    const { ledger, path } = await ledgerWith(3);
    tamper(path, 'DELETE FROM action_receipts WHERE seq = 4');
    const { doc } = await get(app(ledger));
    assert.deepEqual(
      [doc.chain.state, doc.chain.broken_at_seq, doc.chain.length, doc.chain.intact_length],
      ['BROKEN', 4, 5, 3],
    );
    assert.match(doc.chain.reason, /^seq 4: missing: the next stored receipt is seq 5/);
  });

  it('a body whose seq disagrees with its row is BROKEN there, even with its hash recomputed', async () => {
    const { ledger, path } = await ledgerWith(2);
    const moved = (await bodyOf(ledger, 2)).replace('"seq":2', '"seq":9');
    tamper(path, 'UPDATE action_receipts SET body = ?, sha256 = ? WHERE seq = 2', moved, sha256(moved));
    const { doc } = await get(app(ledger));
    assert.deepEqual([doc.chain.state, doc.chain.broken_at_seq], ['BROKEN', 2]);
    assert.match(doc.chain.reason, /the body says seq 9, but it is stored as seq 2/);
  });

  it('without a ledger: 200 with the chain UNREAD and the reason, never an empty chain', async () => {
    const { res, doc } = await get(app(undefined));
    assert.deepEqual(
      [res.statusCode, doc.schema, doc.source],
      [200, 'svc.action-jobs/0.1', 'no action-job ledger configured'],
    );
    assert.deepEqual(
      [
        doc.chain.state,
        doc.chain.length,
        doc.chain.head_sha256,
        doc.chain.intact_length,
        doc.jobs,
        doc.receipts,
        doc.receipts_total,
      ],
      ['UNREAD', null, null, null, null, null, null],
    );
    assert.match(doc.chain.reason, /without a ledger/);
    assert.equal(doc.policy.execution_enabled, false);
  });

  it('a ledger that cannot be read: 200, UNREAD with the error code as the reason', async () => {
    const { ledger } = await ledgerWith(1);
    const a = app(ledger);
    await ledger.close();
    const { res, doc } = await get(a);
    assert.deepEqual(
      [res.statusCode, doc.chain.state, doc.source, doc.jobs],
      [200, 'UNREAD', 'action-job ledger (sqlite), unread', null],
    );
    assert.match(doc.chain.reason, /could not be read \(ledger_unavailable\)/);
  });

  it('lists the newest receipts up to the limit and states the total', async () => {
    const { ledger } = await ledgerWith(RECEIPTS_SHOWN / 2 + 5);
    const { doc } = await get(app(ledger));
    assert.deepEqual([doc.receipts_total, doc.receipts_limit], [RECEIPTS_SHOWN + 10, RECEIPTS_SHOWN]);
    assert.deepEqual(
      doc.receipts.map((r: any) => r.seq),
      Array.from({ length: RECEIPTS_SHOWN }, (_, i) => i + 11),
    );
    assert.equal(doc.jobs.length, RECEIPTS_SHOWN / 2 + 5, 'every verified job is listed');
  });

  it('verifies up to the bound per request; a longer chain is UNREAD with the bound named', async () => {
    const { ledger, path } = await ledgerWith(0);
    const rows = sealedRows(Array.from({ length: VERIFY_BOUND }, (_, i) => [`bulk-${i}`, 'REQUESTED'] as const));
    const db = new Database(path);
    const insert = db.prepare(
      'INSERT INTO action_receipts (seq, job_id, sha256, body) VALUES (@seq, @job_id, @sha256, @body)',
    );
    db.transaction(() => {
      for (const r of rows) insert.run(r);
    })();
    db.close();
    const head = { seq: VERIFY_BOUND, sha256: rows.at(-1)!.sha256 };
    const a = app(ledger);
    const started = process.hrtime.bigint();
    const atBound = (await get(a)).doc;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.deepEqual(
      [atBound.chain.state, atBound.chain.length, atBound.receipts.length],
      ['INTACT', VERIFY_BOUND, RECEIPTS_SHOWN],
    );
    assert.ok(ms < 5000, `verifying ${VERIFY_BOUND} receipts took ${ms} ms`);
    await ledger.appendActionReceipt(
      nextReceipt(head, {
        job_id: 'one-more',
        kind: 'intent',
        action_id: 'svc.gspc.board.read',
        state: 'REQUESTED',
        reason: 'over',
        recorded_at: NOW.toISOString(),
        recorded_by: 'bound test',
      }),
      head.sha256,
    );
    const over = (await get(a)).doc;
    assert.deepEqual([over.chain.state, over.chain.length, over.jobs, over.receipts], ['UNREAD', null, null, null]);
    assert.match(over.chain.reason, new RegExp(`more than ${VERIFY_BOUND} receipts`));
  });

  it('refuses query parameters with 400 bad_query', async () => {
    const res = await app(undefined).inject({ method: 'GET', url: '/api/action-jobs?limit=5' });
    assert.deepEqual([res.statusCode, res.json().code], [400, 'bad_query']);
  });
});

describe('verifyReceiptChain: every kind of break, named at its seq', () => {
  /** Four receipts: job a (intent, refused), job b (intent, cancelled). */
  const chain = () =>
    sealedRows([
      ['a', 'REQUESTED'],
      ['a', 'REFUSED'],
      ['b', 'REQUESTED'],
      ['b', 'CANCELLED'],
    ]);
  /** Replaces row i's body and recomputes its hash, as a forger would. */
  const forge = (rows: StoredReceiptRow[], i: number, body: string) => {
    rows[i] = { ...rows[i]!, body, sha256: sha256(body) };
    return rows;
  };

  const cases: Array<[string, (rows: StoredReceiptRow[]) => StoredReceiptRow[], number, RegExp]> = [
    ['two rows swapped (reorder)', (r) => [r[0]!, r[2]!, r[1]!, r[3]!], 2, /out of order: found seq 3/],
    ['the first row removed', (r) => r.slice(1), 1, /missing: the next stored receipt is seq 2/],
    [
      'a recorded hash changed',
      (r) => {
        r[3] = { ...r[3]!, sha256: 'a'.repeat(64) };
        return r;
      },
      4,
      /does not hash to its recorded sha256/,
    ],
    ['a body that is not JSON', (r) => forge(r, 1, '{"seq":2'), 2, /not JSON/],
    ['a body that is not a receipt', (r) => forge(r, 1, '{"seq":2}'), 2, /not a receipt: schema/],
    [
      'a body that is not canonical',
      (r) => forge(r, 1, JSON.stringify(JSON.parse(r[1]!.body), null, 1)),
      2,
      /not RFC 8785 canonical/,
    ],
    [
      'a body moved to another job',
      (r) => forge(r, 1, r[1]!.body.replace('"job_id":"a"', '"job_id":"c"')),
      2,
      /names job c, but it is stored under job a/,
    ],
    [
      'a first receipt not linked to genesis',
      (r) => forge(r, 0, r[0]!.body.replace(GENESIS_SHA256, 'b'.repeat(64))),
      1,
      /not the genesis value/,
    ],
  ];
  for (const [name, mutate, seq, reason] of cases) {
    it(`${name}: BROKEN at seq ${seq}`, () => {
      const { check, receipts } = verifyReceiptChain(mutate(chain()));
      assert.equal(check.state, 'BROKEN');
      assert.equal(check.broken_at_seq, seq);
      assert.match(check.reason, reason);
      assert.equal(check.intact_length, seq - 1);
      assert.equal(receipts.length, seq - 1);
    });
  }

  it('an unaltered chain is INTACT, and an illegal transition is caught even when every hash and link is right', () => {
    assert.equal(verifyReceiptChain(chain()).check.state, 'INTACT');
    // A fully sealed chain whose second job is a state receipt with no intent.
    const { check } = verifyReceiptChain(
      sealedRows([
        ['a', 'REQUESTED'],
        ['z', 'REFUSED'],
      ]),
    );
    assert.deepEqual([check.state, check.broken_at_seq], ['BROKEN', 2]);
    assert.match(check.reason, /job z has no intent receipt/);
  });
});
