/**
 * The payment ledger: the one piece of mutable state behind the x402 rail (ARCHITECTURE §2, §5
 * "Payments are exactly-once per authorization"). Two real implementations share this contract
 * and one test suite: SQLite (embedded default) and PostgreSQL (several replicas).
 *
 * Lifecycle of a payment, keyed by (payer, nonce):
 *
 *   reserve ─► RESERVED ─┬─ markSettled ─► SETTLED ─(attachArtefact, if settled without one)
 *                        ├─ markFailed ──► FAILED ──(reserve again, same payload)──► RESERVED
 *                        └─ markUnknown ─► UNKNOWN ─ resolveUnknown ─► SETTLED | FAILED
 *                                   FAILED ─ reopenUnknown ─► UNKNOWN (reconcile: used on chain after all)
 *
 * Nothing is deleted: every transition is also appended to an event history, so a reopened
 * FAILED record keeps the audit trail of its earlier attempts. The store reads no clock; every
 * time (`at`) is passed in as ISO 8601 UTC. Broken contracts (bad input shapes, an illegal
 * transition) throw `GspcError`; expected outcomes (a replay, a conflicting payload) are values.
 *
 * Schema v3 adds two append-only records beside the payments: the action-job receipt chain
 * and the oracle-fleet heartbeats (issue 5; docs/drafts/action-jobs.md).
 */
import type { StoredReceiptRow } from '../core/ledger/receipt-chain.js';
import type { ActionJobReceipt } from '../core/ledger/action-jobs-receipt.js';
import type { HeartbeatLatest } from '../core/ledger/oracle-fleet.js';

export type SettlementState = 'RESERVED' | 'SETTLED' | 'FAILED' | 'UNKNOWN';
export const SETTLEMENT_STATES: readonly SettlementState[] = ['RESERVED', 'SETTLED', 'FAILED', 'UNKNOWN'];

/** A payment authorization: payer = EVM address, nonce = 0x + 32-byte hex. Stored lowercase. */
export interface PaymentKey {
  payer: string;
  nonce: string;
}

export interface NewReservation extends PaymentKey {
  product_id: string;
  sku_id: string;
  /** Path and query of the paid request. */
  resource: string;
  /** Decimal integer string in the asset's smallest unit; "0" allowed; never a float. */
  amount_atomic: string;
  asset: string;
  network: string;
  pay_to: string;
  /** SHA-256 (hex) of the payment payload: the same nonce with another payload is a conflict. */
  payment_sha256: string;
  self_funded: boolean;
  /**
   * The EIP-3009 authorization's validBefore (unix seconds, decimal string), or null when not
   * known (records from before schema v2). Once the chain's time has passed it with the
   * authorization unused, the payment can never settle: that is how reconcile closes an UNKNOWN.
   */
  valid_before: string | null;
  /** When the reservation was first made (ISO 8601 UTC). */
  at: string;
  /**
   * SHA-256 (hex) of the x402 `payment-identifier` id the reserving request carried, or null;
   * once the artefact is delivered, of the id the delivering request carried. Only a request
   * carrying that id gets the artefact again (decision P42).
   */
  payment_id_sha256?: string | null;
}

export interface SettlementRecord extends NewReservation {
  state: SettlementState;
  /** 1 on first reservation; +1 each time a FAILED record is reopened. */
  attempts: number;
  /**
   * The facilitator's transaction reference once SETTLED; while UNKNOWN, the transaction the
   * facilitator named without confirming it (`settlement_pending`) or reconcile found, if any.
   */
  transaction: string | null;
  /** The error of the latest FAILED or UNKNOWN outcome; null once reserved again or settled. */
  error: string | null;
  artefact: Buffer | null;
  artefact_sha256: string | null;
  /** Compact JWS receipt delivered with the artefact, when one was signed. */
  receipt: string | null;
  updated_at: string;
}

/** The artefact a settled payment delivers; replays return exactly these bytes. */
export interface ArtefactAttachment {
  artefact: Buffer;
  /** Hex SHA-256 of `artefact`; checked by the store so a mismatch never gets recorded. */
  artefact_sha256: string;
  receipt: string | null;
  /** The delivering request's payment-identifier hash (or null: none); unchanged when omitted. */
  payment_id_sha256?: string | null;
}

export type ReserveOutcome =
  /** This caller owns the attempt: produce the artefact, settle, then record the outcome. */
  | { outcome: 'reserved'; record: SettlementRecord }
  /** Someone already holds or finished it: replay a SETTLED artefact, never settle again. */
  | { outcome: 'exists'; record: SettlementRecord }
  /** The same (payer, nonce) with another payment payload: refuse, do not settle. */
  | { outcome: 'conflict'; record: SettlementRecord }
  /**
   * Another payment holds this payment-identifier id (schema 6: one payment per id, so two new
   * payments racing under one id cannot both reserve): refuse, do not settle. `record` is the
   * holder's.
   */
  | { outcome: 'id_taken'; record: SettlementRecord };

/** How `gspc reconcile` resolves an UNKNOWN settlement after asking the chain. */
export type UnknownResolution =
  | { state: 'SETTLED'; transaction: string; at: string; artefact?: ArtefactAttachment }
  | { state: 'FAILED'; error: string; at: string };

/** One appended line of a payment's audit history. */
export interface SettlementEvent {
  /** null for the first reservation. */
  from: SettlementState | null;
  to: SettlementState;
  /** The record's attempt number when the transition happened. */
  attempt: number;
  transaction: string | null;
  error: string | null;
  at: string;
}

export type InvoiceState = 'ISSUED' | 'PAID';

export interface NewInvoice {
  /** The reference the buyer quotes when paying; chosen by the service. */
  ref: string;
  /**
   * What makes two invoice requests the same request (the service hashes the client's address
   * with the resource and the release): while an invoice with this hash is ISSUED, creating
   * another returns that one, so a repeated request never stores its artefact twice (schema 4).
   */
  request_sha256?: string;
  product_id: string;
  sku_id: string;
  resource: string;
  /** Who commissioned the work (an organisation or contact), as the invoice names them. */
  commissioned_by: string;
  amount_atomic: string;
  /** The invoice's currency code, e.g. "USD" or "EUR". */
  currency: string;
  at: string;
  /**
   * The artefact the invoice releases once paid, built when it was issued (so what the buyer
   * is billed for is fixed); its hash is checked like markSettled's.
   */
  artefact?: ArtefactAttachment;
}

export interface InvoiceRecord extends Omit<NewInvoice, 'artefact' | 'request_sha256'> {
  state: InvoiceState;
  paid_at: string | null;
  /** null when issued without one, or when listed with `withArtefacts: false`. */
  artefact: Buffer | null;
  artefact_sha256: string | null;
  receipt: string | null;
}

/** What `list` returns; `withArtefacts: false` leaves `artefact` null (the hash stays) to skip the blobs. */
export interface SettlementFilter {
  state?: SettlementState;
  /** Default true. */
  withArtefacts?: boolean;
}

export type LedgerBackend = 'sqlite' | 'postgres';

/**
 * One stored action-job receipt (schema v3): the row's seq and job_id columns, the receipt's
 * RFC 8785 canonical text and its hex SHA-256, exactly as stored, so the chain is verified
 * from what the store holds (src/core/ledger/receipt-chain.ts).
 */
export type StoredActionReceipt = StoredReceiptRow;

/** A heartbeat to record (schema v3): `gspc heartbeat --source <slug>`. */
export interface NewHeartbeat {
  /** A short lowercase slug naming who beats, e.g. `watchdog`. */
  source: string;
  /** When the beat was sent (ISO 8601 UTC). */
  at: string;
  /** Optional free text, served publicly on /api/oracle-fleet. */
  note?: string;
}

export interface HeartbeatRecord {
  source: string;
  at: string;
  note: string | null;
}

export interface Ledger {
  readonly backend: LedgerBackend;
  /** The schema version the open store is at (the last migration applied). */
  readonly schemaVersion: number;

  /**
   * Atomically claim (payer, nonce) before any artefact is produced, so concurrent duplicates
   * settle at most once. Inserts RESERVED, or reopens a FAILED record with the same payload
   * (attempts + 1) → 'reserved'; a reopen writes this reservation's product, sku, resource,
   * amount, asset, network, payee and validBefore over the old ones (nothing moved, so the same
   * authorization may now pay for another resource of the same price, and the row must describe
   * what it then delivers; the history keeps the earlier attempts). A RESERVED, SETTLED or
   * UNKNOWN record with the same payload → 'exists' (in flight, replay, or awaiting reconcile).
   * Any record with another payment_sha256 → 'conflict'. Exactly one of any number of
   * concurrent callers gets 'reserved'.
   */
  reserve(r: NewReservation): Promise<ReserveOutcome>;

  /**
   * RESERVED → SETTLED after the facilitator settled; stores the artefact for replays. The one
   * write whose commit is not waited onto the disk (decision O15: SQLite `synchronous=NORMAL`,
   * PostgreSQL `synchronous_commit=off`, for this transaction only): it survives the process, and
   * a power loss in the moments after it leaves the payment RESERVED, as durably reserved before
   * the facilitator settled, which `gspc reconcile` resolves from the chain. Every other write is
   * on the disk when it returns.
   */
  markSettled(key: PaymentKey, s: ArtefactAttachment & { transaction: string; at: string }): Promise<SettlementRecord>;

  /** RESERVED → FAILED: the facilitator refused and nothing moved, so the payer may retry. */
  markFailed(key: PaymentKey, f: { error: string; at: string }): Promise<SettlementRecord>;

  /**
   * RESERVED → UNKNOWN: the facilitator was unreachable or timed out mid-settle, or answered
   * that the transfer it broadcast is not confirmed (`transaction` then names it), so money may
   * have moved. Never retried automatically; also how reconcile parks a RESERVED record whose
   * process died.
   */
  markUnknown(key: PaymentKey, f: { error: string; at: string; transaction?: string }): Promise<SettlementRecord>;

  /**
   * FAILED → UNKNOWN: `gspc reconcile` found the authorization of a FAILED payment used on chain
   * (by a late transfer, or by anyone holding the signed authorization), so money may have moved
   * after all; `transaction` names the transaction found. Then judged as every UNKNOWN.
   */
  reopenUnknown(key: PaymentKey, f: { error: string; at: string; transaction?: string }): Promise<SettlementRecord>;

  /**
   * UNKNOWN → SETTLED (the chain shows the transfer) or FAILED (it shows the authorization can
   * never be used; the transaction the record named, if any, is cleared); `gspc reconcile`.
   */
  resolveUnknown(key: PaymentKey, outcome: UnknownResolution): Promise<SettlementRecord>;

  /**
   * Attach the artefact to a SETTLED record that has none (resolved by reconcile), so replays
   * can deliver it. Attaching identical bytes again is a no-op; other bytes throw.
   */
  attachArtefact(key: PaymentKey, a: ArtefactAttachment & { at: string }): Promise<SettlementRecord>;

  /** The record for a key (replay lookups, reconcile). */
  get(key: PaymentKey): Promise<SettlementRecord | undefined>;

  /**
   * The latest record carrying this payment-identifier hash (schema 5): an id already used with
   * another payment is a conflict, never a second charge (decision P42).
   */
  findByPaymentId(payment_id_sha256: string): Promise<SettlementRecord | undefined>;

  /**
   * The SETTLED record a payer holds for one product and resource (path and query, as recorded):
   * one not yet delivered first, then the latest. A buyer who signs in with the paying wallet
   * (Sign-In-With-X) is given what it bought again (decision P45).
   */
  findSettledFor(f: { payer: string; product_id: string; resource: string }): Promise<SettlementRecord | undefined>;

  /** All records, optionally of one state, in the order they were first reserved (audit). */
  list(filter?: SettlementFilter): Promise<SettlementRecord[]>;

  /** Every transition of one payment, oldest first: the audit trail a reopen does not erase. */
  history(key: PaymentKey): Promise<SettlementEvent[]>;

  /**
   * Record an issued invoice (a buyer who cannot pay in the token). Creating the same ref with
   * identical fields (artefact hash and receipt included) again returns the existing record (a
   * retried request); other fields throw. With `request_sha256`, an ISSUED invoice of the same
   * hash is returned instead of a new one, whatever its ref (concurrent duplicates: one wins).
   */
  createInvoice(i: NewInvoice): Promise<InvoiceRecord>;

  getInvoice(ref: string): Promise<InvoiceRecord | undefined>;

  /** The ISSUED invoice created with this `request_sha256`, if any (schema 4; a repeated request). */
  findOpenInvoice(request_sha256: string): Promise<InvoiceRecord | undefined>;

  /** ISSUED → PAID when the operator sees the money; idempotent (keeps the first paid_at). */
  markInvoicePaid(ref: string, at: string): Promise<InvoiceRecord>;

  /** All invoices in the order they were issued; `withArtefacts: false` as for `list`. */
  listInvoices(filter?: { withArtefacts?: boolean }): Promise<InvoiceRecord[]>;

  /**
   * Appends one action-job receipt (schema v3; specification, "Capability fabric": append-only
   * receipt chain, single-writer staging). Optimistic: the caller built `receipt` on the head it
   * read (`nextReceipt`), and `expectedHeadSha256` is that head's hash (64 zeros when empty). If
   * another writer moved the head meanwhile, this throws `ledger_conflict` and writes nothing,
   * so the chain never forks; of any number of concurrent appends on one head exactly one
   * wins. A receipt that is malformed, not linked to `expectedHeadSha256` or not at head seq + 1
   * is `ledger_input_invalid`; one its job's history does not allow (an intent for an existing
   * job, a state after a final state) is `ledger_transition_invalid`. The store computes the
   * canonical text and hash itself. There is no update or delete.
   */
  appendActionReceipt(receipt: ActionJobReceipt, expectedHeadSha256: string): Promise<StoredActionReceipt>;

  /** Stored receipts by seq, the first `limit` of them (default all): rows as stored, unverified. */
  listActionReceipts(filter?: { limit?: number }): Promise<StoredActionReceipt[]>;

  /** Appends a heartbeat (schema v3); heartbeats are never changed or deleted. */
  recordHeartbeat(h: NewHeartbeat): Promise<HeartbeatRecord>;

  /** Per source, by name: its most recently recorded beat (time and note) and how many it has recorded. */
  latestHeartbeats(): Promise<HeartbeatLatest[]>;

  /** One round trip to the store (readiness): resolves when it answers, throws `ledger_unavailable` when not. */
  ping(): Promise<void>;

  /** Release the connection or pool; further calls fail. Safe to call twice. */
  close(): Promise<void>;
}
