import pg from 'pg';
import { GspcError } from '../../core/errors.js';
import { ledgerError } from '../ledger-errors.js';
import type { ActionJobReceipt } from '../../core/ledger/action-jobs-receipt.js';
import type { HeartbeatLatest } from '../../core/ledger/oracle-fleet.js';
import { GENESIS_SHA256, headOf } from '../../core/ledger/receipt-chain.js';
import {
  actionReceiptAppend,
  invoiceRef,
  isoTime,
  listFilter,
  newHeartbeat,
  newInvoice,
  newReservation,
  paymentKey,
  receiptListLimit,
  settledForQuery,
  sha256Hex,
} from '../ledger-input.js';
import {
  afterRefusal,
  appendRaced,
  checkAppend,
  existingOutcome,
  invoiceConflict,
  invoiceNotFound,
  jobHistory,
  planAttachArtefact,
  planMarkFailed,
  planMarkSettled,
  planMarkUnknown,
  planResolveUnknown,
  sameInvoice,
  type TransitionPlan,
} from '../ledger-rules.js';
import {
  heartbeatLatest,
  heartbeatRecord,
  invoiceRecord,
  LATEST_HEARTBEATS_SQL,
  patchColumns,
  reopenGuard,
  reopenSet,
  settlementEvent,
  settlementRecord,
  storedActionReceipt,
  type ActionReceiptRow,
  type HeartbeatLatestRow,
  type HeartbeatRow,
  type InvoiceRow,
  type SettlementEventRow,
  type SettlementRow,
} from '../ledger-rows.js';
import type {
  ArtefactAttachment,
  HeartbeatRecord,
  InvoiceRecord,
  Ledger,
  NewHeartbeat,
  NewInvoice,
  NewReservation,
  PaymentKey,
  ReserveOutcome,
  SettlementEvent,
  SettlementFilter,
  SettlementRecord,
  StoredActionReceipt,
  UnknownResolution,
} from '../ledger.js';
import { migratePostgres } from './postgres-migrate.js';
import { redactedUrl, unavailableIfConnection } from './postgres-errors.js';

/** The unique payment-identifier index (schema 6) refused an insert. */
function isIdTaken(e: unknown): boolean {
  const err = e as { code?: string; constraint?: string };
  return err?.code === '23505' && err.constraint === 'settlements_payment_id';
}

const columns = (
  artefact: string,
) => `payer, nonce, product_id, sku_id, resource, amount_atomic::text AS amount_atomic, asset, network, pay_to,
  payment_sha256, self_funded, valid_before::text AS valid_before, state, attempts, transaction_ref, error, ${artefact}, artefact_sha256, receipt,
  created_at, updated_at, payment_id_sha256`;
const COLUMNS = columns('artefact');
// Listings without artefacts never read the blobs (the hash stays, so callers see one exists).
const COLUMNS_NO_BLOB = columns('NULL::bytea AS artefact');
const invoiceColumns = (
  artefact: string,
) => `ref, product_id, sku_id, resource, commissioned_by, amount_atomic::text AS amount_atomic, currency, state,
  created_at, paid_at, ${artefact}, artefact_sha256, receipt`;
const INVOICE_COLUMNS = invoiceColumns('artefact');
const INVOICE_COLUMNS_NO_BLOB = invoiceColumns('NULL::bytea AS artefact');

/** Appends the history line of the row a data-modifying CTE named `changed` produced. */
const EVENT_FROM_CHANGED = (fromSql: string, atParam: string) => `ev AS (
  INSERT INTO settlement_events (payer, nonce, from_state, to_state, attempt, transaction_ref, error, at)
  SELECT payer, nonce, ${fromSql}, state, attempts, transaction_ref, error, ${atParam}::text FROM changed)`;

/** The reopen's parameter numbers, after payer, nonce, payment_sha256, at and self_funded ($1-$5). */
const REOPEN_PARAMS = {
  product_id: 6,
  sku_id: 7,
  resource: 8,
  amount_atomic: 9,
  asset: 10,
  network: 11,
  pay_to: 12,
  valid_before: 13,
  payment_id_sha256: 14,
} as const;

// A reserve can lose a race to a reopen-then-fail by someone else; a few rounds always settle it.
const RESERVE_ROUNDS = 5;

/**
 * The replicated ledger: a pg.Pool, and every change is ONE statement (a data-modifying CTE:
 * the conditional insert or update plus its history line), so it is atomic without a
 * client-held transaction. Exactly-once comes from the database: `INSERT ... ON CONFLICT DO
 * NOTHING` lets one of any number of concurrent reservers insert, and `UPDATE ... WHERE state =
 * <from>` is re-checked on the latest row version under READ COMMITTED, so one mover wins.
 */
export class PostgresLedger implements Ledger {
  readonly backend = 'postgres' as const;
  private closed = false;

  private constructor(
    private readonly pool: pg.Pool,
    readonly schemaVersion: number,
    private readonly where: string,
  ) {}

  static async open(databaseUrl: string, poolMax = 10): Promise<PostgresLedger> {
    const where = `PostgreSQL ${redactedUrl(databaseUrl)}`;
    const pool = new pg.Pool({ connectionString: databaseUrl, max: poolMax });
    // An idle client losing its connection emits 'error' on the pool; unhandled, that would
    // crash the process. The next query gets a fresh connection and reports any real outage.
    pool.on('error', () => undefined);
    try {
      return new PostgresLedger(pool, await migratePostgres(pool, where), where);
    } catch (e) {
      await pool.end().catch(() => undefined);
      throw e instanceof GspcError ? e : unavailableIfConnection(e, where, true);
    }
  }

  async reserve(r: NewReservation): Promise<ReserveOutcome> {
    const n = newReservation(r);
    for (let round = 0; round < RESERVE_ROUNDS; round++) {
      const inserted = await this.one<SettlementRow>(
        `WITH changed AS (
          INSERT INTO settlements (payer, nonce, product_id, sku_id, resource, amount_atomic, asset, network,
            pay_to, payment_sha256, self_funded, valid_before, state, attempts, created_at, updated_at, payment_id_sha256)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $13, 'RESERVED', 1, $12, $12, $14)
          ON CONFLICT (payer, nonce) DO NOTHING RETURNING *),
        ${EVENT_FROM_CHANGED('NULL', '$12')}
        SELECT ${COLUMNS} FROM changed`,
        [
          n.payer,
          n.nonce,
          n.product_id,
          n.sku_id,
          n.resource,
          n.amount_atomic,
          n.asset,
          n.network,
          n.pay_to,
          n.payment_sha256,
          n.self_funded,
          n.at,
          n.valid_before,
          n.payment_id_sha256 ?? null,
        ],
      ).catch(async (e: unknown) => {
        // The unique payment-identifier index (schema 6): another payment holds this id.
        if (n.payment_id_sha256 === undefined || n.payment_id_sha256 === null || !isIdTaken(e)) throw e;
        return { id_taken: true } as const;
      });
      if (inserted !== undefined && 'id_taken' in inserted) {
        // The catch above answers id_taken only for a reservation carrying an id.
        const holder = await this.byPaymentId(n.payment_id_sha256 as string);
        // A duplicate of this very reservation, inserted by a concurrent request: the unique id
        // index caught it before the (payer, nonce) arbiter saw the row (PostgreSQL reports a
        // conflict on a non-arbiter index as an error). Try again: the row is committed now, so
        // the insert does nothing and the record is answered as the duplicate it is.
        if (holder === undefined || (holder.payer === n.payer && holder.nonce === n.nonce)) continue;
        return { outcome: 'id_taken', record: settlementRecord(holder) };
      }
      if (inserted) return { outcome: 'reserved', record: settlementRecord(inserted) };
      // A FAILED attempt of the same payload may be retried: nothing moved the first time. The
      // row then describes this attempt (ledger.ts, reserve), self-funded if either attempt was.
      const reopened = await this.one<SettlementRow>(
        `WITH changed AS (
          UPDATE settlements SET state = 'RESERVED', attempts = attempts + 1, error = NULL, updated_at = $4,
            ${reopenSet((f) => `$${REOPEN_PARAMS[f]}`)}, self_funded = self_funded OR $5
          WHERE payer = $1 AND nonce = $2 AND state = 'FAILED' AND payment_sha256 = $3
            AND ${reopenGuard((f) => `$${REOPEN_PARAMS[f]}`)} RETURNING *),
        ${EVENT_FROM_CHANGED(`'FAILED'`, '$4')}
        SELECT ${COLUMNS} FROM changed`,
        [
          n.payer,
          n.nonce,
          n.payment_sha256,
          n.at,
          n.self_funded,
          n.product_id,
          n.sku_id,
          n.resource,
          n.amount_atomic,
          n.asset,
          n.network,
          n.pay_to,
          n.valid_before,
          n.payment_id_sha256 ?? null,
        ],
      );
      if (reopened) return { outcome: 'reserved', record: settlementRecord(reopened) };
      const existing = await this.get(n);
      if (existing === undefined) continue; // cannot happen (nothing is deleted); try again rather than guess
      const outcome = existingOutcome(existing, n);
      if (outcome !== 'retry') return outcome;
    }
    throw ledgerError('ledger_unavailable', `ledger: reserve of ${n.payer} ${n.nonce} kept racing other writers`, {
      payer: n.payer,
      nonce: n.nonce,
    });
  }

  async markSettled(
    key: PaymentKey,
    s: ArtefactAttachment & { transaction: string; at: string },
  ): Promise<SettlementRecord> {
    // Committed without waiting for the WAL flush (decision O15), as SQLite's.
    return this.transition(key, planMarkSettled(s), { flushed: false });
  }

  async markFailed(key: PaymentKey, f: { error: string; at: string }): Promise<SettlementRecord> {
    return this.transition(key, planMarkFailed(f));
  }

  async markUnknown(
    key: PaymentKey,
    f: { error: string; at: string; transaction?: string },
  ): Promise<SettlementRecord> {
    return this.transition(key, planMarkUnknown(f));
  }

  async reopenUnknown(
    key: PaymentKey,
    f: { error: string; at: string; transaction?: string },
  ): Promise<SettlementRecord> {
    return this.transition(key, planMarkUnknown(f, 'FAILED'));
  }

  async resolveUnknown(key: PaymentKey, outcome: UnknownResolution): Promise<SettlementRecord> {
    return this.transition(key, planResolveUnknown(outcome));
  }

  async attachArtefact(key: PaymentKey, a: ArtefactAttachment & { at: string }): Promise<SettlementRecord> {
    return this.transition(key, planAttachArtefact(a));
  }

  async findByPaymentId(payment_id_sha256: string): Promise<SettlementRecord | undefined> {
    const row = await this.byPaymentId(sha256Hex('payment_id_sha256', payment_id_sha256));
    return row && settlementRecord(row);
  }

  /** The row holding a payment-identifier hash (one at most since schema 6). */
  private byPaymentId(h: string): Promise<SettlementRow | undefined> {
    return this.one<SettlementRow>(
      `SELECT ${COLUMNS} FROM settlements WHERE payment_id_sha256 = $1 ORDER BY id DESC LIMIT 1`,
      [h],
    );
  }

  async findSettledFor(f: {
    payer: string;
    product_id: string;
    resource: string;
  }): Promise<SettlementRecord | undefined> {
    const q = settledForQuery(f);
    const row = await this.one<SettlementRow>(
      `SELECT ${COLUMNS} FROM settlements WHERE payer = $1 AND product_id = $2 AND resource = $3 AND state = 'SETTLED'
       ORDER BY (artefact_sha256 IS NULL) DESC, id DESC LIMIT 1`,
      [q.payer, q.product_id, q.resource],
    );
    return row && settlementRecord(row);
  }

  async get(key: PaymentKey): Promise<SettlementRecord | undefined> {
    const k = paymentKey(key);
    const row = await this.one<SettlementRow>(`SELECT ${COLUMNS} FROM settlements WHERE payer = $1 AND nonce = $2`, [
      k.payer,
      k.nonce,
    ]);
    return row && settlementRecord(row);
  }

  async list(filter?: SettlementFilter): Promise<SettlementRecord[]> {
    const { state, withArtefacts } = listFilter(filter);
    const cols = withArtefacts ? COLUMNS : COLUMNS_NO_BLOB;
    const rows =
      state === undefined
        ? await this.all<SettlementRow>(`SELECT ${cols} FROM settlements ORDER BY id`, [])
        : await this.all<SettlementRow>(`SELECT ${cols} FROM settlements WHERE state = $1 ORDER BY id`, [state]);
    return rows.map(settlementRecord);
  }

  async history(key: PaymentKey): Promise<SettlementEvent[]> {
    const k = paymentKey(key);
    const rows = await this.all<SettlementEventRow>(
      `SELECT from_state, to_state, attempt, transaction_ref, error, at FROM settlement_events
      WHERE payer = $1 AND nonce = $2 ORDER BY id`,
      [k.payer, k.nonce],
    );
    return rows.map(settlementEvent);
  }

  async createInvoice(i: NewInvoice): Promise<InvoiceRecord> {
    const n = newInvoice(i);
    // No conflict target: a ref already used, or an open invoice of the same request (the
    // partial unique index of schema 4), both leave the existing row, found below.
    const inserted = await this.one<InvoiceRow>(
      `INSERT INTO invoices (ref, product_id, sku_id, resource, commissioned_by, amount_atomic, currency, state, created_at,
        artefact, artefact_sha256, receipt, request_sha256)
      VALUES ($1, $2, $3, $4, $5, $6, $7, 'ISSUED', $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING RETURNING ${INVOICE_COLUMNS}`,
      [
        n.ref,
        n.product_id,
        n.sku_id,
        n.resource,
        n.commissioned_by,
        n.amount_atomic,
        n.currency,
        n.at,
        n.artefact?.artefact ?? null,
        n.artefact?.artefact_sha256 ?? null,
        n.artefact?.receipt ?? null,
        n.request_sha256 ?? null,
      ],
    );
    if (inserted) return invoiceRecord(inserted);
    const existing = await this.getInvoice(n.ref);
    if (existing) return sameInvoice(n, existing) ? existing : invoiceConflict(n.ref);
    // The request's open invoice; paid meanwhile (then this one can be inserted): try again.
    const open = n.request_sha256 === undefined ? undefined : await this.findOpenInvoice(n.request_sha256);
    return open ?? this.createInvoice(i);
  }

  async findOpenInvoice(request_sha256: string): Promise<InvoiceRecord | undefined> {
    const row = await this.one<InvoiceRow>(
      `SELECT ${INVOICE_COLUMNS} FROM invoices WHERE request_sha256 = $1 AND state = 'ISSUED'`,
      [sha256Hex('request_sha256', request_sha256)],
    );
    return row && invoiceRecord(row);
  }

  async getInvoice(ref: string): Promise<InvoiceRecord | undefined> {
    const row = await this.one<InvoiceRow>(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE ref = $1`, [invoiceRef(ref)]);
    return row && invoiceRecord(row);
  }

  async markInvoicePaid(ref: string, at: string): Promise<InvoiceRecord> {
    const r = invoiceRef(ref);
    const paid = await this.one<InvoiceRow>(
      `UPDATE invoices SET state = 'PAID', paid_at = $2 WHERE ref = $1 AND state = 'ISSUED'
      RETURNING ${INVOICE_COLUMNS}`,
      [r, isoTime('at', at)],
    );
    return paid ? invoiceRecord(paid) : ((await this.getInvoice(r)) ?? invoiceNotFound(r));
  }

  async listInvoices(filter?: { withArtefacts?: boolean }): Promise<InvoiceRecord[]> {
    const cols = listFilter(filter).withArtefacts ? INVOICE_COLUMNS : INVOICE_COLUMNS_NO_BLOB;
    return (await this.all<InvoiceRow>(`SELECT ${cols} FROM invoices ORDER BY id`, [])).map(invoiceRecord);
  }

  async appendActionReceipt(receipt: ActionJobReceipt, expectedHeadSha256: string): Promise<StoredActionReceipt> {
    const { sealed, expected } = actionReceiptAppend(receipt, expectedHeadSha256);
    const r = sealed.receipt;
    const head = await this.one<ActionReceiptRow>(
      'SELECT seq, job_id, sha256, body FROM action_receipts ORDER BY seq DESC LIMIT 1',
      [],
    );
    const history = await this.all<ActionReceiptRow>(
      'SELECT seq, body FROM action_receipts WHERE job_id = $1 ORDER BY seq',
      [r.job_id],
    );
    checkAppend(sealed, expected, headOf(head && storedActionReceipt(head)), jobHistory(r.job_id, history));
    // The history read above is still the job's history if the head has not moved (receipts
    // are only appended), and the insert re-checks the head in the same statement; two writers
    // on one head both aim at seq head + 1, and the primary key lets exactly one of them in.
    const row = await this.one<ActionReceiptRow>(
      `INSERT INTO action_receipts (seq, job_id, sha256, body)
        SELECT $1::bigint, $2::text, $3::text, $4::text
        WHERE COALESCE((SELECT sha256 FROM action_receipts ORDER BY seq DESC LIMIT 1), $6::text) = $5::text
      ON CONFLICT (seq) DO NOTHING RETURNING seq, job_id, sha256, body`,
      [r.seq, r.job_id, sealed.sha256, sealed.body, expected, GENESIS_SHA256],
    );
    return row ? storedActionReceipt(row) : appendRaced(r.seq);
  }

  async listActionReceipts(filter?: { limit?: number }): Promise<StoredActionReceipt[]> {
    // LIMIT NULL is PostgreSQL's "no limit".
    const rows = await this.all<ActionReceiptRow>(
      'SELECT seq, job_id, sha256, body FROM action_receipts ORDER BY seq LIMIT $1',
      [receiptListLimit(filter)],
    );
    return rows.map(storedActionReceipt);
  }

  async recordHeartbeat(h: NewHeartbeat): Promise<HeartbeatRecord> {
    const n = newHeartbeat(h);
    return heartbeatRecord(
      (await this.one<HeartbeatRow>(
        'INSERT INTO heartbeats (source, at, note) VALUES ($1, $2, $3) RETURNING source, at, note',
        [n.source, n.at, n.note],
      ))!,
    );
  }

  async latestHeartbeats(): Promise<HeartbeatLatest[]> {
    return (await this.all<HeartbeatLatestRow>(LATEST_HEARTBEATS_SQL, [])).map(heartbeatLatest);
  }

  async ping(): Promise<void> {
    await this.all('SELECT 1', []);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  /** One conditional UPDATE (the state machine's `from` in the WHERE) plus its history line. */
  private async transition(
    key: PaymentKey,
    plan: TransitionPlan,
    o: { flushed: boolean } = { flushed: true },
  ): Promise<SettlementRecord> {
    const k = paymentKey(key);
    const cols = patchColumns(plan.patch);
    const params: unknown[] = [k.payer, k.nonce, plan.from, plan.to, plan.at, ...cols.map(([, v]) => v)];
    const set = ['state = $4', 'updated_at = $5', ...cols.map(([c], i) => `${c} = $${i + 6}`)].join(', ');
    const extra = plan.requireNoArtefact ? ' AND artefact IS NULL' : '';
    // Unflushed: `synchronous_commit` off for this transaction alone, set in a CTE the result
    // joins so that the statement evaluates it; PostgreSQL reads the setting at commit.
    const unflushed = o.flushed
      ? { cte: '', join: '' }
      : {
          cte: ",\n      unflushed AS (SELECT set_config('synchronous_commit', 'off', true))",
          join: ' CROSS JOIN unflushed',
        };
    const row = await this.one<SettlementRow>(
      `WITH changed AS (
        UPDATE settlements SET ${set} WHERE payer = $1 AND nonce = $2 AND state = $3${extra} RETURNING *),
      ${EVENT_FROM_CHANGED('$3::text', '$5')}${unflushed.cte}
      SELECT ${COLUMNS} FROM changed${unflushed.join}`,
      params,
    );
    return row ? settlementRecord(row) : afterRefusal(plan, k, await this.get(k));
  }

  private async one<R extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<R | undefined> {
    return (await this.all<R>(sql, params))[0];
  }

  private async all<R extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<R[]> {
    if (this.closed) throw ledgerError('ledger_unavailable', `ledger: the ${this.where} ledger is closed`);
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (e) {
      throw unavailableIfConnection(e, this.where, false);
    }
  }
}
