import Database from 'better-sqlite3';
import { GspcError } from '../../core/errors.js';
import { writeFailure } from './sqlite-write-errors.js';
import { ledgerError } from '../ledger-errors.js';
import { WalCheckpointer } from './wal-checkpointer.js';
import type { ActionJobReceipt } from '../../core/ledger/action-jobs-receipt.js';
import type { HeartbeatLatest } from '../../core/ledger/oracle-fleet.js';
import { headOf } from '../../core/ledger/receipt-chain.js';
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
  SettlementState,
  StoredActionReceipt,
  UnknownResolution,
} from '../ledger.js';
import { migrateSqlite } from './sqlite-migrate.js';

/** The row holding `id` when `e` is the unique payment-identifier index refusing an insert. */
function idHolder(
  e: unknown,
  id: string | null,
  byId: (h: string) => SettlementRow | undefined,
): SettlementRow | undefined {
  const err = e as { code?: string; message?: string };
  if (id === null || err?.code !== 'SQLITE_CONSTRAINT_UNIQUE' || !/payment_id_sha256/.test(err.message ?? ''))
    return undefined;
  return byId(id);
}

const columns = (
  artefact: string,
) => `payer, nonce, product_id, sku_id, resource, amount_atomic, asset, network, pay_to, payment_sha256,
  self_funded, valid_before, state, attempts, transaction_ref, error, ${artefact}, artefact_sha256, receipt, created_at, updated_at,
  payment_id_sha256`;
const COLUMNS = columns('artefact');
// Listings without artefacts never read the blobs (the hash stays, so callers see one exists).
const COLUMNS_NO_BLOB = columns('NULL AS artefact');
const invoiceColumns = (
  artefact: string,
) => `ref, product_id, sku_id, resource, commissioned_by, amount_atomic, currency, state, created_at, paid_at,
  ${artefact}, artefact_sha256, receipt`;
const INVOICE_COLUMNS = invoiceColumns('artefact');
const INVOICE_COLUMNS_NO_BLOB = invoiceColumns('NULL AS artefact');

/**
 * The embedded ledger: one better-sqlite3 connection in WAL mode with synchronous=FULL (a commit
 * survives power loss), except markSettled's, which waits for the disk no longer than the next
 * durable commit or checkpoint (decision O15). better-sqlite3 is synchronous, so each method is a
 * short IMMEDIATE transaction: within this process nothing can interleave, and the write lock
 * taken up front serialises other processes on the same file (waiting up to the busy timeout).
 */
export class SqliteLedger implements Ledger {
  readonly backend = 'sqlite' as const;
  private closed = false;
  private readonly statements = new Map<string, Database.Statement>();

  private constructor(
    private readonly db: Database.Database,
    readonly schemaVersion: number,
    private readonly checkpointer?: WalCheckpointer,
  ) {}

  /**
   * `checkpointInBackground`: the write-ahead log is checkpointed by a worker thread, never inside
   * a commit (wal-checkpointer.ts); what a service sets, where a commit's latency is a request's.
   */
  static open(
    path: string,
    busyTimeoutMs = 5000,
    o: { checkpointInBackground?: boolean | undefined } = {},
  ): SqliteLedger {
    let db: Database.Database;
    try {
      db = new Database(path);
    } catch (e) {
      throw ledgerError('ledger_unavailable', `ledger: cannot open SQLite file ${path}: ${(e as Error).message}`, {
        path,
      });
    }
    try {
      db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      const version = migrateSqlite(db, path);
      return new SqliteLedger(
        db,
        version,
        o.checkpointInBackground === true ? new WalCheckpointer(db, path, busyTimeoutMs) : undefined,
      );
    } catch (e) {
      db.close();
      // Not a database, a read-only or corrupt file: the ledger cannot be used as configured.
      throw e instanceof GspcError
        ? e
        : ledgerError('ledger_unavailable', `ledger: cannot use SQLite file ${path}: ${(e as Error).message}`, {
            path,
          });
    }
  }

  async reserve(r: NewReservation): Promise<ReserveOutcome> {
    const n = newReservation(r);
    return this.write(() => {
      const row = { ...n, self_funded: n.self_funded ? 1 : 0, payment_id_sha256: n.payment_id_sha256 ?? null };
      let inserted: SettlementRow | undefined;
      try {
        inserted =
          this.stmt(`INSERT INTO settlements (payer, nonce, product_id, sku_id, resource, amount_atomic, asset, network,
          pay_to, payment_sha256, self_funded, valid_before, state, attempts, created_at, updated_at, payment_id_sha256)
        VALUES (@payer, @nonce, @product_id, @sku_id, @resource, @amount_atomic, @asset, @network,
          @pay_to, @payment_sha256, @self_funded, @valid_before, 'RESERVED', 1, @at, @at, @payment_id_sha256)
        ON CONFLICT (payer, nonce) DO NOTHING RETURNING ${COLUMNS}`).get(row) as SettlementRow | undefined;
      } catch (e) {
        // The unique payment-identifier index (schema 6): another payment holds this id.
        const holder = idHolder(e, n.payment_id_sha256 ?? null, (h) => this.byPaymentId(h));
        if (holder === undefined) throw e;
        // The same payment holds it (a duplicate of this reservation): answered below as one.
        if (holder.payer !== n.payer || holder.nonce !== n.nonce)
          return { outcome: 'id_taken', record: settlementRecord(holder) };
      }
      if (inserted) return { outcome: 'reserved', record: this.appendEvent(null, inserted, n.at) };
      // A FAILED attempt of the same payload may be retried: nothing moved the first time. The
      // row then describes this attempt (ledger.ts, reserve), self-funded if either attempt was.
      const reopened = this.stmt(`UPDATE settlements SET state = 'RESERVED', attempts = attempts + 1, error = NULL,
          updated_at = @at, ${reopenSet((f) => `@${f}`)}, self_funded = MAX(self_funded, @self_funded)
        WHERE payer = @payer AND nonce = @nonce AND state = 'FAILED' AND payment_sha256 = @payment_sha256
          AND ${reopenGuard((f) => `@${f}`)}
        RETURNING ${COLUMNS}`).get(row) as SettlementRow | undefined;
      if (reopened) return { outcome: 'reserved', record: this.appendEvent('FAILED', reopened, n.at) };
      const outcome = existingOutcome(this.read(n)!, n);
      if (outcome === 'retry')
        throw ledgerError(
          'ledger_transition_invalid',
          'ledger: a FAILED record was not reopened inside one transaction',
          { payer: n.payer, nonce: n.nonce },
        );
      return outcome;
    });
  }

  async markSettled(
    key: PaymentKey,
    s: ArtefactAttachment & { transaction: string; at: string },
  ): Promise<SettlementRecord> {
    // Committed without waiting for the disk (decision O15): the reservation, durable before the
    // facilitator settled, is what a power loss leaves, and reconcile resolves it from the chain.
    this.stmt('PRAGMA synchronous = NORMAL').run();
    try {
      return this.transition(key, planMarkSettled(s));
    } finally {
      this.stmt('PRAGMA synchronous = FULL').run();
    }
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
    const row = this.byPaymentId(sha256Hex('payment_id_sha256', payment_id_sha256));
    return row && settlementRecord(row);
  }

  private byPaymentId(h: string): SettlementRow | undefined {
    return this.stmt(`SELECT ${COLUMNS} FROM settlements WHERE payment_id_sha256 = ? ORDER BY id DESC LIMIT 1`).get(
      h,
    ) as SettlementRow | undefined;
  }

  async findSettledFor(f: {
    payer: string;
    product_id: string;
    resource: string;
  }): Promise<SettlementRecord | undefined> {
    const q = settledForQuery(f);
    const row = this.stmt(
      `SELECT ${COLUMNS} FROM settlements WHERE payer = ? AND product_id = ? AND resource = ? AND state = 'SETTLED'
       ORDER BY (artefact_sha256 IS NULL) DESC, id DESC LIMIT 1`,
    ).get(q.payer, q.product_id, q.resource) as SettlementRow | undefined;
    return row && settlementRecord(row);
  }

  async get(key: PaymentKey): Promise<SettlementRecord | undefined> {
    const k = paymentKey(key);
    const row = this.stmt(`SELECT ${COLUMNS} FROM settlements WHERE payer = ? AND nonce = ?`).get(k.payer, k.nonce) as
      | SettlementRow
      | undefined;
    return row && settlementRecord(row);
  }

  async list(filter?: SettlementFilter): Promise<SettlementRecord[]> {
    const { state, withArtefacts } = listFilter(filter);
    const cols = withArtefacts ? COLUMNS : COLUMNS_NO_BLOB;
    const rows =
      state === undefined
        ? this.stmt(`SELECT ${cols} FROM settlements ORDER BY id`).all()
        : this.stmt(`SELECT ${cols} FROM settlements WHERE state = ? ORDER BY id`).all(state);
    return (rows as SettlementRow[]).map(settlementRecord);
  }

  async history(key: PaymentKey): Promise<SettlementEvent[]> {
    const k = paymentKey(key);
    const rows = this.stmt(`SELECT from_state, to_state, attempt, transaction_ref, error, at FROM settlement_events
      WHERE payer = ? AND nonce = ? ORDER BY id`).all(k.payer, k.nonce) as SettlementEventRow[];
    return rows.map(settlementEvent);
  }

  async createInvoice(i: NewInvoice): Promise<InvoiceRecord> {
    const n = newInvoice(i);
    return this.write(() => {
      // The same request while its invoice is open: that invoice (inside this transaction, so
      // a concurrent duplicate cannot slip between the look-up and the insert).
      const open = n.request_sha256 === undefined ? undefined : this.readOpenInvoice(n.request_sha256);
      if (open) return open;
      const row = {
        ...n,
        request_sha256: n.request_sha256 ?? null,
        artefact: n.artefact?.artefact ?? null,
        artefact_sha256: n.artefact?.artefact_sha256 ?? null,
        receipt: n.artefact?.receipt ?? null,
      };
      const inserted =
        this.stmt(`INSERT INTO invoices (ref, product_id, sku_id, resource, commissioned_by, amount_atomic, currency, state, created_at,
          artefact, artefact_sha256, receipt, request_sha256)
        VALUES (@ref, @product_id, @sku_id, @resource, @commissioned_by, @amount_atomic, @currency, 'ISSUED', @at,
          @artefact, @artefact_sha256, @receipt, @request_sha256)
        ON CONFLICT (ref) DO NOTHING RETURNING ${INVOICE_COLUMNS}`).get(row) as InvoiceRow | undefined;
      if (inserted) return invoiceRecord(inserted);
      const existing = this.readInvoice(n.ref)!;
      return sameInvoice(n, existing) ? existing : invoiceConflict(n.ref);
    });
  }

  async getInvoice(ref: string): Promise<InvoiceRecord | undefined> {
    return this.readInvoice(invoiceRef(ref));
  }

  async findOpenInvoice(request_sha256: string): Promise<InvoiceRecord | undefined> {
    return this.readOpenInvoice(sha256Hex('request_sha256', request_sha256));
  }

  async markInvoicePaid(ref: string, at: string): Promise<InvoiceRecord> {
    const r = invoiceRef(ref);
    const when = isoTime('at', at);
    return this.write(() => {
      const paid = this.stmt(`UPDATE invoices SET state = 'PAID', paid_at = ? WHERE ref = ? AND state = 'ISSUED'
        RETURNING ${INVOICE_COLUMNS}`).get(when, r) as InvoiceRow | undefined;
      return paid ? invoiceRecord(paid) : (this.readInvoice(r) ?? invoiceNotFound(r));
    });
  }

  async listInvoices(filter?: { withArtefacts?: boolean }): Promise<InvoiceRecord[]> {
    const cols = listFilter(filter).withArtefacts ? INVOICE_COLUMNS : INVOICE_COLUMNS_NO_BLOB;
    return (this.stmt(`SELECT ${cols} FROM invoices ORDER BY id`).all() as InvoiceRow[]).map(invoiceRecord);
  }

  async appendActionReceipt(receipt: ActionJobReceipt, expectedHeadSha256: string): Promise<StoredActionReceipt> {
    const { sealed, expected } = actionReceiptAppend(receipt, expectedHeadSha256);
    const r = sealed.receipt;
    // One IMMEDIATE transaction: the head and the job's history cannot change under the checks.
    return this.write(() => {
      const head = this.stmt('SELECT seq, job_id, sha256, body FROM action_receipts ORDER BY seq DESC LIMIT 1').get() as
        | ActionReceiptRow
        | undefined;
      const history = this.stmt('SELECT seq, body FROM action_receipts WHERE job_id = ? ORDER BY seq').all(
        r.job_id,
      ) as ActionReceiptRow[];
      checkAppend(sealed, expected, headOf(head && storedActionReceipt(head)), jobHistory(r.job_id, history));
      const row = this.stmt(`INSERT INTO action_receipts (seq, job_id, sha256, body) VALUES (?, ?, ?, ?)
        ON CONFLICT (seq) DO NOTHING RETURNING seq, job_id, sha256, body`).get(
        r.seq,
        r.job_id,
        sealed.sha256,
        sealed.body,
      ) as ActionReceiptRow | undefined;
      return row ? storedActionReceipt(row) : appendRaced(r.seq);
    });
  }

  async listActionReceipts(filter?: { limit?: number }): Promise<StoredActionReceipt[]> {
    // LIMIT -1 is SQLite's "no limit".
    const rows = this.stmt('SELECT seq, job_id, sha256, body FROM action_receipts ORDER BY seq LIMIT ?').all(
      receiptListLimit(filter) ?? -1,
    ) as ActionReceiptRow[];
    return rows.map(storedActionReceipt);
  }

  async recordHeartbeat(h: NewHeartbeat): Promise<HeartbeatRecord> {
    const n = newHeartbeat(h);
    return this.write(() =>
      heartbeatRecord(
        this.stmt('INSERT INTO heartbeats (source, at, note) VALUES (?, ?, ?) RETURNING source, at, note').get(
          n.source,
          n.at,
          n.note,
        ) as HeartbeatRow,
      ),
    );
  }

  async latestHeartbeats(): Promise<HeartbeatLatest[]> {
    return (this.stmt(LATEST_HEARTBEATS_SQL).all() as HeartbeatLatestRow[]).map(heartbeatLatest);
  }

  async ping(): Promise<void> {
    if (this.closed) throw ledgerError('ledger_unavailable', 'ledger: the SQLite ledger is closed');
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // The worker's connection first: the last one to close checkpoints the log and removes it.
    await this.checkpointer?.stop();
    this.db.close();
  }

  /** One conditional UPDATE (the state machine's `from` in the WHERE) plus its history line. */
  private transition(key: PaymentKey, plan: TransitionPlan): SettlementRecord {
    const k = paymentKey(key);
    const cols = patchColumns(plan.patch);
    const set = ['state = ?', 'updated_at = ?', ...cols.map(([c]) => `${c} = ?`)].join(', ');
    const extra = plan.requireNoArtefact ? ' AND artefact IS NULL' : '';
    const sql = `UPDATE settlements SET ${set} WHERE payer = ? AND nonce = ? AND state = ?${extra} RETURNING ${COLUMNS}`;
    return this.write(() => {
      const row = this.stmt(sql).get(plan.to, plan.at, ...cols.map(([, v]) => v), k.payer, k.nonce, plan.from) as
        | SettlementRow
        | undefined;
      return row ? this.appendEvent(plan.from, row, plan.at) : afterRefusal(plan, k, this.read(k));
    });
  }

  private appendEvent(from: SettlementState | null, row: SettlementRow, at: string): SettlementRecord {
    this.stmt(`INSERT INTO settlement_events (payer, nonce, from_state, to_state, attempt, transaction_ref, error, at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(
      row.payer,
      row.nonce,
      from,
      row.state,
      row.attempts,
      row.transaction_ref,
      row.error,
      at,
    );
    return settlementRecord(row);
  }

  private read(k: PaymentKey): SettlementRecord | undefined {
    const row = this.stmt(`SELECT ${COLUMNS} FROM settlements WHERE payer = ? AND nonce = ?`).get(k.payer, k.nonce) as
      | SettlementRow
      | undefined;
    return row && settlementRecord(row);
  }

  private readOpenInvoice(request: string): InvoiceRecord | undefined {
    const row = this.stmt(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE request_sha256 = ? AND state = 'ISSUED'`).get(
      request,
    ) as InvoiceRow | undefined;
    return row && invoiceRecord(row);
  }

  private readInvoice(ref: string): InvoiceRecord | undefined {
    const row = this.stmt(`SELECT ${INVOICE_COLUMNS} FROM invoices WHERE ref = ?`).get(ref) as InvoiceRow | undefined;
    return row && invoiceRecord(row);
  }

  /** Runs `fn` in an IMMEDIATE transaction; a lock held past the busy timeout is "unavailable". */
  private write<T>(fn: () => T): T {
    try {
      return this.live().transaction(fn).immediate();
    } catch (e) {
      throw writeFailure(e);
    }
  }

  private live(): Database.Database {
    if (this.closed) throw ledgerError('ledger_unavailable', 'ledger: the SQLite ledger is closed');
    return this.db;
  }

  /** Prepared once per SQL text: better-sqlite3 does not cache statements itself. */
  private stmt(sql: string): Database.Statement {
    const db = this.live();
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = db.prepare(sql)));
    return s;
  }
}
