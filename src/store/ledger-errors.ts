import { GspcError, type GspcErrorCode } from '../core/errors.js';

/** The ledger's stable error codes (a subset of `GspcErrorCode`; docs/errors.md lists them). */
export type LedgerErrorCode = Extract<
  GspcErrorCode,
  | 'ledger_input_invalid'
  | 'ledger_not_found'
  | 'ledger_transition_invalid'
  | 'ledger_conflict'
  | 'ledger_unavailable'
  | 'ledger_schema_unsupported'
>;

const LEDGER_CODES = new Set<string>([
  'ledger_input_invalid',
  'ledger_not_found',
  'ledger_transition_invalid',
  'ledger_conflict',
  'ledger_unavailable',
  'ledger_schema_unsupported',
]);

export function ledgerError(code: LedgerErrorCode, message: string, details?: Record<string, unknown>): GspcError {
  return new GspcError(code, message, details);
}

/** The ledger code of an error, if it is one of the ledger's. */
export function ledgerCodeOf(e: unknown): LedgerErrorCode | undefined {
  return e instanceof GspcError && LEDGER_CODES.has(e.code) ? (e.code as LedgerErrorCode) : undefined;
}
