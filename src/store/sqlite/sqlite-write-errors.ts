/**
 * What a failed SQLite write means to the ledger's callers: a lock held past the busy timeout,
 * a full disk or a file that cannot be written is `ledger_unavailable` (HTTP 503; nothing of that
 * transaction was kept, so a payment whose reservation fails is never charged); anything else is
 * rethrown as it is.
 */
import { ledgerError } from '../ledger-errors.js';

export function writeFailure(e: unknown): unknown {
  const code = (e as { code?: string }).code ?? '';
  if (code === 'SQLITE_BUSY')
    return ledgerError(
      'ledger_unavailable',
      `ledger: SQLite file is locked by another writer: ${(e as Error).message}`,
    );
  if (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY'))
    return ledgerError(
      'ledger_unavailable',
      `ledger: cannot write the SQLite ledger (${code === 'SQLITE_FULL' ? 'the disk is full' : code}): ${(e as Error).message}; nothing of this write was kept`,
      { sqlite: code },
    );
  return e;
}
