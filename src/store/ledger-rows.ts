import type { HeartbeatLatest } from '../core/ledger/oracle-fleet.js';
import type { TransitionPatch } from './ledger-rules.js';
import type {
  HeartbeatRecord,
  InvoiceRecord,
  InvoiceState,
  SettlementEvent,
  SettlementRecord,
  SettlementState,
  StoredActionReceipt,
} from './ledger.js';

/**
 * Table rows as both drivers return them, and their mapping to records. The drivers differ in
 * small ways (SQLite has no boolean: self_funded is 0/1), which are absorbed here so the two
 * backends return identical records.
 */

export interface SettlementRow {
  payer: string;
  nonce: string;
  product_id: string;
  sku_id: string;
  resource: string;
  amount_atomic: string;
  asset: string;
  network: string;
  pay_to: string;
  payment_sha256: string;
  self_funded: number | boolean;
  valid_before: string | null;
  state: string;
  attempts: number;
  transaction_ref: string | null;
  error: string | null;
  artefact: Buffer | null;
  artefact_sha256: string | null;
  receipt: string | null;
  created_at: string;
  updated_at: string;
  payment_id_sha256: string | null;
}

export interface SettlementEventRow {
  from_state: string | null;
  to_state: string;
  attempt: number;
  transaction_ref: string | null;
  error: string | null;
  at: string;
}

export interface InvoiceRow {
  ref: string;
  product_id: string;
  sku_id: string;
  resource: string;
  commissioned_by: string;
  amount_atomic: string;
  currency: string;
  state: string;
  created_at: string;
  paid_at: string | null;
  artefact: Buffer | null;
  artefact_sha256: string | null;
  receipt: string | null;
}

/** Record field → column for the fields a transition may set. */
export const PATCH_COLUMNS: Record<keyof TransitionPatch, string> = {
  transaction: 'transaction_ref',
  error: 'error',
  artefact: 'artefact',
  artefact_sha256: 'artefact_sha256',
  receipt: 'receipt',
  payment_id_sha256: 'payment_id_sha256',
};

/** The patch as (column, value) pairs in a fixed order; column names come only from code. */
export function patchColumns(patch: TransitionPatch): Array<[string, unknown]> {
  return (Object.keys(PATCH_COLUMNS) as Array<keyof TransitionPatch>)
    .filter((k) => patch[k] !== undefined)
    .map((k) => [PATCH_COLUMNS[k], patch[k]]);
}

/**
 * The fields a reopened FAILED record takes from the new reservation (ledger.ts, reserve), as
 * `column = <parameter>` for one backend's placeholders: the row must describe what the reopened
 * attempt delivers, not the attempt that failed.
 */
const REOPEN_FIELDS = [
  'product_id',
  'sku_id',
  'resource',
  'amount_atomic',
  'asset',
  'network',
  'pay_to',
  'valid_before',
  'payment_id_sha256',
] as const;
export const reopenSet = (param: (field: (typeof REOPEN_FIELDS)[number]) => string): string =>
  REOPEN_FIELDS.map((f) => (f === 'payment_id_sha256' ? `${f} = ${f}` : `${f} = ${param(f)}`)).join(', ');

/**
 * Who may reopen a FAILED record (issue 37, second review): its payload is public (the mempool,
 * a settle that broadcast and then failed), so the payload alone proves nothing. A record sent
 * with a payment-identifier id is reopened only by a request carrying the same id (and that
 * buyer may then buy another product with it); a record sent without one only for the same
 * product and resource. The id itself never changes on a reopen (reopenSet): whoever reopens
 * cannot take over the delivery of what the buyer paid for.
 */
export const reopenGuard = (param: (field: 'product_id' | 'resource' | 'payment_id_sha256') => string): string =>
  `(CASE WHEN payment_id_sha256 IS NULL THEN (product_id = ${param('product_id')} AND resource = ${param('resource')}) ELSE payment_id_sha256 = ${param('payment_id_sha256')} END)`;

export function settlementRecord(r: SettlementRow): SettlementRecord {
  return {
    payer: r.payer,
    nonce: r.nonce,
    product_id: r.product_id,
    sku_id: r.sku_id,
    resource: r.resource,
    amount_atomic: String(r.amount_atomic),
    asset: r.asset,
    network: r.network,
    pay_to: r.pay_to,
    payment_sha256: r.payment_sha256,
    self_funded: r.self_funded === true || r.self_funded === 1,
    valid_before: r.valid_before === null ? null : String(r.valid_before),
    at: r.created_at,
    state: r.state as SettlementState,
    attempts: Number(r.attempts),
    transaction: r.transaction_ref,
    error: r.error,
    artefact: r.artefact,
    artefact_sha256: r.artefact_sha256,
    receipt: r.receipt,
    updated_at: r.updated_at,
    payment_id_sha256: r.payment_id_sha256 ?? null,
  };
}

export function settlementEvent(r: SettlementEventRow): SettlementEvent {
  return {
    from: r.from_state as SettlementState | null,
    to: r.to_state as SettlementState,
    attempt: Number(r.attempt),
    transaction: r.transaction_ref,
    error: r.error,
    at: r.at,
  };
}

export function invoiceRecord(r: InvoiceRow): InvoiceRecord {
  return {
    ref: r.ref,
    product_id: r.product_id,
    sku_id: r.sku_id,
    resource: r.resource,
    commissioned_by: r.commissioned_by,
    amount_atomic: String(r.amount_atomic),
    currency: r.currency,
    at: r.created_at,
    state: r.state as InvoiceState,
    paid_at: r.paid_at,
    artefact: r.artefact,
    artefact_sha256: r.artefact_sha256,
    receipt: r.receipt,
  };
}

/** action_receipts rows; PostgreSQL returns BIGINT seq as a string. */
export interface ActionReceiptRow {
  seq: number | string;
  job_id: string;
  sha256: string;
  body: string;
}

export function storedActionReceipt(r: ActionReceiptRow): StoredActionReceipt {
  return { seq: Number(r.seq), job_id: r.job_id, sha256: r.sha256, body: r.body };
}

export interface HeartbeatRow {
  source: string;
  at: string;
  note: string | null;
}

/** latestHeartbeats() rows; PostgreSQL returns count(*) as a string. */
export interface HeartbeatLatestRow extends HeartbeatRow {
  beats: number | string;
}

export function heartbeatRecord(r: HeartbeatRow): HeartbeatRecord {
  return { source: r.source, at: r.at, note: r.note };
}

export function heartbeatLatest(r: HeartbeatLatestRow): HeartbeatLatest {
  return { source: r.source, last_seen: r.at, beats: Number(r.beats), note: r.note };
}

/**
 * The latest beat per source: the most recently RECORDED one (highest id), not the largest
 * `at`, so one beat dated far ahead by a wrong clock is superseded by the next real one.
 * The same SQL runs on both backends.
 */
export const LATEST_HEARTBEATS_SQL = `SELECT h.source, h.at, h.note, c.beats
  FROM heartbeats h JOIN (SELECT source, MAX(id) AS id, COUNT(*) AS beats FROM heartbeats GROUP BY source) c ON h.id = c.id
  ORDER BY h.source`;
