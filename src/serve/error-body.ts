/**
 * The one table from error codes to HTTP statuses, and the JSON error body every answer carries:
 * `{ error, code, ...details }`. docs/errors.md lists the same table. It lives below the route
 * layers because the document readers (MCP tools, A2A skills, pages) answer the same bodies.
 */
import { GspcError, type GspcErrorCode } from '../core/errors.js';

export const STATUS_BY_CODE: Record<GspcErrorCode, number> = {
  corpus_invalid: 422,
  release_invalid: 500,
  release_not_found: 503,
  // Errors of the command line: never an HTTP answer, mapped only so every code has a status.
  release_wrong_origin: 500,
  release_keys_mismatch: 500,
  release_not_successor: 500,
  release_other_board: 500,
  // Served for a signed release whose board cannot be signed now (issue 38).
  keys_unhealthy: 503,
  keys_in_use: 500,
  root_key_required: 500,
  root_key_invalid: 500,
  corrections_signature_invalid: 500,
  listen_failed: 500,
  publish_locked: 500,
  unknown_axis: 404,
  bad_query: 400,
  not_found: 404,
  tile_not_found: 404,
  method_not_allowed: 405,
  config_invalid: 500,
  witness_invalid: 422,
  bad_body: 400,
  body_too_large: 413,
  unsupported_media_type: 415,
  bad_url: 400,
  bad_request: 400,
  forbidden_origin: 403,
  bad_payment: 400,
  payment_conflict: 409,
  payment_other_resource: 409,
  payment_already_delivered: 409,
  payer_sign_in_required: 409,
  rail_unconfigured: 503,
  facilitator_unavailable: 503,
  settlement_unknown: 502,
  settlement_pending: 502,
  chain_unavailable: 502,
  payment_pending: 409,
  ledger_input_invalid: 400,
  ledger_not_found: 404,
  ledger_transition_invalid: 409,
  ledger_conflict: 409,
  ledger_unavailable: 503,
  ledger_schema_unsupported: 500,
  import_refused: 422,
  // `gspc monitor`'s own state file: command-line errors, never an HTTP answer.
  monitor_state_invalid: 500,
  monitor_state_foreign: 500,
  rate_limited: 429,
  internal: 500,
};

export function errorBody(err: GspcError): Record<string, unknown> {
  return { error: err.message, code: err.code, ...err.details };
}

/** The status and error body of a failure: a GspcError as itself, anything else as `internal`. */
export function failureOf(err: unknown): { status: number; body: Record<string, unknown> } {
  const e = err instanceof GspcError ? err : new GspcError('internal', 'internal error');
  return { status: STATUS_BY_CODE[e.code], body: errorBody(e) };
}
