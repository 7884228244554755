/**
 * The `/api/action-jobs` document (`svc.action-jobs/0.1`; specification, "Capability fabric":
 * rail action-job-ledger; "The action-job ledger records intent and state receipts only
 * (append-only receipt chain, single-writer staging, concurrency guarantee NONE); no executor,
 * provider call, external egress, training or board write is enabled"). The body beyond that
 * is not shown; docs/drafts/action-jobs.md lists every field.
 *
 * Built from what the store returned on this request: the chain is verified from the stored
 * rows each time, so a tampered receipt shows as BROKEN on the next read. An unread ledger is
 * UNREAD with its reason (nulls), never an empty chain.
 */
import { JOB_STATES, type ActionJobReceipt, type JobState } from './action-jobs-receipt.js';
import { jobsOf, type ActionJobView } from './action-jobs-states.js';
import { verifyReceiptChain, type ChainState, type StoredReceiptRow } from './receipt-chain.js';

export const ACTION_JOBS_SCHEMA = 'svc.action-jobs/0.1';

/** The newest receipts listed in the document (the total is stated beside them). */
export const RECEIPTS_SHOWN = 100;

/**
 * At most this many receipts are read and verified per request, so a request's cost is
 * bounded (hashing, parsing and re-canonicalising each one takes about 10 µs, so about 0.1 s
 * at the bound, plus reading the rows); a longer chain is reported UNREAD, and
 * `gspc action-jobs verify` checks all of it.
 */
export const VERIFY_BOUND = 10_000;

export const ACTION_JOBS_POLICY = {
  mode: 'FAIL_CLOSED',
  execution_enabled: false,
  executor_ref: null,
  provider_calls: false,
  egress: false,
  training: false,
  board_writes: false,
  reason:
    'The action-job ledger records intent and state receipts only: no executor is configured, so no job is run, no provider is called, nothing leaves the service, nothing is trained and the board is never written. Every recorded intent is answered by a REFUSED state receipt.',
} as const;

/** What the route read: up to VERIFY_BOUND + 1 rows in seq order, or why nothing was read. */
export type ActionJobsRead =
  | { ok: true; source: string; rows: readonly StoredReceiptRow[] }
  | { ok: false; source: string; reason: string };

export interface ActionJobsChain {
  state: ChainState | 'UNREAD';
  /** Stored receipts; null when unread. */
  length: number | null;
  /** The recorded sha256 of the last stored receipt (64 zeros when EMPTY); null when unread. */
  head_sha256: string | null;
  /** Receipts verified from the first; null when unread. */
  intact_length: number | null;
  /** Only when BROKEN. */
  broken_at_seq?: number;
  reason: string;
  verification: { scope: string; bound: number };
}

export type ServedReceipt = ActionJobReceipt & { sha256: string };

export interface ActionJobsDocument {
  schema: typeof ACTION_JOBS_SCHEMA;
  observed_at: string;
  /** Where the receipts were read from, e.g. "action-job ledger (sqlite)". */
  source: string;
  policy: typeof ACTION_JOBS_POLICY;
  staging: 'SINGLE_WRITER';
  concurrency_guarantee: 'NONE';
  job_states: readonly JobState[];
  chain: ActionJobsChain;
  /** Jobs of the verified receipts, in request order; null when unread. */
  jobs: ActionJobView[] | null;
  /** Every stored receipt counted (verified or not); null when unread. */
  receipts_total: number | null;
  receipts_limit: number;
  /** The newest verified receipts (at most receipts_limit), in chain order; null when unread. */
  receipts: ServedReceipt[] | null;
}

const VERIFICATION = {
  scope:
    'every stored receipt, from the first, re-verified on every request (hash of the canonical body, link to the previous receipt, seq order, job states)',
  bound: VERIFY_BOUND,
};

function unread(read: { source: string }, observedAt: Date, reason: string): ActionJobsDocument {
  return {
    schema: ACTION_JOBS_SCHEMA,
    observed_at: observedAt.toISOString(),
    source: read.source,
    policy: ACTION_JOBS_POLICY,
    staging: 'SINGLE_WRITER',
    concurrency_guarantee: 'NONE',
    job_states: JOB_STATES,
    chain: {
      state: 'UNREAD',
      length: null,
      head_sha256: null,
      intact_length: null,
      reason,
      verification: VERIFICATION,
    },
    jobs: null,
    receipts_total: null,
    receipts_limit: RECEIPTS_SHOWN,
    receipts: null,
  };
}

/** Builds the document from one read of the ledger; `observedAt` is the request's clock. */
export function actionJobsDocument(read: ActionJobsRead, observedAt: Date): ActionJobsDocument {
  if (!read.ok) return unread(read, observedAt, read.reason);
  if (read.rows.length > VERIFY_BOUND) {
    return unread(
      read,
      observedAt,
      `more than ${VERIFY_BOUND} receipts are stored, over the per-request verification bound; \`gspc action-jobs verify\` checks the whole chain`,
    );
  }
  const { check, receipts } = verifyReceiptChain(read.rows);
  // A receipt at or after a break is not vouched for by the chain, so only the verified
  // prefix becomes jobs and listed receipts; the break itself is named in `chain`.
  const hashes = new Map(read.rows.map((r) => [r.seq, r.sha256]));
  return {
    schema: ACTION_JOBS_SCHEMA,
    observed_at: observedAt.toISOString(),
    source: read.source,
    policy: ACTION_JOBS_POLICY,
    staging: 'SINGLE_WRITER',
    concurrency_guarantee: 'NONE',
    job_states: JOB_STATES,
    chain: {
      state: check.state,
      length: check.length,
      head_sha256: check.head_sha256,
      intact_length: check.intact_length,
      ...(check.broken_at_seq !== undefined && { broken_at_seq: check.broken_at_seq }),
      reason: check.reason,
      verification: VERIFICATION,
    },
    jobs: jobsOf(receipts),
    receipts_total: check.length,
    receipts_limit: RECEIPTS_SHOWN,
    receipts: receipts.slice(-RECEIPTS_SHOWN).map((r) => ({ ...r, sha256: hashes.get(r.seq)! })),
  };
}
