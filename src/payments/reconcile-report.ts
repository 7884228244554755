/**
 * What `gspc reconcile` reports (reconcile.ts): one entry per record it looked at, with the step
 * taken and what the chain showed for it; read by the CLI's text and JSON output.
 */
import type { SettlementState } from '../store/ledger.js';

export type ReconcileAction =
  /** RESERVED → UNKNOWN: the reservation outlived `staleAfterMs`. */
  | 'abandoned'
  /** UNKNOWN (or FAILED) → SETTLED: the transfer is on chain. */
  | 'settled'
  /** UNKNOWN → FAILED: the authorization expired unused. */
  | 'failed'
  /** Stays UNKNOWN: unused, but still valid; run reconcile again after `pending_until`. */
  | 'pending'
  /** Stays as it is: the chain does not decide it (the detail says why); an operator must look. */
  | 'undecided'
  /** Not moved: another process moved the record first. */
  | 'skipped'
  /** Not moved: the chain or the ledger failed for this record; try again. */
  | 'error';

export const RECONCILE_ACTIONS: readonly ReconcileAction[] = [
  'abandoned',
  'settled',
  'failed',
  'pending',
  'undecided',
  'skipped',
  'error',
];

/** What the chain showed for one record, at the block it was judged at. */
export interface ChainShowed {
  block: string;
  block_time: string;
  /** `authorizationState(payer, nonce)` at that block: used (or canceled by the payer) or not. */
  authorization: 'used' | 'unused';
  /** The transaction that used it: the one the facilitator named, else its AuthorizationUsed log's. */
  transaction: string | null;
  /** Whether that transaction succeeded with the Transfer of the amount from the payer to pay_to; null without one. */
  transfer: boolean | null;
  /** The authorization's validBefore (ISO), or null when the record has none. */
  valid_before: string | null;
}

export interface ReconcileEntry {
  action: ReconcileAction;
  payer: string;
  nonce: string;
  product_id: string;
  resource: string;
  amount_atomic: string;
  network: string;
  /** The record's state before and after this step. */
  from: SettlementState;
  to: SettlementState;
  /** The settling transaction, when one was found. */
  transaction: string | null;
  /** ISO time of validBefore, for 'pending'. */
  pending_until: string | null;
  /** What the chain showed; null when it was not read for this step (abandoned, another network, an error). */
  chain: ChainShowed | null;
  detail: string;
}

export interface ReconcileReport {
  at: string;
  /** What the chain said at the start (or why it could not be read). */
  chain: { chain_id: number; network: string; block: string; block_time: string } | { error: string };
  entries: ReconcileEntry[];
  counts: Record<ReconcileAction, number>;
  note: string;
}

export const REPLAY_NOTE =
  'SETTLED records resolved here carry no artefact yet: when the buyer replays the same payment, the service produces the artefact and attaches it, without a second charge.';
