/**
 * The one error class for broken contracts. Expected outcomes (a payment is required, a card
 * does not verify) are returned as values; a `GspcError` means the caller or the operator gave
 * input that breaks a documented contract. Every code is listed, with its HTTP status, in
 * docs/errors.md; the HTTP layer maps codes to statuses in one table.
 */
export type GspcErrorCode =
  | 'corpus_invalid'
  | 'release_invalid'
  | 'release_not_found'
  | 'release_wrong_origin'
  | 'release_keys_mismatch'
  | 'release_not_successor'
  | 'release_other_board'
  | 'keys_unhealthy'
  | 'keys_in_use'
  | 'root_key_required'
  | 'root_key_invalid'
  | 'corrections_signature_invalid'
  | 'listen_failed'
  | 'publish_locked'
  | 'unknown_axis'
  | 'bad_query'
  | 'not_found'
  | 'tile_not_found'
  | 'method_not_allowed'
  | 'config_invalid'
  | 'witness_invalid'
  | 'bad_body'
  | 'body_too_large'
  | 'unsupported_media_type'
  | 'bad_url'
  | 'bad_request'
  | 'forbidden_origin'
  | 'bad_payment'
  | 'payment_conflict'
  | 'payment_other_resource'
  | 'payment_already_delivered'
  | 'payer_sign_in_required'
  | 'rail_unconfigured'
  | 'facilitator_unavailable'
  | 'chain_unavailable'
  | 'settlement_unknown'
  | 'settlement_pending'
  | 'payment_pending'
  | 'ledger_input_invalid'
  | 'ledger_not_found'
  | 'ledger_transition_invalid'
  | 'ledger_conflict'
  | 'ledger_unavailable'
  | 'ledger_schema_unsupported'
  | 'import_refused'
  | 'monitor_state_invalid'
  | 'monitor_state_foreign'
  | 'rate_limited'
  | 'internal';

export interface CorpusProblem {
  /** Path relative to the corpus root, e.g. `peritem/governance.jsonl`. */
  file: string;
  /** 1-based line, when the problem can be placed on a line. */
  line?: number;
  /** Dotted field path inside the record, or '' for the whole record. */
  field: string;
  reason: string;
}

export class GspcError extends Error {
  readonly code: GspcErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: GspcErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'GspcError';
    this.code = code;
    this.details = details;
  }
}

/** Formats a corpus problem as `file:line field: reason`, the form the CLI prints. */
export function formatProblem(p: CorpusProblem): string {
  const where = p.line === undefined ? p.file : `${p.file}:${p.line}`;
  return p.field ? `${where} ${p.field}: ${p.reason}` : `${where}: ${p.reason}`;
}
