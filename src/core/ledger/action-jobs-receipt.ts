/**
 * One receipt of the action-job ledger (specification, "Capability fabric": "The action-job
 * ledger records intent and state receipts only (append-only receipt chain, single-writer
 * staging, concurrency guarantee NONE)"; "States and transitions": the states of a job are not
 * shown, so they are decided here and in docs/decisions.md, AJ1-AJ3).
 *
 * A receipt is a small JSON object whose RFC 8785 canonical bytes are hashed into the chain
 * (receipt-chain.ts). This file says what a well-formed receipt is; it reads no clock.
 */

export const ACTION_JOB_RECEIPT_SCHEMA = 'svc.action-job-receipt/0.1';

/** The six action ids of the specification's Actions table; a job names exactly one. */
export const ACTION_IDS = [
  'svc.gspc.board.read',
  'svc.regulation.deadlines.read',
  'svc.xrpl.assets.read',
  'svc.models.catalogue.read',
  'svc.compute.heartbeat.read',
  'svc.evidence.root.read',
] as const;
export type ActionId = (typeof ACTION_IDS)[number];

/** `intent`: a job was asked for; `state`: a later state of that job was recorded. */
export type ReceiptKind = 'intent' | 'state';

/**
 * The job states (decision AJ1). REQUESTED: the intent was recorded and nothing else happened
 * yet. REFUSED: the service declined to run it because execution is disabled (FAIL_CLOSED).
 * CANCELLED: the requester withdrew it before any outcome. REFUSED and CANCELLED are final.
 * There is no RUNNING or SUCCEEDED: with no executor they could never be true.
 */
export type JobState = 'REQUESTED' | 'REFUSED' | 'CANCELLED';
export const JOB_STATES: readonly JobState[] = ['REQUESTED', 'REFUSED', 'CANCELLED'];
export const FINAL_JOB_STATES: readonly JobState[] = ['REFUSED', 'CANCELLED'];

/** The state each kind of receipt may carry: an intent always opens a job as REQUESTED. */
export const STATES_BY_KIND: Readonly<Record<ReceiptKind, readonly JobState[]>> = {
  intent: ['REQUESTED'],
  state: ['REFUSED', 'CANCELLED'],
};

export interface ActionJobReceipt {
  schema: typeof ACTION_JOB_RECEIPT_SCHEMA;
  /** 1-based position in the chain. */
  seq: number;
  /** Hex SHA-256 of the previous receipt's canonical bytes; 64 zeros for the first. */
  prev_sha256: string;
  job_id: string;
  kind: ReceiptKind;
  action_id: ActionId;
  state: JobState;
  /** Why: the requester's reason for an intent, the service's for a refusal. */
  reason: string;
  /** ISO 8601 UTC, passed in by the writer. */
  recorded_at: string;
  /** Who recorded it (an operator label, never a secret). */
  recorded_by: string;
}

/** A field that makes a value not a receipt, and why. */
export interface ReceiptProblem {
  field: string;
  reason: string;
}

const FIELDS = [
  'schema',
  'seq',
  'prev_sha256',
  'job_id',
  'kind',
  'action_id',
  'state',
  'reason',
  'recorded_at',
  'recorded_by',
];
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** Job ids: short, URL- and shell-safe, so they can be typed back into `gspc action-jobs cancel`. */
export const JOB_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;
// RFC 3339 UTC with optional fraction: the form `Date.prototype.toISOString` writes.
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const CONTROL = /[\u0000-\u001f\u007f]/;
const LONE_SURROGATE = /\p{Cs}/u;
export const MAX_REASON = 1000;
export const MAX_RECORDED_BY = 200;

function textProblem(field: string, v: unknown, max: number): ReceiptProblem | null {
  if (typeof v !== 'string' || v.length === 0) return { field, reason: 'must be a non-empty string' };
  if (v.length > max) return { field, reason: `must be at most ${max} characters` };
  if (CONTROL.test(v)) return { field, reason: 'must not contain control characters' };
  if (LONE_SURROGATE.test(v)) return { field, reason: 'must be well-formed Unicode' };
  return null;
}

/** True for an ISO 8601 UTC time that names a real calendar time (a parse, not a clock read). */
export function isIsoUtc(v: unknown): v is string {
  if (typeof v !== 'string' || !ISO_UTC.test(v)) return false;
  const parsed = Date.parse(v);
  return !Number.isNaN(parsed) && new Date(parsed).toISOString().slice(0, 19) === v.slice(0, 19);
}

/**
 * The first reason `v` is not a well-formed receipt, or null. Checks every field's shape and
 * that the state fits the kind; nothing about the chain (receipt-chain.ts) or the job's
 * history (action-jobs-states.ts).
 */
export function receiptProblem(v: unknown): ReceiptProblem | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return { field: 'receipt', reason: 'must be a JSON object' };
  const r = v as Record<string, unknown>;
  const extra = Object.keys(r).filter((k) => !FIELDS.includes(k));
  if (extra.length > 0) return { field: extra[0]!, reason: 'is not a receipt field' };
  if (r.schema !== ACTION_JOB_RECEIPT_SCHEMA)
    return { field: 'schema', reason: `must be ${ACTION_JOB_RECEIPT_SCHEMA}` };
  if (typeof r.seq !== 'number' || !Number.isSafeInteger(r.seq) || r.seq < 1)
    return { field: 'seq', reason: 'must be a whole number from 1' };
  if (typeof r.prev_sha256 !== 'string' || !SHA256_HEX.test(r.prev_sha256))
    return { field: 'prev_sha256', reason: 'must be a 64-digit lowercase hex SHA-256' };
  if (typeof r.job_id !== 'string' || !JOB_ID.test(r.job_id))
    return { field: 'job_id', reason: 'must be 1-64 letters, digits and . _ : - (starting with a letter or digit)' };
  if (r.kind !== 'intent' && r.kind !== 'state') return { field: 'kind', reason: 'must be intent or state' };
  if (!(ACTION_IDS as readonly unknown[]).includes(r.action_id))
    return { field: 'action_id', reason: `must be one of ${ACTION_IDS.join(', ')}` };
  if (!STATES_BY_KIND[r.kind].includes(r.state as JobState))
    return { field: 'state', reason: `a ${r.kind} receipt carries ${STATES_BY_KIND[r.kind].join(' or ')}` };
  const reason = textProblem('reason', r.reason, MAX_REASON);
  if (reason) return reason;
  if (!isIsoUtc(r.recorded_at))
    return { field: 'recorded_at', reason: 'must be an ISO 8601 UTC time like 2025-01-31T12:00:00.000Z' };
  return textProblem('recorded_by', r.recorded_by, MAX_RECORDED_BY);
}

/** Narrowing form of {@link receiptProblem}. */
export function isActionJobReceipt(v: unknown): v is ActionJobReceipt {
  return receiptProblem(v) === null;
}
