import { createHash } from 'node:crypto';
import { ledgerError } from './ledger-errors.js';
import { receiptProblem, type ActionJobReceipt } from '../core/ledger/action-jobs-receipt.js';
import { HEARTBEAT_SOURCE } from '../core/ledger/oracle-fleet.js';
import { sealReceipt, type SealedReceipt } from '../core/ledger/receipt-chain.js';
import {
  SETTLEMENT_STATES,
  type ArtefactAttachment,
  type NewHeartbeat,
  type NewInvoice,
  type NewReservation,
  type PaymentKey,
  type SettlementFilter,
  type SettlementState,
} from './ledger.js';

/**
 * Validation and normalisation shared by both backends, run before any SQL. Doing it here (not
 * in column constraints alone) keeps the two databases byte-identical: PostgreSQL rejects NUL
 * in TEXT and rewrites lone surrogates, SQLite stores both; so neither reaches either.
 */

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const NONCE = /^0x[0-9a-fA-F]{64}$/;
const SHA256_HEX = /^[0-9a-fA-F]{64}$/;
// uint256 has at most 78 decimal digits; no sign, no leading zeros, so equal amounts are equal strings.
const AMOUNT = /^(0|[1-9][0-9]{0,77})$/;
// RFC 3339 UTC with optional fraction: the form `Date.prototype.toISOString` writes.
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/;
const INVOICE_REF = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const CURRENCY = /^[A-Za-z0-9]{2,12}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_BUT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LONE_SURROGATE = /\p{Cs}/u;

function invalid(field: string, reason: string): never {
  throw ledgerError('ledger_input_invalid', `ledger: ${field} ${reason}`, { field });
}

function text(field: string, v: unknown, max: number, multiline = false): string {
  if (typeof v !== 'string' || v.length === 0) invalid(field, 'must be a non-empty string');
  if (v.length > max) invalid(field, `must be at most ${max} characters`);
  if ((multiline ? CONTROL_BUT_WHITESPACE : CONTROL).test(v)) invalid(field, 'must not contain control characters');
  if (LONE_SURROGATE.test(v)) invalid(field, 'must be well-formed Unicode');
  return v;
}

function matching(field: string, v: unknown, shape: RegExp, what: string): string {
  if (typeof v !== 'string' || !shape.test(v)) invalid(field, `must be ${what}`);
  return v;
}

/** Lowercase EVM addresses, so checksummed and plain forms name the same payer. */
function lowerIfEvm(v: string): string {
  return EVM_ADDRESS.test(v) ? v.toLowerCase() : v;
}

export function paymentKey(k: PaymentKey): PaymentKey {
  if (typeof k !== 'object' || k === null) invalid('key', 'must be { payer, nonce }');
  return {
    payer: matching('payer', k.payer, EVM_ADDRESS, 'an EVM address (0x + 40 hex digits)').toLowerCase(),
    nonce: matching('nonce', k.nonce, NONCE, 'a 0x-prefixed 32-byte hex nonce').toLowerCase(),
  };
}

/** The lookup of a payer's settled record for one product and resource (decision P45). */
export function settledForQuery(f: { payer: string; product_id: string; resource: string }): {
  payer: string;
  product_id: string;
  resource: string;
} {
  if (typeof f !== 'object' || f === null) invalid('query', 'must be { payer, product_id, resource }');
  return {
    payer: matching('payer', f.payer, EVM_ADDRESS, 'an EVM address (0x + 40 hex digits)').toLowerCase(),
    product_id: text('product_id', f.product_id, 256),
    resource: text('resource', f.resource, 4096),
  };
}

export function amountAtomic(field: string, v: unknown): string {
  return matching(field, v, AMOUNT, 'a decimal integer string without sign or leading zeros (e.g. "0", "250000000")');
}

/** EIP-3009 validBefore: a uint256 of unix seconds, as the same decimal form as amounts, or null. */
export function validBefore(v: unknown): string | null {
  if (v === null) return null;
  return matching(
    'valid_before',
    v,
    AMOUNT,
    'null or a decimal integer string of unix seconds without sign or leading zeros',
  );
}

export function sha256Hex(field: string, v: unknown): string {
  return matching(field, v, SHA256_HEX, 'a 64-digit hex SHA-256').toLowerCase();
}

export function isoTime(field: string, v: unknown): string {
  const s = matching(field, v, ISO_UTC, 'an ISO 8601 UTC time like 2025-01-31T12:00:00.000Z');
  // The shape alone admits 2025-02-30 or 24:00; a parse-and-print round trip (not a clock read)
  // rejects every impossible date or time, since they would print as another one.
  const parsed = Date.parse(s);
  if (Number.isNaN(parsed) || new Date(parsed).toISOString().slice(0, 19) !== s.slice(0, 19))
    invalid(field, 'must be a real calendar time');
  return s;
}

export function errorText(v: unknown): string {
  return text('error', v, 16_384, true);
}

export function transactionRef(v: unknown): string {
  return text('transaction', v, 256);
}

export function settlementState(v: unknown): SettlementState {
  if (!SETTLEMENT_STATES.includes(v as SettlementState))
    invalid('state', `must be one of ${SETTLEMENT_STATES.join(', ')}`);
  return v as SettlementState;
}

export function newReservation(r: NewReservation): NewReservation {
  if (typeof r !== 'object' || r === null) invalid('reservation', 'must be an object');
  if (typeof r.self_funded !== 'boolean') invalid('self_funded', 'must be a boolean');
  return {
    ...paymentKey(r),
    product_id: text('product_id', r.product_id, 256),
    sku_id: text('sku_id', r.sku_id, 256),
    resource: text('resource', r.resource, 4096),
    amount_atomic: amountAtomic('amount_atomic', r.amount_atomic),
    asset: lowerIfEvm(text('asset', r.asset, 256)),
    network: text('network', r.network, 128),
    pay_to: lowerIfEvm(text('pay_to', r.pay_to, 256)),
    payment_sha256: sha256Hex('payment_sha256', r.payment_sha256),
    self_funded: r.self_funded,
    valid_before: validBefore(r.valid_before),
    at: isoTime('at', r.at),
    payment_id_sha256: optionalSha256('payment_id_sha256', r.payment_id_sha256),
  };
}

function optionalSha256(field: string, v: unknown): string | null {
  return v === undefined || v === null ? null : sha256Hex(field, v);
}

/** Checks the bytes against their claimed hash, so a record can never carry a wrong one. */
export function artefactAttachment(a: ArtefactAttachment): ArtefactAttachment {
  if (typeof a !== 'object' || a === null) invalid('artefact', 'must be { artefact, artefact_sha256, receipt }');
  if (!Buffer.isBuffer(a.artefact)) invalid('artefact', 'must be a Buffer');
  const artefact_sha256 = sha256Hex('artefact_sha256', a.artefact_sha256);
  if (createHash('sha256').update(a.artefact).digest('hex') !== artefact_sha256)
    invalid('artefact_sha256', 'does not match the artefact bytes');
  const receipt = a.receipt === null ? null : matching('receipt', a.receipt, COMPACT_JWS, 'a compact JWS or null');
  return {
    artefact: a.artefact,
    artefact_sha256,
    receipt,
    ...(a.payment_id_sha256 !== undefined && {
      payment_id_sha256: optionalSha256('payment_id_sha256', a.payment_id_sha256),
    }),
  };
}

export function invoiceRef(v: unknown): string {
  return matching('ref', v, INVOICE_REF, 'a reference of letters, digits and . _ : - (at most 128)');
}

export function newInvoice(i: NewInvoice): NewInvoice {
  if (typeof i !== 'object' || i === null) invalid('invoice', 'must be an object');
  return {
    ref: invoiceRef(i.ref),
    product_id: text('product_id', i.product_id, 256),
    sku_id: text('sku_id', i.sku_id, 256),
    resource: text('resource', i.resource, 4096),
    commissioned_by: text('commissioned_by', i.commissioned_by, 512),
    amount_atomic: amountAtomic('amount_atomic', i.amount_atomic),
    currency: matching('currency', i.currency, CURRENCY, 'a currency code of 2 to 12 letters or digits'),
    at: isoTime('at', i.at),
    ...(i.artefact !== undefined && { artefact: artefactAttachment(i.artefact) }),
    ...(i.request_sha256 !== undefined && { request_sha256: sha256Hex('request_sha256', i.request_sha256) }),
  };
}

/** list()/listInvoices() filters; artefacts are loaded unless `withArtefacts` is false. */
export function listFilter(f: SettlementFilter | undefined): {
  state: SettlementState | undefined;
  withArtefacts: boolean;
} {
  if (f === undefined) return { state: undefined, withArtefacts: true };
  if (typeof f !== 'object' || f === null) invalid('filter', 'must be an object');
  if (f.withArtefacts !== undefined && typeof f.withArtefacts !== 'boolean')
    invalid('withArtefacts', 'must be a boolean');
  return {
    state: f.state === undefined ? undefined : settlementState(f.state),
    withArtefacts: f.withArtefacts ?? true,
  };
}

/**
 * appendActionReceipt(): a well-formed receipt (core's rules) built on the head the caller
 * expects. Only the receipt's own fields are copied into the sealed form, so what is hashed
 * and stored is exactly the receipt, whatever object the caller passed.
 */
export function actionReceiptAppend(
  receipt: ActionJobReceipt,
  expectedHeadSha256: unknown,
): { sealed: SealedReceipt; expected: string } {
  const problem = receiptProblem(receipt);
  if (problem) invalid(problem.field, problem.reason);
  const expected = sha256Hex('expectedHeadSha256', expectedHeadSha256);
  if (receipt.prev_sha256 !== expected)
    invalid('prev_sha256', 'must be the expected head sha256: a receipt is built on the head its writer expects');
  const { schema, seq, prev_sha256, job_id, kind, action_id, state, reason, recorded_at, recorded_by } = receipt;
  return {
    sealed: sealReceipt({ schema, seq, prev_sha256, job_id, kind, action_id, state, reason, recorded_at, recorded_by }),
    expected,
  };
}

/** listActionReceipts(): an optional positive limit. */
export function receiptListLimit(f: { limit?: number } | undefined): number | null {
  if (f === undefined) return null;
  if (typeof f !== 'object' || f === null) invalid('filter', 'must be an object');
  if (f.limit === undefined) return null;
  if (typeof f.limit !== 'number' || !Number.isSafeInteger(f.limit) || f.limit < 1)
    invalid('limit', 'must be a whole number from 1');
  return f.limit;
}

/** recordHeartbeat(): a slug source, an ISO time and an optional one-line note. */
export function newHeartbeat(h: NewHeartbeat): { source: string; at: string; note: string | null } {
  if (typeof h !== 'object' || h === null) invalid('heartbeat', 'must be { source, at, note? }');
  return {
    source: matching(
      'source',
      h.source,
      HEARTBEAT_SOURCE,
      'a lowercase slug of letters, digits and . _ - (at most 63, starting with a letter or digit)',
    ),
    at: isoTime('at', h.at),
    note: h.note === undefined ? null : text('note', h.note, 500),
  };
}
