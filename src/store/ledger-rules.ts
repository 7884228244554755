import { ledgerError } from './ledger-errors.js';
import { artefactAttachment, errorText, isoTime, transactionRef } from './ledger-input.js';
import { isActionJobReceipt, type ActionJobReceipt } from '../core/ledger/action-jobs-receipt.js';
import { transitionProblem } from '../core/ledger/action-jobs-states.js';
import type { ChainHead, SealedReceipt } from '../core/ledger/receipt-chain.js';
import type {
  ArtefactAttachment,
  InvoiceRecord,
  NewInvoice,
  PaymentKey,
  ReserveOutcome,
  SettlementRecord,
  SettlementState,
  UnknownResolution,
} from './ledger.js';

/**
 * The state machine, written once for both backends. Each backend runs a plan as one
 * conditional update (`... WHERE state = plan.from`) plus an appended event, inside one
 * transaction; when the update matches no row, `afterRefusal` says why. Because the condition
 * is checked by the database at write time, two racing callers cannot both move a record.
 */

/** Columns a transition may set besides state and updated_at (record field names). */

export interface TransitionPatch {
  transaction?: string | null;
  error?: string | null;
  artefact?: Buffer | null;
  artefact_sha256?: string | null;
  receipt?: string | null;
  payment_id_sha256?: string | null;
}

export interface TransitionPlan {
  op: 'markSettled' | 'markFailed' | 'markUnknown' | 'reopenUnknown' | 'resolveUnknown' | 'attachArtefact';
  from: SettlementState;
  to: SettlementState;
  patch: TransitionPatch;
  /** Only attachArtefact: the record must not carry an artefact yet. */
  requireNoArtefact: boolean;
  at: string;
}

const settledPatch = (tx: string, a: ArtefactAttachment | undefined): TransitionPatch => ({
  transaction: tx,
  error: null,
  ...(a ? { artefact: a.artefact, artefact_sha256: a.artefact_sha256, receipt: a.receipt } : {}),
  ...(a?.payment_id_sha256 !== undefined && { payment_id_sha256: a.payment_id_sha256 }),
});

export function planMarkSettled(s: ArtefactAttachment & { transaction: string; at: string }): TransitionPlan {
  const patch = settledPatch(transactionRef(s.transaction), artefactAttachment(s));
  return {
    op: 'markSettled',
    from: 'RESERVED',
    to: 'SETTLED',
    patch,
    requireNoArtefact: false,
    at: isoTime('at', s.at),
  };
}

export function planMarkFailed(f: { error: string; at: string }): TransitionPlan {
  return {
    op: 'markFailed',
    from: 'RESERVED',
    to: 'FAILED',
    patch: { error: errorText(f.error) },
    requireNoArtefact: false,
    at: isoTime('at', f.at),
  };
}

/** RESERVED → UNKNOWN, or (reconcile) FAILED → UNKNOWN; with the transaction that may settle it, when one is named. */
export function planMarkUnknown(
  f: { error: string; at: string; transaction?: string },
  from: 'RESERVED' | 'FAILED' = 'RESERVED',
): TransitionPlan {
  return {
    op: from === 'RESERVED' ? 'markUnknown' : 'reopenUnknown',
    from,
    to: 'UNKNOWN',
    patch: {
      error: errorText(f.error),
      ...(f.transaction !== undefined && { transaction: transactionRef(f.transaction) }),
    },
    requireNoArtefact: false,
    at: isoTime('at', f.at),
  };
}

export function planResolveUnknown(o: UnknownResolution): TransitionPlan {
  const at = isoTime('at', o?.at);
  if (o.state === 'SETTLED') {
    const patch = settledPatch(
      transactionRef(o.transaction),
      o.artefact === undefined ? undefined : artefactAttachment(o.artefact),
    );
    return { op: 'resolveUnknown', from: 'UNKNOWN', to: 'SETTLED', patch, requireNoArtefact: false, at };
  }
  if (o.state === 'FAILED') {
    return {
      op: 'resolveUnknown',
      from: 'UNKNOWN',
      to: 'FAILED',
      // A transaction the facilitator named and the chain shows never used the authorization.
      patch: { error: errorText(o.error), transaction: null },
      requireNoArtefact: false,
      at,
    };
  }
  throw ledgerError('ledger_input_invalid', 'ledger: an UNKNOWN settlement resolves only to SETTLED or FAILED', {
    field: 'state',
  });
}

export function planAttachArtefact(a: ArtefactAttachment & { at: string }): TransitionPlan {
  const { artefact, artefact_sha256, receipt, payment_id_sha256 } = artefactAttachment(a);
  return {
    op: 'attachArtefact',
    from: 'SETTLED',
    to: 'SETTLED',
    patch: { artefact, artefact_sha256, receipt, ...(payment_id_sha256 !== undefined && { payment_id_sha256 }) },
    requireNoArtefact: true,
    at: isoTime('at', a.at),
  };
}

/**
 * The conditional update matched nothing. Returns the current record when the call was an
 * idempotent repeat (attaching the same artefact again); otherwise throws the reason.
 */
export function afterRefusal(
  plan: TransitionPlan,
  key: PaymentKey,
  current: SettlementRecord | undefined,
): SettlementRecord {
  if (current === undefined) {
    throw ledgerError(
      'ledger_not_found',
      `ledger: ${plan.op}: no settlement for payer ${key.payer} nonce ${key.nonce}`,
      { ...key },
    );
  }
  if (plan.requireNoArtefact && current.state === plan.from) {
    if (current.artefact_sha256 === plan.patch.artefact_sha256) return current;
    throw ledgerError('ledger_conflict', `ledger: ${plan.op}: the settlement already carries another artefact`, {
      ...key,
      artefact_sha256: current.artefact_sha256,
    });
  }
  throw ledgerError(
    'ledger_transition_invalid',
    `ledger: ${plan.op} moves ${plan.from} → ${plan.to}, but the settlement is ${current.state}`,
    { ...key, op: plan.op, state: current.state, expected: plan.from },
  );
}

/** The same rule in code: whether `n` may reopen the FAILED `record` (ledger-rows.ts reopenGuard). */
const mayReopen = (
  record: { payment_id_sha256?: string | null; product_id: string; resource: string },
  n: { payment_id_sha256?: string | null; product_id: string; resource: string },
): boolean =>
  (record.payment_id_sha256 ?? null) === null
    ? record.product_id === n.product_id && record.resource === n.resource
    : record.payment_id_sha256 === (n.payment_id_sha256 ?? null);

/**
 * reserve(): the insert found a record and the FAILED-reopen did not apply. 'retry' means the
 * record was reopened and failed again by someone else between our statements (PostgreSQL
 * only; SQLite runs the whole reserve in one transaction), so run reserve again.
 */
export function existingOutcome(
  record: SettlementRecord,
  n: { payment_sha256: string; payment_id_sha256?: string | null; product_id: string; resource: string },
): ReserveOutcome | 'retry' {
  if (record.payment_sha256 !== n.payment_sha256) return { outcome: 'conflict', record };
  // The same payload, but not the buyer's to reopen (reopenGuard): refused, nothing written.
  if (record.state === 'FAILED' && !mayReopen(record, n)) return { outcome: 'conflict', record };
  if (record.state === 'FAILED') return 'retry';
  return { outcome: 'exists', record };
}

/**
 * createInvoice(): an existing ref is a retried request only when every field is the same,
 * the artefact (by its checked hash) and receipt included: an invoice must release exactly
 * what it was issued for.
 */
export function sameInvoice(a: NewInvoice, b: InvoiceRecord): boolean {
  return (
    a.product_id === b.product_id &&
    a.sku_id === b.sku_id &&
    a.resource === b.resource &&
    a.commissioned_by === b.commissioned_by &&
    a.amount_atomic === b.amount_atomic &&
    a.currency === b.currency &&
    (a.artefact?.artefact_sha256 ?? null) === b.artefact_sha256 &&
    (a.artefact?.receipt ?? null) === b.receipt
  );
}

export function invoiceConflict(ref: string): never {
  throw ledgerError('ledger_conflict', `ledger: invoice ${ref} already exists with other fields`, { ref });
}

export function invoiceNotFound(ref: string): never {
  throw ledgerError('ledger_not_found', `ledger: no invoice ${ref}`, { ref });
}

/**
 * A job's earlier receipts from their stored bodies, oldest first. A body that is not a
 * receipt means the stored chain was altered: refuse to build on it rather than guess.
 */
export function jobHistory(
  jobId: string,
  rows: ReadonlyArray<{ seq: number | string; body: string }>,
): ActionJobReceipt[] {
  return rows.map((row) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.body);
    } catch {
      parsed = undefined;
    }
    if (!isActionJobReceipt(parsed)) {
      throw ledgerError(
        'ledger_transition_invalid',
        `ledger: receipt seq ${row.seq} of job ${jobId} is unreadable, so the job's state is unknown; \`gspc action-jobs verify\` checks the chain`,
        { job_id: jobId, seq: Number(row.seq) },
      );
    }
    return parsed;
  });
}

/**
 * appendActionReceipt(), given the head and the job's history read by the writer: refuses a
 * moved head (another writer won: `ledger_conflict`, never a fork), a receipt not at head + 1,
 * and a transition the job's history does not allow.
 */
export function checkAppend(
  sealed: SealedReceipt,
  expected: string,
  head: ChainHead,
  history: readonly ActionJobReceipt[],
): void {
  if (head.sha256 !== expected) {
    throw ledgerError(
      'ledger_conflict',
      `ledger: the action-job chain head moved (it is now seq ${head.seq}); another writer appended first, so nothing was written: re-read the chain and build on its head`,
      { expected_head_sha256: expected, head_sha256: head.sha256, head_seq: head.seq },
    );
  }
  const r = sealed.receipt;
  if (r.seq !== head.seq + 1) {
    throw ledgerError(
      'ledger_input_invalid',
      `ledger: seq must be ${head.seq + 1} (the head is seq ${head.seq}), not ${r.seq}`,
      { field: 'seq' },
    );
  }
  const illegal = transitionProblem(history, r);
  if (illegal) throw ledgerError('ledger_transition_invalid', `ledger: ${illegal}`, { job_id: r.job_id, seq: r.seq });
}

/** The concurrent loser of an append whose head check passed: another writer took the seq. */
export function appendRaced(seq: number): never {
  throw ledgerError(
    'ledger_conflict',
    `ledger: another writer appended action-job receipt seq ${seq} first, so nothing was written: re-read the chain and build on its head`,
    { seq },
  );
}
